import type { BucketLimit, Taken } from './gcra.js';

/**
 * Where the buckets live. `take` is atomic per key across every caller of the same backend: of N
 * concurrent takes of cost 1 on a bucket of K units, with nothing refilling meanwhile, exactly K
 * pass. It rejects with `RateLimitStoreError` when the backend fails or does not answer in time.
 */
export interface RateLimitStore {
  /** Answers from this process's memory, without I/O: it cannot hang, so no deadline is set. */
  readonly inProcess?: boolean;
  take(key: string, cost: number, limit: BucketLimit): Promise<Taken>;
  close?(): Promise<void>;
  /** Deletes the buckets that are full again (the database's: nothing expires them by itself). */
  purgeIdle?(): Promise<unknown>;
}

/** A store could not decide a take: its backend failed or did not answer in time. */
export class RateLimitStoreError extends Error {
  override readonly name = 'RateLimitStoreError';
}
