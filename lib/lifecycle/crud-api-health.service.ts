import { Inject, Injectable } from '@nestjs/common';

import { PrismaClientResolver } from '../data/prisma-client.resolver.js';
import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import type { ReplicaState } from '../replicas/replica-set.js';
import { RequestDrain } from './request-drain.js';

/** Why the check is `down`. */
export type CrudApiHealthReason = 'shutting-down' | 'database-unreachable' | 'database-timeout';

/** A replica of the `replicas` option as its last check found it (docs/replicas.md). */
export type CrudApiReplicaHealth = ReplicaState;

/**
 * A `@nestjs/terminus` health indicator result: `{ [key]: { status, ... } }`. With the `replicas`
 * option, an `up` also lists the replicas' states: one that serves no reads leaves the instance up
 * (its reads go elsewhere).
 */
export type CrudApiHealthResult = Record<
  string,
  { status: 'up'; replicas?: CrudApiReplicaHealth[] } | { status: 'down'; reason: CrudApiHealthReason; message: string }
>;

export interface CrudApiHealthCheckOptions {
  /** Longest wait for the database's answer, in milliseconds. Default 1000. */
  timeout?: number;
  /**
   * Longest wait for the first answer of a client that has not answered yet (its engine starting,
   * its first connection opening, then the probe), in milliseconds. Default 10000.
   */
  connectTimeout?: number;
  /** The client to probe. Default: the instance's `prisma` option (required with `getPrisma` alone). */
  prisma?: PrismaClientLike;
}

const DEFAULT_HEALTH_TIMEOUT = 1000;
const DEFAULT_CONNECT_TIMEOUT = 10_000;

/** A probe every supported database answers, through the client's own connections. */
const PROBE = 'SELECT 1';

type ProbeOutcome = 'up' | 'unreachable' | 'timeout';

/** The outcome of `work` (its own error goes nowhere: it may name hosts), or `'timeout'` after `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<ProbeOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  const outcome = work.then(
    () => 'up' as const,
    () => 'unreachable' as const,
  );
  return Promise.race([outcome, timedOut]).finally(() => clearTimeout(timer));
}

/** A client's start: its first answer, and until when a check waits for it. */
interface Start {
  readonly answered: Promise<unknown>;
  readonly deadline: number;
}

const probe = (prisma: PrismaClientLike): Promise<unknown> => prisma.$queryRawUnsafe(PROBE);

/**
 * The health of one module instance, as a `@nestjs/terminus` indicator (no import of terminus
 * needed: its `HealthCheckService` reads the returned status): `up` when the database answers a
 * `SELECT 1` within the timeout, `down` with the reason when it does not, or while the
 * application is shutting down (terminus then answers 503).
 */
@Injectable()
export class CrudApiHealth {
  /** Per client probed: its start while it has not answered yet, `'started'` once it has. */
  private readonly starts = new WeakMap<PrismaClientLike, Start | 'started'>();

  /** @internal Nest constructs it. */
  constructor(
    @Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions,
    @Inject(RequestDrain) private readonly drain: RequestDrain,
    @Inject(PrismaClientResolver) private readonly clients: PrismaClientResolver,
  ) {}

  async check(key = 'crudApi', options: CrudApiHealthCheckOptions = {}): Promise<CrudApiHealthResult> {
    if (this.drain.isClosing) return down(key, 'shutting-down', 'The application is shutting down.');
    const prisma = options.prisma ?? this.options.prisma;
    if (!prisma) throw new Error('CrudApiHealth.check: give the client to probe (`prisma`) with `getPrisma` alone');
    const { answered, bound } = this.probeOf(prisma, options);
    const outcome = await within(answered, bound);
    if (outcome === 'up') {
      const replicas = this.clients.replicas?.states();
      return { [key]: replicas ? { status: 'up', replicas } : { status: 'up' } };
    }
    return outcome === 'timeout'
      ? down(key, 'database-timeout', `The database did not answer within ${bound} ms.`)
      : down(key, 'database-unreachable', 'The database could not be reached.');
  }

  /**
   * The probe and its bound. A client's first answer includes its start: Prisma starts its engine
   * on `$connect` or the first query (more than a second on a busy machine), and a driver adapter's
   * pool opens its first connection on the first query. Until the start has answered, or
   * `connectTimeout` has passed since it began, checks wait for it rather than time out on it, so
   * the first check after boot does not report what only the start took. A failed start is tried
   * again by the next check; one past its deadline no longer holds the checks up.
   */
  private probeOf(prisma: PrismaClientLike, options: CrudApiHealthCheckOptions) {
    const timeout = options.timeout ?? DEFAULT_HEALTH_TIMEOUT;
    const state = this.starts.get(prisma);
    if (state === 'started' || (state && Date.now() >= state.deadline))
      return { answered: probe(prisma), bound: timeout };
    const start = state ?? this.start(prisma, options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT);
    return { answered: start.answered, bound: Math.max(timeout, start.deadline - Date.now()) };
  }

  private start(prisma: PrismaClientLike, connectTimeout: number): Start {
    const answered = (async () => {
      await prisma.$connect?.();
      await probe(prisma);
    })();
    const start = { answered, deadline: Date.now() + connectTimeout };
    this.starts.set(prisma, start);
    answered.then(
      () => this.starts.set(prisma, 'started'),
      () => this.starts.delete(prisma),
    );
    return start;
  }
}

function down(key: string, reason: CrudApiHealthReason, message: string): CrudApiHealthResult {
  return { [key]: { status: 'down', reason, message } };
}
