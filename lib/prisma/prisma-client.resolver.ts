import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CRUD_API_OPTIONS } from '../crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../crud-api-options.interface.js';
import type { PrismaClientLike } from './prisma-client-like.js';

/**
 * Gives each request its Prisma client: the `getPrisma(request)` option, called once per request
 * however many queries the request runs, or the shared `prisma` option.
 */
@Injectable()
export class PrismaClientResolver {
  private readonly perRequest = new WeakMap<Request, Promise<PrismaClientLike>>();

  constructor(@Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions) {}

  forRequest(request: Request): Promise<PrismaClientLike> {
    const { getPrisma, prisma } = this.options;
    if (!getPrisma) return Promise.resolve(prisma as PrismaClientLike);
    let client = this.perRequest.get(request);
    if (!client) {
      client = Promise.resolve(getPrisma(request));
      this.perRequest.set(request, client);
    }
    return client;
  }
}
