import type { Redis } from 'ioredis';

import type { ModelMeta } from '../metadata/model-meta.types.js';
import type { PolicyContext } from '../policies/policy.types.js';
import type { PlatformRequest } from '../shared/api-request.js';

/** One limit: so many units per window, for the callers and requests it applies to. */
export interface RateLimit {
  /** Its name in the `RateLimit-Policy` and `RateLimit` headers: letters, digits, `_`, `-`. */
  name: string;
  /** Units a caller may spend per window (a full bucket: they may all go at once). */
  limit: number;
  /** The window, in seconds: the bucket refills `limit` units over it, evenly. */
  window: number;
  /** Which callers it applies to, by their policy context (a role, a tenant...). Default: every caller. */
  when?: (context: PolicyContext) => boolean;
  /** The models whose operations it counts. Default: every model. */
  models?: string[];
  /** The operations it counts: Prisma's names (`findMany`, `create`...) or `read` / `write`. Default: every one. */
  operations?: string[];
}

/** Where the buckets are kept: in the process (one instance), in Redis, or in a model of the application's schema. */
export type RateLimitStoreOption = 'memory' | { redis: Redis } | { model: string };

/** The `rateLimits` option: limits per caller, shared by every instance with a shared store. */
export interface CrudApiRateLimits {
  limits: RateLimit[];
  /**
   * Who a request's caller is: the key of its buckets, from the policy context (the `context`
   * option's) and the platform's request. Default: `user:<context.user.id>`, else `address:<client address>`.
   */
  caller?: (context: PolicyContext, request: PlatformRequest) => string;
  store?: RateLimitStoreOption;
  /** When the store fails or does not answer in `storeTimeout` ms: `open` serves the request unlimited, `closed` answers 503. */
  onStoreError?: 'open' | 'closed';
  storeTimeout?: number;
}

/** The `rateLimits` option with its defaults applied, a database store's model found. */
export interface ResolvedRateLimits extends Required<Omit<CrudApiRateLimits, 'store'>> {
  store: 'memory' | { redis: Redis } | { model: ModelMeta };
}
