import { type BucketLimit, type Taken, takeUnits } from './gcra.js';
import type { RateLimitStore } from './rate-limit-store.js';

/**
 * The buckets of one process, in a Map. A bucket whose tat is past is full, the same as no entry:
 * such entries are swept out lazily, on a take at most once per window, with no timer.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly inProcess = true;
  private readonly tats = new Map<string, number>();
  private readonly clock: () => number;
  private lastSweep: number;

  constructor(options: { clock?: () => number } = {}) {
    this.clock = options.clock ?? Date.now;
    this.lastSweep = this.clock();
  }

  take(key: string, cost: number, limit: BucketLimit): Promise<Taken> {
    const now = this.clock();
    if (now - this.lastSweep >= limit.windowMs) this.sweep(now);
    const taken = takeUnits(this.tats.get(key), now, cost, limit);
    if (taken.tat !== undefined) this.tats.set(key, taken.tat);
    return Promise.resolve(taken);
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
  }
}
