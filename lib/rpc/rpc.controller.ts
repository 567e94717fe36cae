import { All, Controller, Inject, Param, Req, Res, type Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import { sendApiResponse } from '../http/api-response.js';
import { RpcService } from './rpc.service.js';

/** One route for every `/{model}/{operation}`: the service checks model, operation and method. */
export class RpcController {
  constructor(@Inject(RpcService) private readonly rpc: RpcService) {}

  @All(':model/:operation')
  async handle(
    @Req() req: Request,
    @Res() res: Response,
    @Param('model') model: string,
    @Param('operation') operation: string,
  ): Promise<void> {
    sendApiResponse(res, await this.rpc.handle(req, model, operation), 'application/json');
  }
}

/** The controller class mounted at `path`. */
export function createRpcController(path: string): Type<RpcController> {
  class MountedRpcController extends RpcController {}
  Controller(path)(MountedRpcController);
  return MountedRpcController;
}
