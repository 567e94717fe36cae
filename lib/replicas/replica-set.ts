import { Logger } from '@nestjs/common';

import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { formatWalPosition, parseWalPosition } from '../shared/consistency-token.js';
import { withDeadline } from '../shared/with-deadline.js';
import type { ResolvedReplicas } from './replicas.types.js';
import { isServerFailure } from './server-failure.js';

const PRIMARY_POSITION = 'SELECT pg_current_wal_insert_lsn()::text AS position';
const REPLICA_POSITION = 'SELECT pg_last_wal_replay_lsn()::text AS position, pg_is_in_recovery() AS recovery';

/** A position check's longest wait: a server that does not answer in it stops serving reads. */
const checkTimeout = (settings: ResolvedReplicas) => Math.max(1000, 4 * settings.pollInterval);
const noAnswer = () => new Error('the server did not answer in time');
/** Not Prisma's: a read the replica did not answer in time is the server's failure (`isServerFailure`). */
const readTooLong = () => new Error('the replica did not answer the read in time');
/** A token read's pause between two checks of replicas that are behind it. */
const RECHECK_MS = 10;

/** One replica: its client (reads that fail on it run again on the primary) and what its last check found. */
interface Replica {
  readonly index: number;
  readonly own: PrismaClientLike;
  readonly client: PrismaClientLike;
  /** The position it has replayed up to (a lower bound of its state from then on). */
  replayed: bigint;
  /** Answered its last check in time, in recovery (not promoted). */
  healthy: boolean;
  checking?: Promise<void>;
}

/** A replica as its last check found it (`CrudApiHealth` reports it). */
export interface ReplicaState {
  /** Serving reads: it answered its last check in time and is replaying. */
  healthy: boolean;
  /** The primary's WAL position it has replayed up to, as PostgreSQL writes it. */
  replayed: string;
}

/** Where the reads went, since the start: for the bench and the tests. */
export interface ReplicaCounts {
  /** Reads a replica served. */
  replica: number;
  /** Of those, reads with a token that waited for their replica to replay it. */
  waited: number;
  /** Reads with a token no replica had replayed in time. */
  primaryForToken: number;
  /** Reads without a token when no replica was healthy and within `maxLag`. */
  primaryForLag: number;
  /** Reads that failed on a replica, for the server's reasons, and ran again on the primary. */
  retriedOnPrimary: number;
}

/**
 * The replicas of the `replicas` option (docs/replicas.md), and where each read goes. A
 * background check reads every `pollInterval` ms the primary's WAL insert position and each
 * replica's replayed position and state; a read then picks a replica from what is known, without
 * a statement of its own:
 * - with a token (a position the caller's writes reached), a healthy replica that has replayed
 *   it; else, with `behind: 'wait'`, it checks the replicas again until one has or `maxWait`
 *   passed; then the primary.
 * - without one, a healthy replica that has replayed what the primary had written `maxLag` ms
 *   ago (its oldest position known since then); else the primary.
 */
export class ReplicaSet {
  readonly counts: ReplicaCounts = { replica: 0, waited: 0, primaryForToken: 0, primaryForLag: 0, retriedOnPrimary: 0 };
  private readonly logger = new Logger('CrudApiReplicas');
  private readonly replicas: Replica[];
  /** The primary's positions, oldest first, with when they were read: those of the last `maxLag` ms and one before. */
  private readonly samples: { at: number; position: bigint }[] = [];
  private readonly tokens = new WeakMap<object, bigint>();
  private timer?: NodeJS.Timeout;
  private checkingPrimary?: Promise<void>;
  private turn = 0;
  private closed = false;

  constructor(
    private readonly primary: PrismaClientLike,
    private readonly settings: ResolvedReplicas,
    private readonly clock: () => number = Date.now,
  ) {
    this.replicas = settings.clients.map((own, index) => {
      const replica: Replica = { index, own, client: own, replayed: 0n, healthy: false };
      return Object.assign(replica, { client: this.withRetryOnPrimary(replica) });
    });
  }

  /** Checks the servers now, then every `pollInterval` ms until `close`. */
  async start(): Promise<void> {
    await this.checkAll();
    const tick = () => {
      this.timer = setTimeout(
        () => void this.checkAll().finally(() => !this.closed && tick()),
        this.settings.pollInterval,
      );
      this.timer.unref();
    };
    tick();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** Each replica's state as the last check found it: for health checks and tests. */
  states(): ReplicaState[] {
    return this.replicas.map(({ healthy, replayed }) => ({ healthy, replayed: formatWalPosition(replayed) }));
  }

  /** Notes the token `request` brought: its reads see at least that position. */
  noteToken(request: object, position: bigint): void {
    this.tokens.set(request, position);
  }

  /** The client that serves a read of `request`: a replica that may, or the primary. */
  async readClient(request: object): Promise<PrismaClientLike> {
    const token = this.tokens.get(request);
    if (token === undefined) {
      const replica = this.pick(this.freshEnough(this.clock()));
      if (replica) return this.served(replica);
      this.counts.primaryForLag++;
      return this.primary;
    }
    const ready = this.pick(token);
    if (ready) return this.served(ready);
    const replica = await this.waitFor(token);
    if (replica) {
      this.counts.waited++;
      return this.served(replica);
    }
    this.counts.primaryForToken++;
    return this.primary;
  }

  /**
   * The primary's position now: after a write's commit, one its token may carry (the insert
   * position, which a commit that returned is behind, whatever `synchronous_commit` says).
   */
  async writtenPosition(): Promise<string> {
    const [row] = await this.ask<{ position: string }>(this.primary, PRIMARY_POSITION);
    this.sample(row!.position);
    return row!.position;
  }

  private served(replica: Replica): PrismaClientLike {
    this.counts.replica++;
    return replica.client;
  }

  /** The next healthy replica, in turn, that has replayed `position`. */
  private pick(position: bigint | undefined): Replica | undefined {
    if (position === undefined) return undefined;
    const count = this.replicas.length;
    for (let step = 0; step < count; step++) {
      const replica = this.replicas[(this.turn + step) % count]!;
      if (replica.healthy && replica.replayed >= position) {
        this.turn = (replica.index + 1) % count;
        return replica;
      }
    }
    return undefined;
  }

  /** The oldest position the primary had within `maxLag` ms of `now`: a replica past it is fresh enough. */
  private freshEnough(now: number): bigint | undefined {
    return this.samples.find((sample) => sample.at >= now - this.settings.maxLag)?.position;
  }

  /** With `behind: 'wait'`: a replica that replays `token` within `maxWait` ms, checked again and again. */
  private async waitFor(token: bigint): Promise<Replica | undefined> {
    if (this.settings.behind !== 'wait') return undefined;
    const deadline = this.clock() + this.settings.maxWait;
    while (!this.closed && this.replicas.some((replica) => replica.healthy)) {
      const left = deadline - this.clock();
      if (left <= 0) return undefined;
      const checks = Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
      await withDeadline(checks, left, noAnswer).catch(() => undefined);
      const replica = this.pick(token);
      if (replica) return replica;
      await new Promise((resolve) => setTimeout(resolve, Math.min(RECHECK_MS, Math.max(0, deadline - this.clock()))));
    }
    return undefined;
  }

  private checkAll(): Promise<unknown> {
    return Promise.all([this.checkPrimary(), ...this.replicas.map((replica) => this.checkReplica(replica))]);
  }

  private checkPrimary(): Promise<void> {
    this.checkingPrimary ??= this.ask<{ position: string }>(this.primary, PRIMARY_POSITION)
      .then(([row]) => this.sample(row!.position))
      .catch(() => undefined)
      .finally(() => (this.checkingPrimary = undefined));
    return this.checkingPrimary;
  }

  /** One check of a replica at a time; those who ask meanwhile share it. */
  private checkReplica(replica: Replica): Promise<void> {
    replica.checking ??= this.ask<{ position: string | null; recovery: boolean }>(replica.own, REPLICA_POSITION)
      .then(([row]) => {
        const position = row?.position ? parseWalPosition(row.position) : undefined;
        this.setHealth(replica, row?.recovery === true && position !== undefined, 'promoted or not replaying');
        if (position !== undefined && position > replica.replayed) replica.replayed = position;
      })
      .catch((error: unknown) => this.setHealth(replica, false, (error as Error)?.message ?? String(error)))
      .finally(() => (replica.checking = undefined));
    return replica.checking;
  }

  /** One position query, within the check's time. */
  private ask<Row>(client: PrismaClientLike, sql: string): Promise<Row[]> {
    return withDeadline(client.$queryRawUnsafe(sql) as Promise<Row[]>, checkTimeout(this.settings), noAnswer);
  }

  private setHealth(replica: Replica, healthy: boolean, why: string): void {
    if (replica.healthy === healthy) return;
    replica.healthy = healthy;
    if (healthy) this.logger.log(`Replica ${replica.index} serves reads (its check found it replaying)`);
    else this.logger.warn(`Replica ${replica.index} serves no reads: ${why}`);
  }

  private sample(text: string): void {
    const position = parseWalPosition(text);
    if (position === undefined) return;
    const at = this.clock();
    this.samples.push({ at, position });
    // Keep one sample older than maxLag: the oldest position within it may be that one's.
    const keepFrom = this.samples.findIndex((sample) => sample.at >= at - this.settings.maxLag);
    if (keepFrom > 1) this.samples.splice(0, keepFrom - 1);
  }

  /**
   * The replica's client, whose reads run again on the primary when the replica fails for its own
   * reasons (`isServerFailure`) or does not answer within `readTimeout` (a server that hangs
   * without closing its connections); the replica is checked again at once, and serves no more
   * reads while its check fails. A read has no effect, so running it twice changes nothing. A proxy of
   * the model delegates, not a Prisma extension: those cost a read several percent of its CPU.
   */
  private withRetryOnPrimary(replica: Replica): PrismaClientLike {
    const retry = (delegate: string, operation: string, args: unknown) => (error: unknown) => {
      if (!isServerFailure(error)) throw error;
      this.counts.retriedOnPrimary++;
      void this.checkReplica(replica);
      return this.primary[delegate][operation](args);
    };
    const delegates = new Map<string, object>();
    const delegateOf = (name: string, delegate: Record<string, unknown>) => {
      const methods = new Map<string, unknown>();
      return new Proxy(delegate, {
        get: (target, operation) => {
          const method = target[operation as string];
          if (typeof operation !== 'string' || typeof method !== 'function') return method;
          let wrapped = methods.get(operation);
          if (!wrapped) {
            wrapped = (args: unknown) =>
              withDeadline(method.call(target, args) as Promise<unknown>, this.settings.readTimeout, readTooLong).catch(
                retry(name, operation, args),
              );
            methods.set(operation, wrapped);
          }
          return wrapped;
        },
      });
    };
    return new Proxy(replica.own, {
      get: (target, property) => {
        const value = target[property as string];
        if (typeof property !== 'string' || property.startsWith('$') || typeof value !== 'object' || value === null)
          return value;
        let delegate = delegates.get(property);
        if (!delegate) {
          delegate = delegateOf(property, value);
          delegates.set(property, delegate);
        }
        return delegate;
      },
    });
  }
}
