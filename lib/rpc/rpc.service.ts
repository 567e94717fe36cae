import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CRUD_API_OPTIONS } from '../crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../crud-api-options.interface.js';
import { CrudApiError } from '../filters/crud-api.error.js';
import type { ApiResponse } from '../http/api-response.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import { PrismaClientResolver } from '../prisma/prisma-client.resolver.js';

/** Runs one Prisma operation per request. Replace it with a provider of your own to customize it. */
@Injectable()
export class RpcService {
  constructor(
    @Inject(CRUD_API_OPTIONS) protected readonly options: ResolvedCrudApiOptions,
    protected readonly registry: ModelRegistry,
    protected readonly clients: PrismaClientResolver,
  ) {}

  async handle(req: Request, model: string, operation: string): Promise<ApiResponse> {
    throw new CrudApiError('internal-error', `${model}.${operation} is not implemented yet`);
  }
}
