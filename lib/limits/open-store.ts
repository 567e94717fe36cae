import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { DatabaseRateLimitStore } from './database-store.js';
import { MemoryRateLimitStore } from './memory-store.js';
import type { RateLimitStore } from './rate-limit-store.js';
import type { ResolvedRateLimits } from './rate-limits.types.js';
import { RedisRateLimitStore } from './redis-store.js';

/** The store the `rateLimits.store` option names: the database's goes through the `prisma` option's client. */
export function openRateLimitStore({ store, storeTimeout }: ResolvedRateLimits, prisma: unknown): RateLimitStore {
  if (store === 'memory') return new MemoryRateLimitStore();
  if ('redis' in store) return new RedisRateLimitStore(store.redis, { timeoutMs: storeTimeout });
  return new DatabaseRateLimitStore(prisma as PrismaClientLike, store.model);
}
