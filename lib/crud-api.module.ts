import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CRUD_API_OPTIONS, DEFAULT_REST_PATH, DEFAULT_RPC_PATH } from './crud-api.constants.js';
import type {
  CrudApiModuleAsyncOptions,
  CrudApiModuleOptions,
  ResolvedCrudApiOptions,
} from './crud-api-options.interface.js';
import { resolveCrudApiOptions } from './crud-api-options.validation.js';
import { CrudApiExceptionFilter } from './filters/crud-api-exception.filter.js';
import { JsonBodyMiddleware } from './http/json-body.middleware.js';
import { ModelRegistry } from './metadata/model-registry.js';
import { PrismaClientResolver } from './prisma/prisma-client.resolver.js';
import { createRestController } from './rest/rest.controller.js';
import { RestService } from './rest/rest.service.js';
import { createRpcController } from './rpc/rpc.controller.js';
import { RpcService } from './rpc/rpc.service.js';

/**
 * Serves the application's Prisma models as a JSON:API REST interface and a superjson RPC
 * interface. `RestService`, `RpcService`, `PrismaClientResolver` and `CrudApiExceptionFilter`
 * are ordinary providers: replace any of them with your own.
 */
@Module({})
export class CrudApiModule {
  static forRoot(options: CrudApiModuleOptions): DynamicModule {
    const resolved = resolveCrudApiOptions(options);
    return CrudApiModule.build(resolved.restPath, resolved.rpcPath, [], {
      provide: CRUD_API_OPTIONS,
      useValue: resolved,
    });
  }

  static forRootAsync(options: CrudApiModuleAsyncOptions): DynamicModule {
    const restPath = options.restPath ?? DEFAULT_REST_PATH;
    const rpcPath = options.rpcPath ?? DEFAULT_RPC_PATH;
    return CrudApiModule.build(restPath, rpcPath, options.imports ?? [], {
      provide: CRUD_API_OPTIONS,
      inject: options.inject ?? [],
      useFactory: async (...args: unknown[]): Promise<ResolvedCrudApiOptions> =>
        resolveCrudApiOptions({ ...(await options.useFactory(...args)), restPath, rpcPath }),
    });
  }

  private static build(restPath: string, rpcPath: string, imports: any[], optionsProvider: Provider): DynamicModule {
    const controllers = [createRestController(restPath), createRpcController(rpcPath)];
    return {
      module: CrudApiModule,
      imports,
      controllers,
      providers: [
        optionsProvider,
        {
          provide: ModelRegistry,
          inject: [CRUD_API_OPTIONS],
          useFactory: (resolved: ResolvedCrudApiOptions) => new ModelRegistry(resolved.modelMeta, resolved.models, resolved.operations),
        },
        JsonBodyMiddleware,
        PrismaClientResolver,
        RestService,
        RpcService,
        CrudApiExceptionFilter,
        { provide: APP_FILTER, useExisting: CrudApiExceptionFilter },
      ],
      exports: [CRUD_API_OPTIONS, ModelRegistry, PrismaClientResolver, RestService, RpcService, CrudApiExceptionFilter],
    };
  }
}
