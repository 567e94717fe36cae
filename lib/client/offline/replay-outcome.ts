import type { ErrorCode } from '../../errors/error-codes.js';
import { RpcClientError } from '../rpc-client.error.js';

/**
 * What a queued write's attempt leads to: `retry` keeps it first in the queue and tries again
 * later with the same `Idempotency-Key` (nothing was written, or the server will answer the
 * first attempt's answer); `conflict` holds the queue until the application resolves it;
 * `refused` drops it and reports the server's answer.
 */
export type ReplayOutcome = 'retry' | 'conflict' | 'refused';

/** Statuses that say "not now": the write may succeed later as it is. */
const RETRIED_STATUSES: ReadonlySet<number> = new Set([401, 408, 425, 429, 502, 503, 504]);

/** Error codes that say "not now" whatever their status. */
const RETRIED_CODES: ReadonlySet<ErrorCode> = new Set(['idempotency-key-in-use']);

/**
 * The outcome of an attempt that failed. No answer at all (offline, a dropped connection) is
 * retried: the server may have applied the write, and the same key gets its answer then. A 401 is
 * retried too: the application renews its credentials (`headers`) and the queue goes on.
 */
export function replayOutcome(error: unknown): ReplayOutcome {
  if (!(error instanceof RpcClientError)) return 'retry';
  if (error.status === 412) return 'conflict';
  if (RETRIED_STATUSES.has(error.status) || RETRIED_CODES.has(error.errorCode as ErrorCode)) return 'retry';
  return 'refused';
}
