import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CRUD_API_OPTIONS } from '../crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../crud-api-options.interface.js';
import { withPolicies } from '../policies/with-policies.js';
import type { PolicyContext } from '../policies/policy.types.js';
import type { PrismaClientLike } from './prisma-client-like.js';

/** Passport-style guards put the caller in `request.user`. */
const defaultPolicyContext = (request: Request): PolicyContext => ({ user: (request as Request & { user?: unknown }).user });

/**
 * Gives each request its Prisma client: the `getPrisma(request)` option, called once per request
 * however many queries the request runs, or the shared `prisma` option; with the `policies`
 * option, that client wrapped with the policies for the request's context.
 */
@Injectable()
export class PrismaClientResolver {
  private readonly perRequest = new WeakMap<Request, Promise<PrismaClientLike>>();

  constructor(@Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions) {}

  forRequest(request: Request): Promise<PrismaClientLike> {
    const { getPrisma, prisma, policies } = this.options;
    if (!getPrisma && !policies) return Promise.resolve(prisma as PrismaClientLike);
    let client = this.perRequest.get(request);
    if (!client) {
      client = this.create(request);
      this.perRequest.set(request, client);
    }
    return client;
  }

  private async create(request: Request): Promise<PrismaClientLike> {
    const { getPrisma, prisma, policies, defaultPolicy, modelMeta, context = defaultPolicyContext } = this.options;
    const client = getPrisma ? await getPrisma(request) : (prisma as PrismaClientLike);
    if (!policies) return client;
    return withPolicies(client, { policies, defaultPolicy, modelMeta, context: await context(request) });
  }
}
