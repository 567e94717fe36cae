import { Inject, Injectable } from '@nestjs/common';

import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { PolicyContext } from '../policies/policy.types.js';
import { withPolicies } from '../policies/with-policies.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import type { ApiRequest, PlatformRequest } from '../shared/api-request.js';

/** Passport-style guards put the caller in `request.user`. */
const defaultPolicyContext = (request: PlatformRequest): PolicyContext => ({ user: request.user });

/**
 * Gives each request its Prisma client: the `getPrisma(request)` option, called with the
 * platform's request once per request however many queries the request runs, or the shared
 * `prisma` option; with the `policies` option, that client wrapped with the policies for the
 * request's context.
 */
@Injectable()
export class PrismaClientResolver {
  private readonly perRequest = new WeakMap<object, Promise<PrismaClientLike>>();

  /** Whether requests get the client wrapped with policies, rules or change listeners. */
  private readonly wraps: boolean;

  constructor(@Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions) {
    this.wraps = Boolean(options.policies || options.rules || options.onChange);
  }

  forRequest(request: ApiRequest): Promise<PrismaClientLike> {
    const { getPrisma, prisma } = this.options;
    if (!getPrisma && !this.wraps) return Promise.resolve(prisma as PrismaClientLike);
    let client = this.perRequest.get(request.raw);
    if (!client) {
      client = this.create(request.raw);
      this.perRequest.set(request.raw, client);
    }
    return client;
  }

  private async create(request: PlatformRequest): Promise<PrismaClientLike> {
    const { getPrisma, prisma, policies, rules, onChange, defaultPolicy, modelMeta } = this.options;
    const client = getPrisma ? await getPrisma(request) : (prisma as PrismaClientLike);
    if (!this.wraps) return client;
    const context = await (this.options.context ?? defaultPolicyContext)(request);
    return withPolicies(client, { policies, rules, onChange, defaultPolicy, modelMeta, context });
  }
}
