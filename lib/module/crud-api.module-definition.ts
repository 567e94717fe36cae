import { ConfigurableModuleBuilder, type DynamicModule } from '@nestjs/common';

import { CrudApiOpenApi, OPENAPI_OPTIONS } from '../openapi/crud-api-openapi.service.js';
import { mountOpenApiController, OPENAPI_DOCUMENT_ROUTE } from '../openapi/openapi.controller.js';
import { resolveOpenApiOptions } from '../openapi/openapi.types.js';
import {
  CRUD_API_CONTROLLERS,
  CRUD_API_MOUNT,
  CRUD_API_OPTIONS,
  DEFAULT_REST_PATH,
  DEFAULT_RPC_PATH,
} from '../options/crud-api.constants.js';
import type { CrudApiOptions } from '../options/crud-api-options.interface.js';
import { interfaceMounts } from '../options/interface-mounts.js';
import { mountController, type MountedControllers } from '../platform/mount-controller.js';
import { AtomicOperationsService } from '../rest/atomic/atomic-operations.service.js';
import { RestController } from '../rest/rest.controller.js';
import { RestService } from '../rest/rest.service.js';
import { RestExceptionFilter } from '../rest/rest-errors.js';
import { RpcController } from '../rpc/rpc.controller.js';
import { RpcService } from '../rpc/rpc.service.js';
import { RpcExceptionFilter } from '../rpc/rpc-errors.js';
import type { NestMount } from '../shared/nest-route-paths.js';
import type { CrudApiModuleExtras } from './crud-api-module-options.interface.js';
import {
  type CrudApiMount,
  decoratorProblems,
  failOnProblems,
  mountProblems,
  openApiProblems,
  resolveCrudApiOptions,
} from './resolve-options.js';

/** Injection token of the options as given (or as the options factory returned them). */
export const CRUD_API_MODULE_OPTIONS = Symbol('CRUD_API_MODULE_OPTIONS');

/** Whether the `openapi` extra leaves its `path` to the default. */
function defaultOpenApiPath(option: CrudApiModuleExtras['openapi']): boolean {
  return option === true || (typeof option === 'object' && option.path === undefined);
}

/**
 * Adds what the extras decide to one instance's definition: its controllers at the mount paths,
 * its services, and the validated options (strict, at start-up).
 */
function mountInstance(definition: DynamicModule, extras: CrudApiModuleExtras): DynamicModule {
  const mount: CrudApiMount = {
    restPath: extras.restPath ?? DEFAULT_REST_PATH,
    rpcPath: extras.rpcPath ?? DEFAULT_RPC_PATH,
    version: extras.version,
    defaultPaths: { rest: extras.restPath === undefined, rpc: extras.rpcPath === undefined },
  };
  failOnProblems([...mountProblems(mount), ...decoratorProblems(extras), ...openApiProblems(extras.openapi)]);
  const instance = Symbol(`CrudApiModule ${mount.restPath} ${mount.rpcPath}`);
  const openapi = resolveOpenApiOptions(extras.openapi);
  const mounts = interfaceMounts(mount);
  const controllers: Array<MountedControllers[number]> = [
    [
      mountController(
        RestController,
        mounts.rest,
        RestExceptionFilter,
        { kind: 'rest', instance },
        extras.restDecorators,
      ),
      mounts.rest,
    ],
    [
      mountController(RpcController, mounts.rpc, RpcExceptionFilter, { kind: 'rpc', instance }, extras.rpcDecorators),
      mounts.rpc,
    ],
  ];
  if (openapi) {
    const docs: NestMount = {
      path: openapi.path,
      route: OPENAPI_DOCUMENT_ROUTE,
      version: mount.version,
      defaulted: defaultOpenApiPath(extras.openapi),
    };
    controllers.push([mountOpenApiController(docs, openapi.decorators), docs]);
  }
  return {
    ...definition,
    controllers: controllers.map(([controller]) => controller),
    providers: [
      ...(definition.providers ?? []),
      { provide: CRUD_API_MOUNT, useValue: instance },
      { provide: CRUD_API_CONTROLLERS, useValue: controllers },
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
      // Left undefined: `mountInstance` tells a default path from a given one.
      restPath: undefined,
      rpcPath: undefined,
      version: undefined,
      restService: undefined,
      rpcService: undefined,
      restDecorators: undefined,
      rpcDecorators: undefined,
      openapi: undefined,
    },
    mountInstance,
  )
  .build();
