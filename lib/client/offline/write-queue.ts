import type { SuperJSON } from 'superjson';

import type { ErrorCode } from '../../errors/error-codes.js';
import type { DataModelMeta } from '../../metadata/model-meta.types.js';
import { randomUuid } from '../idempotency-key.js';
import { RpcClientError, type RpcErrorBody } from '../rpc-client.error.js';
import type { OfflineStore } from './offline-store.js';
import { createdIds, leafKey, leavesIn, replaceLeaves } from './placeholders.js';
import { replayOutcome } from './replay-outcome.js';

/** A value in superjson's form: JSON, and what restores its Dates, BigInts, Decimals... */
export interface Serialized {
  json: unknown;
  meta?: unknown;
}

/** The version of a row a queued write was made on, which it is sent against (`If-Match`). */
export type WriteBase =
  /** The tag of the row's `findUnique` the client had read. */
  | { etag: string }
  /** The answer of an earlier queued write of the same row: its tag, once it is applied. */
  | { after: string }
  /** The values of the fields it writes as a read showed them: compared with the row's just before it is sent. */
  | { expected: Serialized };

/** One write waiting in the queue, as the store keeps it. */
export interface QueuedWrite {
  /** Its `Idempotency-Key`: every attempt sends it, so the server applies it at most once. */
  key: string;
  /** The model's name on the client (`post`); `$transaction` for a sequential batch. */
  model: string;
  operation: string;
  /** A `hardDelete` sent with `withDeleted` (docs/soft-delete.md). */
  withDeleted?: true;
  /** The arguments as sent (for a batch, its steps). */
  args?: Serialized;
  /** The row it writes (`model` and its `where`), for an update, upsert or delete. */
  row?: string;
  base?: WriteBase;
  /** The `If-Match` of its first attempt: a retry sends the same, whatever the row became. */
  sentWith?: { ifMatch: string | null };
  /** The placeholders a create gave the id fields the server sets (`createdIds`). */
  placeholders?: Serialized;
  /** Its place in the order of creates, which numbers its placeholders. */
  sequence: number;
  /** The server's version when a conflict holds it: the row (null when gone) and its tag. */
  conflict?: { theirs: Serialized | null; etag: string | null };
}

/** A write of the queue as the application sees it. */
export interface OfflineWrite {
  key: string;
  model: string;
  operation: string;
  args: unknown;
  /** The placeholders a create gave the ids the server sets (`{ id: -281474976710657 }`): later writes may name them. */
  placeholders?: Record<string, unknown>;
}

/** A write the server refused to apply as it was based on a version of the row that changed since (412). */
export interface OfflineConflict extends OfflineWrite {
  /** The row as the server has it now; null when it was deleted. */
  theirs: unknown;
}

/** How `resolve` ends a conflict. */
export type ConflictResolution =
  /** Send the write again against the server's version: it overwrites theirs. */
  | 'mine'
  /** Drop the write: the server's version stays, and writes made on top of it conflict in turn. */
  | 'theirs'
  /** Send these arguments instead (a merge), against the server's version. */
  | { args: unknown };

export type OfflineEvent =
  | { type: 'queued'; write: OfflineWrite }
  | { type: 'applied'; write: OfflineWrite; result: unknown }
  /**
   * Nothing of the write was written: the server refused it (400, 403, 404, 409, 422...), a write it
   * depends on was refused, or the application kept the server's version of a conflict (412).
   */
  | { type: 'refused'; write: OfflineWrite; error: RpcClientError }
  | { type: 'conflict'; conflict: OfflineConflict }
  /** An attempt got no answer it could act on (offline, 503...): the queue waits `delay` ms, or for the connection. */
  | { type: 'waiting'; write: OfflineWrite; error: unknown; delay: number };

/** What the queue needs of the client. */
export interface QueueTransport {
  /** Sends a write; answers its raw result and the answer's `ETag`. Throws `RpcClientError` on an error status. */
  send(
    write: QueuedWrite,
    args: unknown,
    headers: { idempotencyKey: string; ifMatch?: string },
  ): Promise<{ result: unknown; etag: string | null }>;
  /** The row `where` names as the server has it now (a `findUnique`), with its tag; null when there is none. */
  current(model: string, where: unknown): Promise<{ row: unknown; etag: string | null } | null>;
  /** What the client's reads tell of the row `where` names: the tag of its `findUnique`, or the row from any read. */
  known(model: string, where: unknown): Promise<{ etag: string } | { row: unknown } | undefined>;
}

export interface WriteQueueOptions {
  store: OfflineStore;
  /** The generated `modelMeta`: creates give placeholders to the ids the server sets. */
  modelMeta?: DataModelMeta;
  /** The wait before the `attempts`th retry, in ms. Default: 1 s doubling up to 30 s. */
  retryDelay?: (attempts: number) => number;
}

/** Operations of one row, sent against its version when the queue knows one. */
const ROW_WRITES: ReadonlySet<string> = new Set(['update', 'upsert', 'delete']);

/** The store's key of the queue. */
const QUEUE_KEY = 'writes';

/** How many applied creates' ids the queue remembers for `idOf`. */
const REMEMBERED_IDS = 500;

/** What of a browser's globals the queue uses (Node has none of them): the connection's state and changes, and locks. */
const browser = globalThis as {
  addEventListener?: (type: 'online', listener: () => void) => void;
  removeEventListener?: (type: 'online', listener: () => void) => void;
  navigator?: {
    onLine?: boolean;
    locks?: { request<T>(name: string, work: () => Promise<T>): Promise<T> };
  };
};

/** A BroadcastChannel (browsers, workers, Node): how queues over one store tell each other what they did. */
interface Channel {
  onmessage: ((message: { data: string }) => void) | null;
  postMessage(message: string): void;
  close(): void;
  /** Node's: the channel keeps no process alive. */
  unref?(): void;
}
const Broadcast = (globalThis as unknown as { BroadcastChannel?: new (name: string) => Channel }).BroadcastChannel;

/** A queue's event as another queue over the same store receives it (a refusal's error as its status and body). */
type SharedEvent =
  | Exclude<OfflineEvent, { type: 'refused' }>
  | { type: 'refused'; write: OfflineWrite; status: number; error: RpcErrorBody };

const defaultRetryDelay = (attempts: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, attempts - 1));

interface StoredQueue {
  writes: QueuedWrite[];
  sequence: number;
  /** Placeholders of applied creates and the ids the server gave (JSON forms). */
  ids: [string, unknown][];
}

interface Waiter {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/** The first-level fields of a JSON object. */
const fieldsOf = (json: unknown): Record<string, unknown> =>
  typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};

const emptyQueue = (): StoredQueue => ({ writes: [], sequence: 0, ids: [] });
const parseQueue = (text: string | undefined): StoredQueue => (text ? (JSON.parse(text) as StoredQueue) : emptyQueue());

/** The placeholders of a write's create, as JSON leaves. */
const placeholderLeaves = (write: QueuedWrite): string[] =>
  Object.values(fieldsOf(write.placeholders?.json)).map((value) => leafKey(value));

/** The row a write names (its model and `where`), to tell the writes of one row. */
const rowOf = (write: QueuedWrite): string => `${write.model}\n${JSON.stringify(fieldsOf(write.args?.json).where)}`;

/** Writes made on top of `key` are now based on `base` (its answer's tag, or the version it was based on). */
function rebase(state: StoredQueue, key: string, base: WriteBase | undefined): void {
  for (const each of state.writes) {
    if (each.base && 'after' in each.base && each.base.after === key) {
      if (base) each.base = base;
      else delete each.base;
    }
  }
}

/** The queue as the application uses it (`offlineQueue(client)`): its writes go in through the client. */
export interface OfflineQueue {
  /** Resolves once the queue read what the store kept. */
  readonly ready: Promise<void>;
  /** The writes not yet applied, in order (a held conflict first). */
  readonly pending: OfflineWrite[];
  /** The conflict holding the queue, if one does. */
  readonly conflict: OfflineConflict | undefined;
  subscribe(listener: (event: OfflineEvent) => void): () => void;
  /** The id the server gave a row created offline, for its placeholder; the value itself otherwise. */
  idOf<T>(value: T): T;
  /** Ends the conflict holding the queue, which then goes on. */
  resolve(key: string, resolution: ConflictResolution): Promise<void>;
  /** Sends the queued writes now, unless a conflict holds the queue. */
  flush(): void;
  /** Resolves once nothing is being sent: the queue is empty, held by a conflict, or waiting to retry. */
  settled(): Promise<void>;
  /** Stops sending (a page going away): what is queued stays in the store. */
  close(): void;
}

/**
 * A durable queue of writes: each is stored with its `Idempotency-Key` before it is sent, sent in
 * the order it was made, once the previous one is applied or refused, and retried with the same
 * key until the server answers it (docs/offline.md). Every change is made to what the store keeps,
 * atomically, so queues over one store (the tabs of an origin) never lose each other's writes; they
 * take turns sending (Web Locks) and tell each other what happened (BroadcastChannel).
 */
export class WriteQueue implements OfflineQueue {
  private state: StoredQueue = emptyQueue();
  private readonly loaded: Promise<void>;
  private readonly listeners = new Set<(event: OfflineEvent) => void>();
  private readonly waiters = new Map<string, Waiter>();
  /** Serializes this queue's changes of the store. */
  private saving: Promise<void> = Promise.resolve();
  private running?: Promise<void>;
  /** A flush asked for while sending ran: it runs again once it ends. */
  private again = false;
  private timer?: ReturnType<typeof setTimeout>;
  private attempts = 0;
  private closed = false;
  private readonly channel?: Channel;
  private readonly online = () => this.flush();

  constructor(
    private readonly options: WriteQueueOptions,
    private readonly transport: QueueTransport,
    private readonly serializer: SuperJSON,
  ) {
    this.loaded = this.reload();
    const name = options.store.name;
    if (name && Broadcast) {
      this.channel = new Broadcast(`nestjs-crud-api:${name}`);
      this.channel.unref?.();
      this.channel.onmessage = (message) => void this.heard(message.data);
    }
    // A browser says when it is back online: try at once rather than at the next retry.
    browser.addEventListener?.('online', this.online);
    void this.loaded.then(() => this.flush());
  }

  /** Resolves once the queue read what the store kept. */
  get ready(): Promise<void> {
    return this.loaded;
  }

  /** The writes not yet applied, in order (a held conflict first). */
  get pending(): OfflineWrite[] {
    return this.state.writes.map((write) => this.view(write));
  }

  /** The conflict holding the queue, if one does. */
  get conflict(): OfflineConflict | undefined {
    const held = this.state.writes[0];
    return held?.conflict && this.conflictOf(held);
  }

  subscribe(listener: (event: OfflineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The id the server gave a row created offline, for its placeholder; the value itself otherwise. */
  idOf<T>(value: T): T {
    const found = this.state.ids.find(([key]) => key === leafKey(value));
    return found ? (this.serializer.deserialize({ json: found[1] as never }) as T) : value;
  }

  /**
   * Queues a write (arguments as sent) and answers the placeholders of the ids it creates, and a
   * promise of the server's result.
   */
  async write(
    { model, operation, withDeleted }: { model: string; operation: string; withDeleted?: true },
    args: unknown,
    modelName?: string,
    idempotencyKey?: string,
  ): Promise<{ key: string; placeholders: Record<string, unknown>; applied: Promise<unknown> }> {
    await this.loaded;
    await this.reload();
    const write: QueuedWrite = { key: idempotencyKey ?? randomUuid(), model, operation, sequence: 0 };
    if (withDeleted) write.withDeleted = true;
    if (args !== undefined) {
      // A row created offline and applied since may still be named by its placeholder (a page not yet refreshed).
      const serialized = this.serializer.serialize(args) as Serialized;
      write.args = { ...serialized, json: replaceLeaves(serialized.json, new Map(this.state.ids)) };
      args = this.deserialize(write.args);
    }
    const where = (args as { where?: unknown } | undefined)?.where;
    const rowWrite = ROW_WRITES.has(operation) && where !== undefined;
    if (rowWrite) write.row = rowOf(write);
    // What the client's reads tell of the row, unless the queue has a write of it (found in the change below).
    const known = rowWrite ? await this.transport.known(model, where) : undefined;
    const meta = modelName ? this.options.modelMeta?.models[modelName] : undefined;
    let placeholders: Record<string, unknown> = {};
    const applied = new Promise<unknown>((resolve, reject) => this.waiters.set(write.key, { resolve, reject }));
    applied.catch(() => undefined); // reported by the event too: an unheard refusal is no unhandled rejection
    await this.change((state) => {
      write.sequence = ++state.sequence;
      if (operation === 'create') placeholders = createdIds(meta, (args as { data?: unknown }).data, write.sequence);
      if (Object.keys(placeholders).length > 0)
        write.placeholders = this.serializer.serialize(placeholders) as Serialized;
      if (rowWrite) {
        const base = this.baseOf(state, write, known);
        if (base) write.base = base;
      }
      state.writes.push(write);
    });
    this.report({ type: 'queued', write: this.view(write) });
    this.flush();
    return { key: write.key, placeholders, applied };
  }

  /**
   * Ends the conflict holding the queue (`conflict`), which then goes on. The write keeps its key:
   * the server kept none for the attempt it refused.
   */
  async resolve(key: string, resolution: ConflictResolution): Promise<void> {
    let held: QueuedWrite | undefined;
    await this.change((state) => {
      const write = state.writes[0];
      if (!write?.conflict || write.key !== key) return;
      held = write;
      const { etag } = write.conflict;
      if (resolution === 'theirs') {
        // Writes made on top of it take its own base: they were made on a version the server no longer has.
        state.writes.shift();
        rebase(state, key, write.base);
        return;
      }
      if (etag === null) delete write.base;
      else write.base = { etag };
      delete write.conflict;
      delete write.sentWith;
      if (resolution !== 'mine') write.args = this.serializer.serialize(resolution.args) as Serialized;
    });
    if (!held) throw new TypeError(`No conflict of the queue has the key "${key}".`);
    if (resolution === 'theirs') {
      const error = new RpcClientError(412, {
        message: 'The server’s version was kept',
        errorCode: 'precondition-failed' satisfies ErrorCode,
      });
      this.report({ type: 'refused', write: this.view(held), error });
    }
    this.flush();
  }

  /** Stops sending (a page going away, a test's reload): what is queued stays in the store. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.channel?.close();
    browser.removeEventListener?.('online', this.online);
  }

  /** Sends the queued writes now, unless a conflict holds the queue. */
  flush(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.exclusively(() => this.run()).finally(() => {
      this.running = undefined;
      if (this.again && !this.timer) {
        this.again = false;
        this.flush();
      }
    });
  }

  /** Resolves once nothing is being sent: the queue is empty, held by a conflict, or waiting to retry. */
  async settled(): Promise<void> {
    await this.loaded;
    while (this.running) await this.running;
  }

  /** Runs `work` while no other queue over the store sends (a Web Lock of the store's name, where there are locks). */
  private exclusively(work: () => Promise<void>): Promise<void> {
    const locks = browser.navigator?.locks;
    const name = this.options.store.name;
    return locks && name ? locks.request(`nestjs-crud-api:${name}`, work) : work();
  }

  private async run(): Promise<void> {
    await this.loaded;
    this.again = false;
    for (;;) {
      await this.reload();
      const write = this.state.writes[0];
      if (this.closed || !write || write.conflict) return;
      if (browser.navigator?.onLine === false) return; // the 'online' event flushes
      try {
        await this.attempt(write);
        this.attempts = 0;
      } catch (error) {
        const outcome = replayOutcome(error);
        if (outcome === 'retry') return this.retryLater(write, error);
        this.attempts = 0;
        if (outcome === 'conflict') await this.hold(write);
        else await this.refuse(write, error as RpcClientError);
      }
    }
  }

  /** One attempt of the first write: applied, or an error `replayOutcome` judges. */
  private async attempt(write: QueuedWrite): Promise<void> {
    const args = write.args && this.deserialize(write.args);
    let ifMatch = write.sentWith?.ifMatch ?? undefined;
    if (!write.sentWith) {
      const checked = await this.ifMatchOf(write, args);
      if (checked === 'conflict') return;
      ifMatch = checked;
      await this.changeWrite(write.key, (stored) => (stored.sentWith = { ifMatch: ifMatch ?? null }));
    }
    const { result, etag } = await this.transport.send(write, args, {
      idempotencyKey: write.key,
      ...(ifMatch === undefined ? {} : { ifMatch }),
    });
    await this.change((state) => {
      state.writes = state.writes.filter((each) => each.key !== write.key);
      this.learnIds(state, write, result);
      rebase(state, write.key, etag === null ? undefined : { etag });
    });
    this.report({ type: 'applied', write: this.view(write), result });
  }

  /**
   * The `If-Match` of a write's first attempt, from its base; when its base is the values a read
   * showed and the row no longer has them, the write is held as a conflict instead.
   */
  private async ifMatchOf(write: QueuedWrite, args: unknown): Promise<string | undefined | 'conflict'> {
    const base = write.base;
    if (!base || 'after' in base) return undefined;
    if ('etag' in base) return base.etag;
    const current = await this.transport.current(write.model, (args as { where: unknown }).where);
    const expected = fieldsOf(base.expected.json);
    const now = fieldsOf(current && this.serializer.serialize(current.row).json);
    const unchanged =
      current !== null && Object.keys(expected).every((name) => leafKey(now[name]) === leafKey(expected[name]));
    if (unchanged) return current.etag ?? undefined;
    await this.holdWith(write, current);
    return 'conflict';
  }

  /** Holds a write the server answered 412: the server's version is read for the application to resolve against. */
  private async hold(write: QueuedWrite): Promise<void> {
    const where = write.args && fieldsOf(this.deserialize(write.args)).where;
    const current = where === undefined ? null : await this.transport.current(write.model, where).catch(() => null);
    await this.holdWith(write, current);
  }

  private async holdWith(write: QueuedWrite, current: { row: unknown; etag: string | null } | null): Promise<void> {
    const conflict = {
      theirs: current && (this.serializer.serialize(current.row) as Serialized),
      etag: current?.etag ?? null,
    };
    await this.changeWrite(write.key, (stored) => (stored.conflict = conflict));
    this.report({ type: 'conflict', conflict: this.conflictOf({ ...write, conflict }) });
  }

  /** Drops a refused write and every queued write that names its placeholders or was made on top of it. */
  private async refuse(write: QueuedWrite, error: RpcClientError): Promise<void> {
    const dropped: QueuedWrite[] = [];
    await this.change((state) => {
      const placeholders = new Map<string, string>();
      const gone = new Set<string>();
      state.writes = state.writes.filter((each) => {
        const base = each.base;
        const dependent =
          each.key === write.key ||
          (base !== undefined && 'after' in base && gone.has(base.after)) ||
          (each.args !== undefined && leavesIn(each.args.json, placeholders).size > 0);
        if (!dependent) return true;
        gone.add(each.key);
        for (const leaf of placeholderLeaves(each)) placeholders.set(leaf, leaf);
        dropped.push(each);
        return false;
      });
    });
    for (const each of dropped) {
      const reason =
        each.key === write.key
          ? error
          : new RpcClientError(error.status, {
              message: `A write this one depends on was refused: ${error.message}`,
              ...(error.errorCode ? { errorCode: error.errorCode } : {}),
            });
      this.report({ type: 'refused', write: this.view(each), error: reason });
    }
  }

  private retryLater(write: QueuedWrite, error: unknown): void {
    const delay = (this.options.retryDelay ?? defaultRetryDelay)(++this.attempts);
    this.report({ type: 'waiting', write: this.view(write), error, delay });
    this.timer = setTimeout(() => this.flush(), delay);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /**
   * The version a row write is based on: the queue's last write of the row (or the create of the
   * row it names by placeholder), else what the client's reads tell (`known`).
   */
  private baseOf(
    state: StoredQueue,
    write: QueuedWrite,
    known: { etag: string } | { row: unknown } | undefined,
  ): WriteBase | undefined {
    const earlier = state.writes.findLast((each) => each.row === write.row);
    if (earlier) return { after: earlier.key };
    const creates = new Map(state.writes.flatMap((each) => placeholderLeaves(each).map((leaf) => [leaf, each.key])));
    const [created] = leavesIn(fieldsOf(write.args?.json).where, creates);
    if (created !== undefined) return { after: creates.get(created)! };
    if (!known) return undefined;
    if ('etag' in known) return known;
    const row = fieldsOf(this.serializer.serialize(known.row).json);
    const written =
      write.operation === 'delete'
        ? row
        : fieldsOf(fieldsOf(write.args?.json)[write.operation === 'upsert' ? 'update' : 'data']);
    // The fields it writes as the read showed them (all of them for a delete); values that are operations (`{ increment }`) compare their field too.
    const expected = Object.fromEntries(
      Object.keys(written)
        .filter((name) => Object.hasOwn(row, name))
        .map((name) => [name, row[name]]),
    );
    return { expected: { json: expected } };
  }

  /** After a create is applied: its placeholders become the ids it was given, in the queued writes too. */
  private learnIds(state: StoredQueue, write: QueuedWrite, result: unknown): void {
    if (!write.placeholders) return;
    const answered = fieldsOf(this.serializer.serialize(result).json);
    const known = new Map<string, unknown>();
    for (const [name, placeholder] of Object.entries(fieldsOf(write.placeholders.json))) {
      if (answered[name] !== undefined) known.set(leafKey(placeholder), answered[name]);
    }
    for (const each of state.writes) {
      if (each.args) each.args = { ...each.args, json: replaceLeaves(each.args.json, known) };
      if (each.row) each.row = rowOf(each);
    }
    state.ids = [...state.ids, ...known].slice(-REMEMBERED_IDS);
  }

  /** Reads what the store keeps now (another queue over it may have changed it). */
  private async reload(): Promise<void> {
    this.state = parseQueue(await this.options.store.get(QUEUE_KEY));
  }

  /**
   * Changes the queue as the store keeps it, atomically, one change after the other: a write is
   * stored before it is sent, and a change by another queue over the store is never overwritten.
   */
  private change(apply: (state: StoredQueue) => void): Promise<void> {
    this.saving = this.saving.then(async () => {
      const text = await this.options.store.update(QUEUE_KEY, (stored) => {
        const state = parseQueue(stored);
        apply(state);
        return JSON.stringify(state);
      });
      this.state = parseQueue(text);
    });
    return this.saving;
  }

  /** Changes one write as the store keeps it, if it is still there. */
  private changeWrite(key: string, apply: (write: QueuedWrite) => void): Promise<void> {
    return this.change((state) => {
      const write = state.writes.find((each) => each.key === key);
      if (write) apply(write);
    });
  }

  private deserialize(value: Serialized): unknown {
    return this.serializer.deserialize(value as never);
  }

  private view(write: QueuedWrite): OfflineWrite {
    return {
      key: write.key,
      model: write.model,
      operation: write.operation,
      args: write.args && this.deserialize(write.args),
      ...(write.placeholders ? { placeholders: this.deserialize(write.placeholders) as Record<string, unknown> } : {}),
    };
  }

  private conflictOf(write: QueuedWrite): OfflineConflict {
    const theirs = write.conflict?.theirs;
    return { ...this.view(write), theirs: theirs ? this.deserialize(theirs) : null };
  }

  /** Settles the write's promise (in the queue that made it), tells the listeners and the other queues over the store. */
  private report(event: OfflineEvent): void {
    this.settle(event);
    this.emit(event);
    if (!this.channel || this.closed) return;
    const shared: SharedEvent =
      event.type === 'refused'
        ? { type: 'refused', write: event.write, status: event.error.status, error: event.error.error }
        : event.type === 'waiting'
          ? { ...event, error: String(event.error) }
          : event;
    this.channel.postMessage(this.serializer.stringify(shared));
  }

  /** An event of another queue over the store: this queue's view is read again, and its promise of the write settled. */
  private async heard(message: string): Promise<void> {
    const shared = this.serializer.parse<SharedEvent>(message);
    const event: OfflineEvent =
      shared.type === 'refused'
        ? { type: 'refused', write: shared.write, error: new RpcClientError(shared.status, shared.error) }
        : shared;
    await this.reload();
    this.settle(event);
    this.emit(event);
    // A write queued elsewhere while this queue sends is sent by it too.
    if (event.type === 'queued') this.flush();
  }

  private settle(event: OfflineEvent): void {
    const key = event.type === 'conflict' ? event.conflict.key : event.write.key;
    const waiter = this.waiters.get(key);
    if (!waiter || (event.type !== 'applied' && event.type !== 'refused')) return;
    this.waiters.delete(key);
    if (event.type === 'applied') waiter.resolve(event.result);
    else waiter.reject(event.error);
  }

  private emit(event: OfflineEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
