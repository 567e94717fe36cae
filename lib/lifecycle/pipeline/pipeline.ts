import type { LiveQueries } from '../../changes/live-queries.js';
import type { RecordedAnswer } from '../../data/idempotency/idempotency-records.js';
import type { IdempotentRequests } from '../../data/idempotency/idempotent-requests.js';
import type { PrismaClientResolver } from '../../data/prisma-client.resolver.js';
import type { RateLimiter } from '../../limits/rate-limiter.js';
import type { ResolvedCrudApiOptions } from '../../options/crud-api-options.interface.js';
import type { RequestDrain } from '../request-drain.js';
import { admit } from './admit.js';
import { cachingSettings } from './caching-settings.js';
import { coalesce } from './coalesce.js';
import { consistency } from './consistency.js';
import type { Exchange, Stage } from './exchange.js';
import { idempotency } from './idempotency.js';
import { ifMatchApplies } from './if-match.js';
import { liveStream } from './live-stream.js';
import { notifyCommits } from './notify-commits.js';
import { rateLimit } from './rate-limit.js';
import { revalidate } from './revalidate.js';
import { runService } from './run-service.js';
import { send } from './send.js';
import { inRequestSpan, telemetry } from './telemetry.js';
import { validators } from './validators.js';

/** What the stages keep between requests: the instance's services and options. */
export interface PipelineParts {
  drain: RequestDrain;
  options: Pick<ResolvedCrudApiOptions, 'caching' | 'coalesceReads' | 'idempotency' | 'replicas'>;
  idempotent: IdempotentRequests;
  live: LiveQueries;
  clients: PrismaClientResolver;
  /** With the `rateLimits` option. */
  limiter?: RateLimiter;
}

/**
 * The stages of a request of either interface, in the order it passes them (docs/architecture.md):
 * each wraps those after it, so its work on the answer is done in the reverse order. The stage of a
 * feature the options leave off is not in the list: a request pays only for what it may use.
 */
export function requestStages({ drain, options, idempotent, live, clients, limiter }: PipelineParts): readonly Stage[] {
  const caching = cachingSettings(options.caching, live);
  const liveOn = live.settings !== undefined;
  const stages: (Stage | false)[] = [
    admit(drain),
    liveOn && notifyCommits(live, clients),
    telemetry,
    liveOn && liveStream(live, clients),
    limiter !== undefined && rateLimit(limiter, clients),
    ifMatchApplies,
    send,
    clients.replicas !== undefined && consistency(clients.replicas, options.replicas!),
    inRequestSpan,
    options.idempotency !== undefined && idempotency(idempotent),
    caching?.known !== undefined && revalidate(caching, live, clients),
    validators(caching),
    options.coalesceReads !== false && coalesce(options.coalesceReads, clients, caching),
    runService,
  ];
  return stages.filter((stage) => stage !== false);
}

/** Passes a request through `stages` once, each in its turn; the last one answers. */
export function runStages(stages: readonly Stage[], exchange: Exchange): Promise<RecordedAnswer> {
  const from = async (index: number): Promise<RecordedAnswer> => stages[index]!(exchange, () => from(index + 1));
  return from(0);
}
