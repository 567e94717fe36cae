import type { ConfigurableModuleAsyncOptions, Type } from '@nestjs/common';

import type { CrudApiOpenApiOptions } from '../openapi/openapi.types.js';
import type { CrudApiOptions } from '../options/crud-api-options.interface.js';
import type { RestService } from '../rest/rest.service.js';
import type { RpcService } from '../rpc/rpc.service.js';
import type { RouteVersion } from '../shared/nest-route-paths.js';

/**
 * What shapes the module's routes and providers, so it is given to `forRoot`/`forRootAsync`
 * directly, never by an options factory (routes are declared before factories run).
 */
export interface CrudApiModuleExtras {
  /**
   * Mount path of the REST controller.
   * @defaultValue `'api/rest'`
   */
  restPath?: string;
  /**
   * Mount path of the RPC controller.
   * @defaultValue `'api/rpc'`
   */
  rpcPath?: string;
  /**
   * The version of this instance's routes (REST, RPC and OpenAPI) when the application enables
   * Nest's versioning: a version, `VERSION_NEUTRAL` or a list.
   * @defaultValue the `defaultVersion`
   */
  version?: RouteVersion;
  /**
   * A subclass of `RestService` serving the REST routes of this instance.
   * @defaultValue `RestService`
   */
  restService?: Type<RestService>;
  /**
   * A subclass of `RpcService` serving the RPC routes of this instance.
   * @defaultValue `RpcService`
   */
  rpcService?: Type<RpcService>;
  /**
   * Class decorators applied to this instance's REST controller (its errors still answered in the
   * interface's format): `[UseGuards(JwtGuard), UseInterceptors(AuditInterceptor), SetMetadata('roles', ['admin'])]`.
   * @defaultValue none
   */
  restDecorators?: ClassDecorator[];
  /**
   * Class decorators applied to this instance's RPC controller (as `restDecorators`).
   * @defaultValue none
   */
  rpcDecorators?: ClassDecorator[];
  /**
   * OpenAPI 3.1 documents of both interfaces (`{path}/rest.json`, `{path}/rpc.json`) and Swagger UI
   * at `{path}`: `true` for the defaults or `{ path, title, version, servers, ui, decorators,
   * securitySchemes, security }`.
   * @defaultValue off
   */
  openapi?: boolean | CrudApiOpenApiOptions;
}

/** What `CrudApiModule.forRoot` takes. */
export type CrudApiModuleOptions = CrudApiOptions & CrudApiModuleExtras;

/** What `CrudApiModule.forRootAsync` takes: `useFactory`, `useClass` or `useExisting`, plus the extras. */
export type CrudApiModuleAsyncOptions = ConfigurableModuleAsyncOptions<CrudApiOptions, 'createCrudApiOptions'> &
  CrudApiModuleExtras;
