import { Logger } from '@nestjs/common';

import { CrudApiError } from '../errors/crud-api.error.js';
import { prismaOperation } from '../metadata/prisma-operations.js';
import type { PolicyContext } from '../policies/policy.types.js';
import type { PlatformRequest } from '../shared/api-request.js';
import { withDeadline } from '../shared/with-deadline.js';
import type { Taken } from './gcra.js';
import { type RateLimitStore, RateLimitStoreError } from './rate-limit-store.js';
import type { RateLimit, ResolvedRateLimits } from './rate-limits.types.js';
import { type CostedStep, stepCost } from './request-cost.js';

/** What the limits say of a request: the headers of its answer, and the error that refuses it when one ran out. */
export interface LimitAnswer {
  headers: Record<string, string>;
  refusal?: CrudApiError;
}

/** Passport-style guards put the caller in `request.user`; without one, the client's address. */
export const defaultCaller = (context: PolicyContext, request: PlatformRequest): string => {
  const id = context?.user?.id;
  if (id !== undefined && id !== null) return `user:${String(id)}`;
  return `address:${String(request?.ip ?? request?.socket?.remoteAddress ?? 'unknown')}`;
};

/** The units a request's steps cost against `limit`: those of the models and operations it counts. */
export function costAgainst(limit: RateLimit, steps: readonly CostedStep[]): number {
  let cost = 0;
  for (const step of steps) {
    if (limit.models && (step.model === undefined || !limit.models.includes(step.model))) continue;
    if (limit.operations && !countsOperation(limit.operations, step.operation)) continue;
    cost += stepCost(step);
  }
  return cost;
}

function countsOperation(operations: readonly string[], name: string | undefined): boolean {
  if (name === undefined) return false;
  return operations.includes(name) || operations.includes(prismaOperation(name)?.access ?? '');
}

/** The `RateLimit-Policy` header's item of a limit (draft-ietf-httpapi-ratelimit-headers: quota, window). */
const policyItem = (limit: RateLimit): string => `"${limit.name}";q=${limit.limit};w=${limit.window}`;

/**
 * Counts each request against the limits that apply to its caller, in buckets a store keeps (one
 * per limit and caller; GCRA, docs/rate-limits.md). A request refused by one limit still spent
 * what it cost against the others it passed: buckets are taken from one by one, not together.
 */
export class RateLimiter {
  private readonly logger = new Logger('CrudApiRateLimits');
  private lastWarning = 0;
  private lastPurge = Date.now();

  constructor(
    private readonly settings: ResolvedRateLimits,
    private readonly store: RateLimitStore,
  ) {}

  /** Takes the request's cost from its caller's buckets; none when no limit applies to it. */
  async take(
    context: PolicyContext,
    request: PlatformRequest,
    steps: readonly CostedStep[],
  ): Promise<LimitAnswer | undefined> {
    const applying: [RateLimit, number][] = [];
    for (const limit of this.settings.limits) {
      const cost = costAgainst(limit, steps);
      if (cost > 0 && (limit.when?.(context) ?? true)) applying.push([limit, cost]);
    }
    if (applying.length === 0) return undefined;
    this.purgeNowAndThen();
    const caller = this.settings.caller(context, request);
    const taken = await Promise.all(applying.map(([limit, cost]) => this.takeFrom(limit, caller, cost)));
    const policies: string[] = [];
    const states: string[] = [];
    let retryAfterMs = -1;
    taken.forEach((answer, index) => {
      if (!answer) return;
      const [limit] = applying[index]!;
      policies.push(policyItem(limit));
      states.push(`"${limit.name}";r=${answer.remaining};t=${Math.ceil(answer.resetMs / 1000)}`);
      if (!answer.allowed) retryAfterMs = Math.max(retryAfterMs, answer.retryAfterMs);
    });
    const headers: Record<string, string> =
      policies.length > 0 ? { 'RateLimit-Policy': policies.join(', '), RateLimit: states.join(', ') } : {};
    if (retryAfterMs < 0) return { headers };
    const retryAfter = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    return {
      headers,
      refusal: new CrudApiError(
        'too-many-requests',
        `This request costs more than your rate limit has left: retry in ${retryAfter} s`,
        { headers: { ...headers, 'Retry-After': retryAfter } },
      ),
    };
  }

  /** One bucket's answer; none when the store failed and the limits fail open. */
  private async takeFrom(limit: RateLimit, caller: string, cost: number): Promise<Taken | undefined> {
    try {
      const taken = this.store.take(`${limit.name}:${caller}`, cost, {
        units: limit.limit,
        windowMs: limit.window * 1000,
      });
      const ms = this.settings.storeTimeout;
      // A store that hangs never holds a request.
      return await (this.store.inProcess
        ? taken
        : withDeadline(taken, ms, () => new RateLimitStoreError(`the store did not answer in ${ms} ms`)));
    } catch (error) {
      if (this.settings.onStoreError === 'closed')
        throw new CrudApiError('rate-limit-store-unavailable', 'The rate limits cannot be checked now: retry shortly', {
          headers: { 'Retry-After': '1' },
        });
      this.warn(error);
      return undefined;
    }
  }

  /** Full buckets go at most once a minute, after a request, without delaying it. */
  private purgeNowAndThen(): void {
    if (!this.store.purgeIdle || Date.now() - this.lastPurge < 60_000) return;
    this.lastPurge = Date.now();
    this.store.purgeIdle().catch((error: unknown) => this.warn(error));
  }

  /** At most one warning every 10 s: a store that is down would otherwise log every request. */
  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 10_000) return;
    this.lastWarning = now;
    this.logger.warn(`Rate limits not applied (onStoreError: 'open'): ${(error as Error)?.message ?? String(error)}`);
  }
}
