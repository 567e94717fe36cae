import { All, Inject, Param, Post, Req, Res } from '@nestjs/common';

import type { InterfaceBehaviour } from '../lifecycle/pipeline/exchange.js';
import { RequestServer } from '../lifecycle/request-server.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { RPC_ROUTE } from '../options/interface-mounts.js';
import type { PlatformResponse } from '../shared/api-response.js';
import { RpcService } from './rpc.service.js';
import { rpcBehaviour } from './rpc-behaviour.js';
import { isRpcOperationName } from './rpc-operations.js';
import { RPC_TRANSACTION_ROUTE } from './transaction/transaction-route.js';

/**
 * One route for every `/{model}/{operation}`, on Express or Fastify: the service checks model,
 * operation and method. Mounted per module instance by `mountController`.
 */
export class RpcController {
  private readonly behaviour: InterfaceBehaviour;

  constructor(
    @Inject(RpcService) private readonly rpc: RpcService,
    @Inject(ModelRegistry) private readonly registry: ModelRegistry,
    @Inject(RequestServer) private readonly server: RequestServer,
    @Inject(CRUD_API_OPTIONS) options: ResolvedCrudApiOptions,
  ) {
    this.behaviour = rpcBehaviour(options, registry);
  }

  /** Declared first: `$transaction/sequential` would otherwise match `:model/:operation`. */
  @Post(RPC_TRANSACTION_ROUTE)
  transaction(@Req() req: any, @Res() res: PlatformResponse): Promise<void> {
    const scope = { interface: 'rpc' as const, operation: '$transaction' };
    return this.server.serve(
      req,
      res,
      scope,
      (request) => this.rpc.transaction(request),
      'application/json',
      this.behaviour,
    );
  }

  @All(RPC_ROUTE)
  handle(
    @Req() req: any,
    @Res() res: PlatformResponse,
    @Param('model') model: string,
    @Param('operation') operation: string,
  ): Promise<void> {
    // Only names the module knows become attributes: metrics stay bounded whatever the URL says.
    const scope = {
      interface: 'rpc' as const,
      model: this.registry.findByTypeName(model)?.name,
      operation: isRpcOperationName(operation) ? operation : undefined,
    };
    return this.server.serve(
      req,
      res,
      scope,
      (request) => this.rpc.handle(request, model, operation),
      'application/json',
      this.behaviour,
    );
  }
}
