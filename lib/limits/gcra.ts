/** A bucket of `units` units, full at first and refilled continuously: `units` per `windowMs`. */
export interface BucketLimit {
  units: number;
  windowMs: number;
}

/** The answer to a take, and the bucket's state to keep when it changed. */
export interface Taken {
  allowed: boolean;
  /** Units left in the bucket after this take. */
  remaining: number;
  /** When denied: how long until the same take would pass. */
  retryAfterMs: number;
  /** How long until the bucket is full again. */
  resetMs: number;
  /** The new theoretical arrival time to keep; absent when the state is unchanged. */
  tat?: number;
}

/**
 * The bucket's times in whole milliseconds, as every store keeps them (a database a BigInt, Redis an
 * integer): one unit's refill time `intervalMs` is rounded up, so a full bucket still passes exactly
 * `units` and refills never faster than asked (slower by under 1 ms per unit). `fullMs` is the time
 * an empty bucket takes to fill. A limit of more than one unit per millisecond is held to one.
 */
export function bucketTimes(limit: BucketLimit): { intervalMs: number; fullMs: number } {
  const intervalMs = Math.ceil(limit.windowMs / limit.units);
  return { intervalMs, fullMs: intervalMs * limit.units };
}

/**
 * GCRA (the generic cell rate algorithm): a token bucket whose only state is `tat`, the time at
 * which the bucket would be full again (absent or past: full now). A take of `cost` units moves it
 * `cost` intervals later, and passes while that stays within one window of now. So a full bucket
 * lets `units` units through at once, then one unit per interval as it refills.
 *
 * The Redis script (redis-store.ts) and the database store (database-store.ts) run this same
 * formula; change them together.
 */
export function takeUnits(tat: number | undefined, now: number, cost: number, limit: BucketLimit): Taken {
  const { intervalMs, fullMs } = bucketTimes(limit);
  const base = Math.max(tat ?? now, now);
  const remainingAt = (time: number) => Math.floor((fullMs - (time - now)) / intervalMs + 1e-9);
  const resetMs = Math.ceil(base - now);
  if (cost > limit.units)
    return { allowed: false, remaining: remainingAt(base), retryAfterMs: limit.windowMs, resetMs };
  if (cost === 0) return { allowed: true, remaining: remainingAt(base), retryAfterMs: 0, resetMs };
  const next = base + cost * intervalMs;
  if (next - now > fullMs) {
    return { allowed: false, remaining: remainingAt(base), retryAfterMs: Math.ceil(next - fullMs - now), resetMs };
  }
  return { allowed: true, remaining: remainingAt(next), retryAfterMs: 0, resetMs: Math.ceil(next - now), tat: next };
}
