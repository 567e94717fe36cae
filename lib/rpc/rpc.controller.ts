import { All, Inject, Param, Post, Req, Res } from '@nestjs/common';

import { toApiRequest } from '../shared/api-request.js';
import { type PlatformResponse, sendApiResponse } from '../shared/api-response.js';
import { RpcService } from './rpc.service.js';
import { RPC_TRANSACTION_ROUTE } from './transaction/transaction-route.js';

/** The RPC route, relative to the mount path. */
export const RPC_ROUTE = ':model/:operation';

/**
 * One route for every `/{model}/{operation}`, on Express or Fastify: the service checks model,
 * operation and method. Mounted per module instance by `mountController`.
 */
export class RpcController {
  constructor(@Inject(RpcService) private readonly rpc: RpcService) {}

  /** Declared first: `$transaction/sequential` would otherwise match `:model/:operation`. */
  @Post(RPC_TRANSACTION_ROUTE)
  async transaction(@Req() req: any, @Res() res: PlatformResponse): Promise<void> {
    sendApiResponse(res, await this.rpc.transaction(toApiRequest(req)), 'application/json');
  }

  @All(RPC_ROUTE)
  async handle(
    @Req() req: any,
    @Res() res: PlatformResponse,
    @Param('model') model: string,
    @Param('operation') operation: string,
  ): Promise<void> {
    sendApiResponse(res, await this.rpc.handle(toApiRequest(req), model, operation), 'application/json');
  }
}
