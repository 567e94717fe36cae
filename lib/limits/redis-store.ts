import type { Redis } from 'ioredis';

import type { BucketLimit, Taken } from './gcra.js';
import { type RateLimitStore, RateLimitStoreError } from './rate-limit-store.js';

const KEY_PREFIX = 'crud-api:rl:';
const COMMAND = 'crudApiRateLimitTake';

/**
 * takeUnits (gcra.ts) on the Redis server, atomically, by the server's clock: KEYS[1] holds the tat
 * in whole ms, expiring when the bucket is full again. ARGV: cost, units, windowMs. Answers
 * { allowed (0/1), remaining, retryAfterMs, resetMs }.
 */
const TAKE_SCRIPT = `
local cost, units, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local interval = math.ceil(window / units)
local full = interval * units
local base = math.max(tonumber(redis.call('GET', KEYS[1]) or now), now)
local function remaining(at) return math.floor((full - (at - now)) / interval) end
if cost > units then return { 0, remaining(base), window, base - now } end
if cost == 0 then return { 1, remaining(base), 0, base - now } end
local next = base + cost * interval
if next - now > full then return { 0, remaining(base), next - full - now, base - now } end
redis.call('SET', KEYS[1], string.format('%d', next), 'PX', next - now)
return { 1, remaining(next), 0, next - now }
`;

type TakeCommand = (key: string, cost: number, units: number, windowMs: number) => Promise<number[]>;

/**
 * The buckets in Redis, shared by every instance on the same server, under `crud-api:rl:<key>`.
 *
 * A take must never hold a request up: besides this store's `timeoutMs` (default 250), after which
 * `take` rejects with `RateLimitStoreError`, give the ioredis client `enableOfflineQueue: false`,
 * `maxRetriesPerRequest` (0 or small) and `commandTimeout`, so that a command to an unreachable
 * server fails at once rather than waiting for a reconnection. The client stays the caller's.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly command: TakeCommand;
  private readonly timeoutMs: number;

  constructor(redis: Redis, options: { timeoutMs?: number } = {}) {
    // ioredis runs it by EVALSHA, loading the script again when the server answers NOSCRIPT.
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: TAKE_SCRIPT });
    const commands = redis as unknown as Record<typeof COMMAND, TakeCommand>;
    this.command = commands[COMMAND].bind(redis);
    this.timeoutMs = options.timeoutMs ?? 250;
  }

  async take(key: string, cost: number, limit: BucketLimit): Promise<Taken> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RateLimitStoreError(`Redis did not answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      const answer = this.command(KEY_PREFIX + key, cost, limit.units, limit.windowMs);
      const [allowed, remaining, retryAfterMs, resetMs] = await Promise.race([answer, timeout]);
      return { allowed: allowed === 1, remaining: remaining!, retryAfterMs: retryAfterMs!, resetMs: resetMs! };
    } catch (error) {
      if (error instanceof RateLimitStoreError) throw error;
      throw new RateLimitStoreError(`Redis failed: ${(error as Error).message}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}
