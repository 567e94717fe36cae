import { Inject, Module, type NestModule } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';

import { LiveQueries } from './changes/live-queries.js';
import { IdempotentRequests } from './data/idempotency/idempotent-requests.js';
import { PrismaClientResolver } from './data/prisma-client.resolver.js';
import { CrudApiHealth } from './lifecycle/crud-api-health.service.js';
import { OutboxDelivery } from './lifecycle/outbox-delivery.js';
import { RequestDrain } from './lifecycle/request-drain.js';
import { RequestServer } from './lifecycle/request-server.js';
import { ModelRegistry } from './metadata/model-registry.js';
import { ConfigurableCrudApiModule } from './module/crud-api.module-definition.js';
import { CRUD_API_CONTROLLERS, CRUD_API_OPTIONS } from './options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from './options/crud-api-options.interface.js';
import { warnOnEndpointOutsideMount } from './platform/endpoint-check.js';
import { JsonBodyInstaller } from './platform/json-body.installer.js';
import { type MountedControllers, settleControllerPaths } from './platform/mount-controller.js';
import { RestService } from './rest/rest.service.js';
import { RpcService } from './rpc/rpc.service.js';

/**
 * Serves the application's Prisma models as a JSON:API REST interface and a superjson RPC
 * interface: `CrudApiModule.forRoot(options)` or `CrudApiModule.forRootAsync({ useFactory |
 * useClass | useExisting, imports, inject })`. Import it several times for several mounts; each
 * instance has its own options, routes and services. Its errors and body parsing are scoped to
 * its own routes. `restService`/`rpcService` replace the services with subclasses. When the
 * application closes, its routes drain before the application's own shutdown hooks run.
 */
@Module({
  providers: [
    {
      provide: ModelRegistry,
      inject: [CRUD_API_OPTIONS],
      useFactory: (resolved: ResolvedCrudApiOptions) =>
        new ModelRegistry(resolved.modelMeta, resolved.models, resolved.operations),
    },
    {
      provide: LiveQueries,
      inject: [CRUD_API_OPTIONS],
      useFactory: (resolved: ResolvedCrudApiOptions) => new LiveQueries(resolved.live, resolved.modelMeta),
    },
    JsonBodyInstaller,
    PrismaClientResolver,
    IdempotentRequests,
    RequestDrain,
    RequestServer,
    OutboxDelivery,
    CrudApiHealth,
  ],
  exports: [CRUD_API_OPTIONS, ModelRegistry, PrismaClientResolver, LiveQueries, RestService, RpcService, CrudApiHealth],
})
export class CrudApiModule extends ConfigurableCrudApiModule implements NestModule {
  /** @internal Nest constructs the module. */
  constructor(
    @Inject(CRUD_API_CONTROLLERS) private readonly controllers: MountedControllers,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
    @Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions,
  ) {
    super();
  }

  /**
   * Nest calls it as the application initializes, after `setGlobalPrefix` and `enableVersioning`
   * and before it registers the routes: the default mount paths are settled under the prefix then,
   * and `endpoint` is checked against where the REST routes are served.
   */
  configure(): void {
    settleControllerPaths(this.moduleRef, this.controllers);
    warnOnEndpointOutsideMount(this.moduleRef, this.options);
  }
}
