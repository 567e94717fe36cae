import { ConfigurableModuleBuilder, type DynamicModule } from '@nestjs/common';

import { CrudApiOpenApi, OPENAPI_OPTIONS } from '../openapi/crud-api-openapi.service.js';
import { mountOpenApiController } from '../openapi/openapi.controller.js';
import { resolveOpenApiOptions } from '../openapi/openapi.types.js';
import {
  CRUD_API_MOUNT,
  CRUD_API_OPTIONS,
  DEFAULT_REST_PATH,
  DEFAULT_RPC_PATH,
} from '../options/crud-api.constants.js';
import type { CrudApiOptions } from '../options/crud-api-options.interface.js';
import { mountController } from '../platform/mount-controller.js';
import { AtomicOperationsService } from '../rest/atomic/atomic-operations.service.js';
import { RestController } from '../rest/rest.controller.js';
import { RestService } from '../rest/rest.service.js';
import { RestExceptionFilter } from '../rest/rest-errors.js';
import { RpcController } from '../rpc/rpc.controller.js';
import { RpcService } from '../rpc/rpc.service.js';
import { RpcExceptionFilter } from '../rpc/rpc-errors.js';
import type { CrudApiModuleExtras } from './crud-api-module-options.interface.js';
import {
  decoratorProblems,
  failOnProblems,
  mountProblems,
  openApiProblems,
  resolveCrudApiOptions,
} from './resolve-options.js';

/** Injection token of the options as given (or as the options factory returned them). */
export const CRUD_API_MODULE_OPTIONS = Symbol('CRUD_API_MODULE_OPTIONS');

/**
 * Adds what the extras decide to one instance's definition: its controllers at the mount paths,
 * its services, and the validated options (strict, at start-up).
 */
function mountInstance(definition: DynamicModule, extras: CrudApiModuleExtras): DynamicModule {
  const mount = { restPath: extras.restPath ?? DEFAULT_REST_PATH, rpcPath: extras.rpcPath ?? DEFAULT_RPC_PATH };
  failOnProblems([...mountProblems(mount), ...decoratorProblems(extras), ...openApiProblems(extras.openapi)]);
  const instance = Symbol(`CrudApiModule ${mount.restPath} ${mount.rpcPath}`);
  const openapi = resolveOpenApiOptions(extras.openapi);
  return {
    ...definition,
    controllers: [
      mountController(
        RestController,
        mount.restPath,
        RestExceptionFilter,
        { kind: 'rest', instance },
        extras.restDecorators,
      ),
      mountController(
        RpcController,
        mount.rpcPath,
        RpcExceptionFilter,
        { kind: 'rpc', instance },
        extras.rpcDecorators,
      ),
      ...(openapi ? [mountOpenApiController(openapi.path, openapi.decorators)] : []),
    ],
    providers: [
      ...(definition.providers ?? []),
      { provide: CRUD_API_MOUNT, useValue: instance },
      {
        provide: CRUD_API_OPTIONS,
        inject: [CRUD_API_MODULE_OPTIONS],
        useFactory: (options: CrudApiOptions) => resolveCrudApiOptions(options, mount),
      },
      { provide: RestService, useClass: extras.restService ?? RestService },
      { provide: RpcService, useClass: extras.rpcService ?? RpcService },
      AtomicOperationsService,
      ...(openapi ? [{ provide: OPENAPI_OPTIONS, useValue: openapi }, CrudApiOpenApi] : []),
    ],
    exports: [...(definition.exports ?? []), ...(openapi ? [CrudApiOpenApi] : [])],
  };
}

export const { ConfigurableModuleClass: ConfigurableCrudApiModule } = new ConfigurableModuleBuilder<CrudApiOptions>({
  optionsInjectionToken: CRUD_API_MODULE_OPTIONS,
  // Every registration is its own instance, even with equal options: its own routes and providers.
  alwaysTransient: true,
})
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createCrudApiOptions')
  .setExtras<CrudApiModuleExtras>(
    {
      restPath: DEFAULT_REST_PATH,
      rpcPath: DEFAULT_RPC_PATH,
      restService: undefined,
      rpcService: undefined,
      restDecorators: undefined,
      rpcDecorators: undefined,
      openapi: undefined,
    },
    mountInstance,
  )
  .build();
