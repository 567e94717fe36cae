import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';

import { CrudApiError } from '../errors/crud-api.error.js';
import type { DataModelMeta } from '../metadata/model-meta.types.js';
import type { ChangeEvent, ChangeListener } from '../rules/rules.types.js';
import { entityTag } from '../shared/http-caching.js';
import { inSlices } from '../shared/in-slices.js';
import type { ChangeNotice } from './change-transport.js';
import { eventBytes, type EventStream, openEventStream } from './event-stream.js';
import { FootprintIndex } from './footprint-index.js';
import { type CrudApiLive, LIVE_DEFAULTS, type ResolvedLive } from './live.types.js';
import { ReadFootprint, type RowChange } from './read-footprint.js';
import { dependentModels } from './read-models.js';

const logger = new Logger('CrudApi');

/**
 * The started instances of this process: a commit one instance hears is heard by the others too
 * (an application may mount the module twice over the same data), with or without a transport.
 */
const IN_PROCESS = new Set<LiveQueries>();

/**
 * Most changed rows kept for the next flush: a larger commit's further rows are taken as changes
 * of their models, which re-run every query reading them, rather than checked row by row.
 */
const MAX_PENDING_ROWS = 1000;

/** Streams given their heartbeat comment in one turn of the event loop (about 10 ms of CPU). */
const HEARTBEAT_SLICE = 256;

/** One live query of one client, as the request that opened it describes it. */
export interface LiveSubscription {
  /**
   * Subscriptions with the same key share their re-runs: same query, client and policy decisions.
   * The key when the query opened; `judge` tells it anew before each re-run.
   */
  shareKey: string;
  /** What the run that gave the subscriber's answer read: the commits that concern it re-run the query. */
  reads: ReadFootprint;
  /**
   * Asks the application for the subscriber's client and context again (`getPrisma`, `context`,
   * with the request that opened the query): the share key they give now. Rejects as the GET
   * would fail, when the caller is no longer admitted (its context throws).
   */
  judge(): Promise<string>;
  /**
   * Runs the query again under the context of the last `judge`, noting its queries in `reads`:
   * the answer's body as the GET sends it.
   */
  run(reads: ReadFootprint): Promise<Buffer>;
  /** The body of the interface's error answer for a failure of `run`. */
  renderError(error: unknown): Buffer;
  /** The caller (`live.caller`) and connection the limits count against. */
  caller: string;
  connection: object;
}

interface Subscriber extends LiveSubscription {
  stream: EventStream;
  /** The tag of the last answer it got. */
  etag: string;
  /** Its stream closed: a run under way no longer answers it. */
  left?: boolean;
}

/** The subscribers of one query and context (`key`), and the tag of its last answer. */
interface Group {
  key: string;
  subscribers: Set<Subscriber>;
  etag: string;
  /** The footprints of its runs in progress: a commit heard meanwhile may have missed their first queries. */
  inFlight: ReadFootprint[];
}

/**
 * The live queries of one module instance: subscriptions grouped by query and context, re-run
 * after the commits that may change them (a commit on this instance, through the change
 * listener; another instance's, through the transport), a debounce apart, and sent only when
 * their answer changed. Policies hold by construction: a re-run is the subscriber's own request,
 * judged by its context as it is then: each subscriber's context is asked again before a re-run,
 * and subscribers share a re-run only while the policies decide alike for their contexts.
 */
export class LiveQueries implements OnApplicationBootstrap, OnModuleDestroy {
  /** @internal The `live` option with its defaults; absent when live queries are off. */
  readonly settings?: ResolvedLive;
  private readonly groups = new Map<string, Group>();
  /** The footprints of the subscribers' answers, which a commit's changed rows are checked against. */
  private readonly footprints: FootprintIndex<Subscriber>;
  /** The groups to re-run, and those running: a flush visits these, not every group. */
  private readonly dirty = new Set<Group>();
  private readonly running = new Set<Group>();
  private readonly perCaller = new Map<string, number>();
  private readonly perConnection = new WeakMap<object, number>();
  private readonly origin = randomUUID();
  /** Models changed by local commits since the last flush, for the other instances. */
  private readonly unpublished = new Set<string>();
  /** Models changed since the last flush without their rows (other instances' notices), or `everything`. */
  private readonly pending = new Set<string>();
  /** Changes since the last flush whose rows are known (this process's captured changes). */
  private pendingRows: RowChange[] = [];
  private everything = false;
  /** Counts the changes heard; `changedAt` holds each model's last count, `everythingAt` that of the last `'*'`. */
  private clock = 0;
  private readonly changedAt = new Map<string, number>();
  private everythingAt = 0;
  private flushTimer?: NodeJS.Timeout;
  private heartbeatTimer?: NodeJS.Timeout;
  private budget = { second: 0, used: 0 };
  private closed = false;
  /** @internal Re-runs done, for the tests and the bench. */
  reruns = 0;

  constructor(
    live: CrudApiLive | undefined,
    private readonly meta: DataModelMeta,
  ) {
    if (live) this.settings = { ...LIVE_DEFAULTS, ...live };
    this.footprints = new FootprintIndex(meta.provider);
  }

  /**
   * @internal Whether a live query is open in this process: while one is, the writes of live
   * instances capture their changed rows, which decide the queries they concern.
   */
  get watching(): boolean {
    for (const instance of IN_PROCESS) if (instance.groups.size > 0) return true;
    return false;
  }

  /** @internal The change listener that tells this instance's live queries of its commits (live only). */
  get listener(): ChangeListener | undefined {
    return this.settings && ((event: ChangeEvent) => this.committedChange(event));
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.settings) IN_PROCESS.add(this);
    const transport = this.settings?.transport;
    if (!transport) return;
    await transport.start((notice) => {
      if (notice.origin !== this.origin) this.changed(notice.models === '*' ? '*' : notice.models.map(modelChange));
    });
  }

  async onModuleDestroy(): Promise<void> {
    IN_PROCESS.delete(this);
    this.closed = true;
    clearTimeout(this.flushTimer);
    clearInterval(this.heartbeatTimer);
    for (const group of this.groups.values()) for (const subscriber of group.subscribers) subscriber.stream.end();
    this.groups.clear();
    await this.settings?.transport?.close();
  }

  /**
   * Counts a new subscription against the limits, before its first run: refused with 429 beyond
   * them. `release` gives it back.
   * @internal
   */
  reserve(caller: string, connection: object): void {
    const { maxPerCaller, maxPerConnection } = this.settings!;
    const byCaller = this.perCaller.get(caller) ?? 0;
    const byConnection = this.perConnection.get(connection) ?? 0;
    if (byConnection >= maxPerConnection || byCaller >= maxPerCaller) {
      const limit =
        byConnection >= maxPerConnection ? `${maxPerConnection} per connection` : `${maxPerCaller} per caller`;
      throw new CrudApiError('too-many-live-queries', `At most ${limit} live queries may be open at once.`);
    }
    this.perCaller.set(caller, byCaller + 1);
    this.perConnection.set(connection, byConnection + 1);
  }

  /** @internal */
  release(caller: string, connection: object): void {
    const byCaller = (this.perCaller.get(caller) ?? 0) - 1;
    if (byCaller > 0) this.perCaller.set(caller, byCaller);
    else this.perCaller.delete(caller);
    this.perConnection.set(connection, Math.max(0, (this.perConnection.get(connection) ?? 0) - 1));
  }

  /**
   * Opens the stream of a reserved subscription whose first answer is `first`: sent at once
   * unless the client's `Last-Event-ID` already names it.
   * @internal
   */
  open(
    subscription: LiveSubscription,
    response: ServerResponse,
    { first, lastEventId, headers }: { first: Buffer; lastEventId?: string; headers: Record<string, string> },
  ): void {
    const settings = this.settings!;
    const etag = entityTag(first);
    const stream = openEventStream(response, settings, headers, () => this.leave(subscriber));
    const subscriber: Subscriber = { ...subscription, stream, etag };
    if (lastEventId !== etag) stream.send(eventBytes(first, { id: etag }));
    this.footprints.add(subscriber.reads, subscriber);
    this.join(subscriber);
    this.heartbeatTimer ??= setInterval(() => this.heartbeat(), settings.heartbeat).unref();
  }

  /** @internal Open subscriptions, for the tests and the bench. */
  get size(): number {
    let count = 0;
    for (const group of this.groups.values()) count += group.subscribers.size;
    return count;
  }

  /** Adds a subscriber to the group of its share key. */
  private join(subscriber: Subscriber): Group {
    const key = subscriber.shareKey;
    let group = this.groups.get(key);
    if (!group) {
      group = { key, subscribers: new Set(), etag: subscriber.etag, inFlight: [] };
      this.groups.set(key, group);
    } else if (group.etag !== subscriber.etag) {
      // The group's last answer is not this subscriber's: one re-run brings them all up to date.
      this.markDirty(group);
    }
    group.subscribers.add(subscriber);
    return group;
  }

  private leave(subscriber: Subscriber): void {
    this.release(subscriber.caller, subscriber.connection);
    const group = this.groups.get(subscriber.shareKey);
    if (!group?.subscribers.delete(subscriber)) return;
    subscriber.left = true;
    this.footprints.remove(subscriber.reads, subscriber);
    if (group.subscribers.size === 0) this.drop(group);
  }

  private drop(group: Group): void {
    this.groups.delete(group.key);
    this.dirty.delete(group);
  }

  private committedChange({ model, operation, before, after }: ChangeEvent): void {
    // A delete may change rows that point at the deleted one (cascades, set null): rows unseen.
    const dependents = operation === 'delete' ? dependentModels(this.meta, model).map(modelChange) : [];
    this.commit([{ model, before, after }, ...dependents]);
  }

  /**
   * Tells the live queries of this instance, and through the transport those of the others, that
   * `models` changed in a commit: the change listener's way, and the outbox worker's for changes
   * it delivers (a process killed before it told anyone loses none).
   */
  committed(models: readonly string[]): void {
    this.commit(models.map(modelChange));
  }

  private commit(changes: RowChange[]): void {
    for (const { model } of changes) this.unpublished.add(model);
    for (const instance of IN_PROCESS) if (instance !== this) instance.changed(changes);
    this.changed(changes);
  }

  /**
   * Notes changes (anything, for `'*'`): the queries they concern run again at the next flush.
   * Called once per changed row: the matching waits for the flush.
   */
  private changed(changes: RowChange[] | '*'): void {
    if (this.closed) return;
    const at = ++this.clock;
    if (changes === '*') {
      this.everything = true;
      this.everythingAt = at;
    } else {
      for (const change of changes) {
        const rows = change.before ?? change.after;
        if (rows && this.pendingRows.length < MAX_PENDING_ROWS) this.pendingRows.push(change);
        else this.pending.add(change.model);
        this.changedAt.set(change.model, at);
      }
    }
    this.schedule(this.settings!.debounce);
  }

  /** A mark of the changes heard so far, for `changedSince`. */
  get now(): number {
    return this.clock;
  }

  /**
   * Whether a change to any of `models` (or a `'*'` notice) was heard after the mark `since`; also
   * while the transport is not listening, when the other instances' commits go unheard.
   */
  changedSince(models: Iterable<string>, since: number): boolean {
    if (this.everythingAt > since || this.settings?.transport?.listening === false) return true;
    for (const model of models) if ((this.changedAt.get(model) ?? 0) > since) return true;
    return false;
  }

  private markDirty(group: Group): void {
    this.dirty.add(group);
    this.schedule(this.settings!.debounce);
  }

  /** Marks the groups that the changes since the last flush concern. */
  private markChanged(): void {
    const changes = [...[...this.pending].map(modelChange), ...this.pendingRows];
    if (this.everything) for (const group of this.groups.values()) this.dirty.add(group);
    else if (changes.length > 0) {
      for (const { shareKey } of this.footprints.concerned(changes)) {
        const group = this.groups.get(shareKey);
        if (group) this.dirty.add(group);
      }
      // What a run under way read so far is not indexed: checked as it is.
      for (const group of this.running) {
        if (group.inFlight.some((reads) => changes.some((change) => reads.concerns(change)))) this.dirty.add(group);
      }
    }
    this.pending.clear();
    this.pendingRows = [];
    this.everything = false;
  }

  private schedule(delay: number): void {
    if (this.flushTimer === undefined && !this.closed) this.flushTimer = setTimeout(() => this.flush(), delay);
  }

  /** Publishes the local commits and re-runs the marked queries, within the re-run budget. */
  private flush(): void {
    this.flushTimer = undefined;
    this.publish();
    this.markChanged();
    for (const group of this.dirty) {
      if (this.running.has(group)) continue;
      if (!this.spend()) {
        this.schedule(1000 - (Date.now() % 1000));
        return;
      }
      // A re-run answers its own failures on the streams: what still escapes is a fault, logged.
      void this.rerun(group).catch((error: unknown) =>
        logger.error(`Live queries: a re-run failed: ${String(error)}`, (error as Error | undefined)?.stack),
      );
    }
  }

  private publish(): void {
    const transport = this.settings!.transport;
    if (!transport || this.unpublished.size === 0) return;
    const notice: ChangeNotice = { models: [...this.unpublished], origin: this.origin };
    this.unpublished.clear();
    transport
      .publish(notice)
      .catch((error: unknown) => logger.warn(`Live queries: a change notice was not sent: ${String(error)}`));
  }

  /** Takes one re-run from this second's budget (`maxRerunsPerSecond`), if any is left. */
  private spend(): boolean {
    const second = Math.floor(Date.now() / 1000);
    if (this.budget.second !== second) this.budget = { second, used: 0 };
    if (this.budget.used >= this.settings!.maxRerunsPerSecond) return false;
    this.budget.used++;
    return true;
  }

  /**
   * Re-runs a group's query: each subscriber judged by its context as it is now, one run per
   * share key they give (those whose context changed split off into the group of their new key).
   */
  private async rerun(group: Group): Promise<void> {
    this.dirty.delete(group);
    this.running.add(group);
    try {
      const judged = await this.judge([...group.subscribers]);
      const runs = [...judged.values()].map((subscribers) => {
        const reads = new ReadFootprint();
        group.inFlight.push(reads);
        return this.runFor(subscribers, reads);
      });
      const tags = await Promise.all(runs);
      let index = 0;
      for (const [key, subscribers] of judged) {
        const etag = tags[index++];
        if (key === group.key) group.etag = etag ?? group.etag;
        // Those whose run failed end their streams where they are.
        else if (etag !== undefined) this.move(group, subscribers, key);
      }
    } finally {
      this.running.delete(group);
      group.inFlight = [];
      if (this.dirty.has(group)) this.schedule(this.settings!.debounce);
    }
  }

  /**
   * Asks the subscribers' contexts again: the subscribers by the share key they give now. One
   * whose context fails (its caller no longer authenticated) gets the error its GET would answer,
   * and its stream ends.
   */
  private async judge(subscribers: Subscriber[]): Promise<Map<string, Subscriber[]>> {
    const keys = await Promise.allSettled(subscribers.map((subscriber) => subscriber.judge()));
    const judged = new Map<string, Subscriber[]>();
    keys.forEach((key, index) => {
      const subscriber = subscribers[index]!;
      if (key.status === 'rejected') subscriber.stream.fail(subscriber.renderError(key.reason));
      else judged.set(key.value, [...(judged.get(key.value) ?? []), subscriber]);
    });
    return judged;
  }

  /**
   * Runs the query once for subscribers of the same context, noting what it reads in `reads`, and
   * sends its answer to those that did not get it last: its tag, or none when it failed (the error
   * ends their streams).
   */
  private async runFor(subscribers: Subscriber[], reads: ReadFootprint): Promise<string | undefined> {
    const leader = subscribers[0]!;
    this.reruns++;
    try {
      const payload = await leader.run(reads);
      const etag = entityTag(payload);
      let event: Buffer | undefined;
      for (const subscriber of subscribers) {
        if (subscriber.left) continue;
        // Added before the old is removed: a footprint the index keeps is not indexed again.
        this.footprints.add(reads, subscriber);
        this.footprints.remove(subscriber.reads, subscriber);
        subscriber.reads = reads;
        if (subscriber.etag === etag) continue;
        subscriber.etag = etag;
        subscriber.stream.send((event ??= eventBytes(payload, { id: etag })));
      }
      return etag;
    } catch (error) {
      // The query fails for every subscriber alike: they get the error and their streams end.
      const body = leader.renderError(error);
      for (const subscriber of subscribers) subscriber.stream.fail(body);
      return undefined;
    }
  }

  /** Moves subscribers whose context changed from `group` to the group of their new key. */
  private move(group: Group, subscribers: Subscriber[], key: string): void {
    for (const subscriber of subscribers) {
      // Gone meanwhile (closed, or failed just now).
      if (!group.subscribers.delete(subscriber)) continue;
      subscriber.shareKey = key;
      // A commit heard during the run may have reached them too: their new group runs again.
      const joined = this.join(subscriber);
      if (this.dirty.has(group)) this.markDirty(joined);
    }
    if (group.subscribers.size === 0 && this.groups.get(group.key) === group) this.drop(group);
  }

  /** A comment to every open stream, a slice at a time: thousands of streams never stall the event loop at once. */
  private heartbeat(): void {
    const streams = [...this.groups.values()].flatMap((group) => [...group.subscribers].map(({ stream }) => stream));
    void inSlices(streams, HEARTBEAT_SLICE, (stream) => stream.comment());
  }
}

/** A change of `model` whose rows are not known: it concerns every query that reads the model. */
const modelChange = (model: string): RowChange => ({ model });
