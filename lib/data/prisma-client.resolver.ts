import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';

import { LiveQueries } from '../changes/live-queries.js';
import { OutboxWriter } from '../changes/outbox-writer.js';
import { noteModels, type QueryNote, recordingClient } from '../changes/read-models.js';
import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { PolicyContext } from '../policies/policy.types.js';
import { policyDecisions } from '../policies/policy-set.js';
import { policiesOf, withPolicies } from '../policies/with-policies.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { ReplicaSet } from '../replicas/replica-set.js';
import type { ChangeEvent, ChangeListener } from '../rules/rules.types.js';
import { type ApiRequest, isReadMethod, type PlatformRequest } from '../shared/api-request.js';
import { joinTransaction } from './join-transaction.js';
import { transactionBounds } from './run-in-transaction.js';

/** What the module uses of `@nestjs/event-emitter`'s EventEmitter2. */
interface EventEmitterLike {
  emit(event: string, payload: unknown): unknown;
  eventNames(): unknown[];
}

/** Prefix of the events emitted on the application's EventEmitter2: `crud-api.<Model>.<operation>`. */
export const CHANGE_EVENT_PREFIX = 'crud-api';

/** Whether any EventEmitter2 listener could hear a change event (a name of ours, or a wildcard). */
const listensToChanges = (emitter: EventEmitterLike): boolean =>
  emitter.eventNames().some((name) => {
    const text = Array.isArray(name) ? name.join('.') : String(name);
    return text.startsWith(CHANGE_EVENT_PREFIX) || text.startsWith('*');
  });

/**
 * Where the queries of a request are noted, for live queries and revalidation (`recordModels`,
 * `recordQueries`): its clients tell them (`recordingClient`).
 */
const RECORDED = new WeakMap<object, { note: QueryNote }>();

/**
 * Tells `recorder.note` of every query of `request` from now on, with the policies' filters
 * applied: what a live query's run reads (`ReadFootprint`).
 */
export function recordQueries(request: ApiRequest, recorder: { note: QueryNote }): void {
  RECORDED.set(request.raw, recorder);
}

/** A number per Prisma client object, for the share keys of live queries. */
const CLIENT_IDS = new WeakMap<object, number>();
let clientCount = 0;

/** Passport-style guards put the caller in `request.user`. */
const defaultPolicyContext = (request: PlatformRequest): PolicyContext => ({ user: request.user });

/**
 * Gives each request its Prisma client: the `getPrisma(request)` option, called with the
 * platform's request once per request however many queries the request runs, or the shared
 * `prisma` option; with policies, rules or change listeners, that client wrapped for the
 * request's context. Change events also go to the application's `@nestjs/event-emitter`, when it
 * has one and something listens to them, and to the outbox, in the write's transaction, with the
 * `outbox` option.
 *
 * @remarks Exported for subclasses of `RestService`/`RpcService`, which receive it in their constructor.
 */
@Injectable()
export class PrismaClientResolver implements OnApplicationBootstrap, OnModuleDestroy {
  /** With the `replicas` option: where reads go. */
  readonly replicas?: ReplicaSet;
  /** Each request's client, and once made, what it was made of (requests made of the same share reads: `shareKeyOf`). */
  private readonly perRequest = new WeakMap<object, RequestClient>();
  /** Each request's policy context, asked of the `context` option once per request. */
  private readonly contexts = new WeakMap<object, Promise<PolicyContext>>();
  /** The transaction client of each request that runs in one (`inRequestTransaction`). */
  private readonly transactions = new WeakMap<object, Promise<PrismaClientLike>>();
  /** The origin of every request served by the `prisma` option's client unwrapped. */
  private readonly sharedOrigin: Origin;
  private readonly listeners: ChangeListener[];
  private readonly outbox?: OutboxWriter;
  /** Writes whose changes are captured for live queries alone (`recordModels`). */
  private readonly capturedForLive = new WeakSet<object>();
  private emitter?: EventEmitterLike;

  constructor(
    @Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions,
    private readonly moduleRef: ModuleRef,
    @Inject(LiveQueries) private readonly live: LiveQueries,
  ) {
    this.listeners = options.onChange === undefined ? [] : [options.onChange].flat();
    if (options.outbox) this.outbox = new OutboxWriter(options.outbox.model);
    this.sharedOrigin = { client: options.prisma ?? {}, context: {} };
    if (options.replicas) this.replicas = new ReplicaSet(options.prisma!, options.replicas);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.replicas?.start();
    // An optional peer: applications without it get the `onChange` listeners only.
    const events = await import('@nestjs/event-emitter').catch(() => undefined);
    if (!events) return;
    try {
      this.emitter = this.moduleRef.get<EventEmitterLike>(events.EventEmitter2, { strict: false });
    } catch {
      this.emitter = undefined;
    }
  }

  onModuleDestroy(): void {
    this.replicas?.close();
  }

  /**
   * Whether a replica may serve the request: a read, unless it is a live query's or a revalidated
   * one's, whose answers must follow the commits the module hears of (those read the primary).
   */
  private readsReplica(raw: PlatformRequest): boolean {
    return this.replicas !== undefined && isReadMethod(raw.method) && !RECORDED.has(raw);
  }

  /**
   * Whether a request gets the client wrapped: with policies or rules always; for the change
   * listeners and the outbox, only when it can write (a GET or HEAD captures nothing), or when it
   * is a live query (whose client notes what it reads).
   */
  private wraps(raw: PlatformRequest): boolean {
    const { policies, rules } = this.options;
    if (policies || rules) return true;
    if (RECORDED.has(raw)) return true;
    return !isReadMethod(raw.method) && Boolean(this.outbox || this.changeListeners(raw));
  }

  /** The application's listeners of changes: `onChange`, and its EventEmitter2 when something listens there. */
  private applicationListeners(): ChangeListener[] {
    const emitter = this.emitter;
    if (!emitter || !listensToChanges(emitter)) return this.listeners;
    return [
      ...this.listeners,
      (event: ChangeEvent) => emitter.emit(`${CHANGE_EVENT_PREFIX}.${event.model}.${event.operation}`, event),
    ];
  }

  /**
   * The listeners of a write's changes, or undefined when nothing listens. Live queries hear of
   * the changes whenever they are captured: for the application, or for them (`recordModels`).
   */
  private changeListeners(raw: PlatformRequest): ChangeListener[] | undefined {
    const listeners = this.applicationListeners();
    const live = this.live.listener;
    const captured = listeners.length > 0 || this.outbox !== undefined || this.capturedForLive.has(raw);
    if (live && captured) return [...listeners, live];
    return listeners.length > 0 ? listeners : undefined;
  }

  forRequest(request: ApiRequest): Promise<PrismaClientLike> {
    const { getPrisma, prisma, idempotency } = this.options;
    // Only idempotent writes run in one transaction: without the option, no lookup.
    const bound = idempotency && this.transactions.get(request.raw);
    if (bound) return bound;
    if (!getPrisma && !this.wraps(request.raw) && !this.readsReplica(request.raw))
      return Promise.resolve(prisma as PrismaClientLike);
    let made = this.perRequest.get(request.raw);
    if (!made) {
      made = {} as RequestClient;
      made.client = this.create(request.raw, made, request.id);
      this.perRequest.set(request.raw, made);
    }
    return made.client;
  }

  /**
   * Runs `work` in one interactive transaction of the request's client, which every client this
   * request resolves meanwhile is: the services' own transactions run inside it (a policy client's
   * transaction client does that itself), and the changes it captures are delivered after its commit.
   */
  async inRequestTransaction<T>(
    request: ApiRequest,
    options: object,
    work: (tx: PrismaClientLike) => Promise<T>,
  ): Promise<T> {
    const client = await this.forRequest(request);
    return client.$transaction(async (tx: PrismaClientLike) => {
      const bound = policiesOf(tx) ? tx : joinTransaction(tx);
      this.transactions.set(request.raw, Promise.resolve(bound));
      try {
        return await work(bound);
      } finally {
        this.transactions.delete(request.raw);
      }
    }, options);
  }

  /**
   * Whether the request runs in one transaction (`inRequestTransaction`): after a failed statement
   * PostgreSQL answers nothing more in it, so a write that may fail runs in a savepoint.
   */
  inTransaction(request: ApiRequest): boolean {
    return this.transactions.has(request.raw);
  }

  /**
   * Notes the models the queries of `request` reach, from now on (before it runs): what a live
   * query reads, or what a write changes when its changes are not captured, which live queries
   * then learn of from its models alone, without reading any row. A write's changes are captured
   * for the application's listeners and the outbox, or for live queries while one is open in this
   * process (their rows tell which queries they concern): then it answers none.
   */
  recordModels(request: ApiRequest): Set<string> | undefined {
    if (!isReadMethod(request.raw.method)) {
      if (this.outbox || this.applicationListeners().length > 0) return undefined;
      if (this.live.watching) {
        this.capturedForLive.add(request.raw);
        return undefined;
      }
    }
    const models = new Set<string>();
    RECORDED.set(request.raw, { note: noteModels(models) });
    return models;
  }

  /**
   * Forgets the client made for `request`: the next resolution asks `getPrisma` and `context`
   * again, so that a live query's re-run is judged by the caller's context as it is now. Its
   * queries are still noted where they were (`recordModels`, `recordQueries`).
   */
  forget(request: ApiRequest): void {
    this.perRequest.delete(request.raw);
    this.contexts.delete(request.raw);
  }

  /** The request's policy context, as the `context` option gives it (`{ user: request.user }` by default). */
  contextOf(request: Pick<ApiRequest, 'raw'>): Promise<PolicyContext> {
    let context = this.contexts.get(request.raw);
    if (!context) {
      context = Promise.resolve((this.options.context ?? defaultPolicyContext)(request.raw));
      this.contexts.set(request.raw, context);
    }
    return context;
  }

  /**
   * What decides the answers of a request besides its URL and headers: its Prisma client and its
   * policy context. Identical GETs with the same key share one read, live queries their re-runs, a
   * conditional GET answers the tag known for it. None for a context JSON cannot write.
   */
  async shareKeyOf(request: ApiRequest): Promise<string | undefined> {
    const origin = await this.originOf(request);
    return origin && originKey(origin.client, origin.context);
  }

  /**
   * @internal What decides a read's answer besides its URL and headers: its Prisma client and, with
   * policies, every rule as its context evaluates them (`policyDecisions`), not the context itself:
   * callers the policies cannot tell apart (sessions of one user, say) read the same. Live queries
   * share their re-runs by it (by the context when a rule throws for it). None when JSON cannot
   * tell two of them apart.
   */
  async decisionKeyOf(request: ApiRequest): Promise<string | undefined> {
    const origin = await this.originOf(request);
    const { policies } = this.options;
    if (!origin || !policies) return origin && originKey(origin.client, {});
    let decisions: unknown[];
    try {
      decisions = policyDecisions(policies, origin.context);
    } catch {
      // A rule that throws for this context may not be one its reads reach: keyed by the context then.
      const key = originKey(origin.client, origin.context);
      return key && `context ${key}`;
    }
    const key = originKey(origin.client, decisions);
    return key && `decisions ${key}`;
  }

  /** The client and context the request's client was made of; none for an unwrapped `getPrisma` client. */
  private async originOf(request: ApiRequest): Promise<Origin | undefined> {
    const client = await this.forRequest(request);
    return this.perRequest.get(request.raw)?.origin ?? (client === this.options.prisma ? this.sharedOrigin : undefined);
  }

  private async create(request: PlatformRequest, made: RequestClient, requestId?: string): Promise<PrismaClientLike> {
    const { getPrisma, prisma, policies, rules, defaultPolicy, modelMeta, history } = this.options;
    const own = getPrisma
      ? await getPrisma(request)
      : this.readsReplica(request)
        ? await this.replicas!.readClient(request)
        : (prisma as PrismaClientLike);
    const recorded = RECORDED.get(request);
    const client = recorded ? recordingClient(own, modelMeta, recorded) : own;
    const writes = !isReadMethod(request.method);
    const onChange = writes ? this.changeListeners(request) : undefined;
    const beforeCommit = writes ? this.outbox?.write : undefined;
    if (!policies && !rules && !onChange && !beforeCommit) {
      // Without policies and rules a read's answer depends on its client alone.
      made.origin = { client: own, context: {} };
      return client;
    }
    const context = await this.contextOf({ raw: request });
    made.origin = { client: own, context };
    const transactionOptions = transactionBounds(this.options.transactions);
    const settings = {
      ...{ policies, rules, onChange, beforeCommit, defaultPolicy, modelMeta, context, transactionOptions },
      ...{ history, requestId },
    };
    return withPolicies(client, settings);
  }
}

/** The client a request's client wraps, and the policy context it was given. */
interface Origin {
  client: object;
  context: PolicyContext;
}

/** A request's client, and its origin once made. One entry per request: a WeakMap's keys cost the collector. */
interface RequestClient {
  client: Promise<PrismaClientLike>;
  origin?: Origin;
}

/**
 * A client's number and the JSON of a context; none when JSON may not tell two contexts apart:
 * class instances (their private state is not written), cycles, BigInts.
 */
function originKey(client: object, context: PolicyContext | unknown[]): string | undefined {
  if (!isPlainData(context)) return undefined;
  let id = CLIENT_IDS.get(client);
  if (id === undefined) {
    id = ++clientCount;
    CLIENT_IDS.set(client, id);
  }
  return `${id} ${JSON.stringify(context)}`;
}

/** Plain objects, arrays, Dates and primitives other than BigInt, without cycles. */
function isPlainData(value: unknown, seen = new Set<object>()): boolean {
  if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') return false;
  if (value === null || typeof value !== 'object' || value instanceof Date) return true;
  const prototype = Object.getPrototypeOf(value);
  if (seen.has(value) || (prototype !== Object.prototype && prototype !== null && !Array.isArray(value))) return false;
  seen.add(value);
  return Object.values(value).every((member) => isPlainData(member, seen));
}
