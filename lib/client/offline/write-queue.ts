import type { SuperJSON } from 'superjson';

import type { DataModelMeta } from '../../metadata/model-meta.types.js';
import { randomUuid } from '../idempotency-key.js';
import { RpcClientError } from '../rpc-client.error.js';
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

/** What of a browser's globals the queue uses (Node has neither): its connection's state and changes. */
const browser = globalThis as {
  addEventListener?: (type: 'online', listener: () => void) => void;
  navigator?: { onLine?: boolean };
};

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

/**
 * A durable queue of writes: each is stored with its `Idempotency-Key` before it is sent, sent in
 * the order it was made, once the previous one is applied or refused, and retried with the same
 * key until the server answers it (docs/offline.md).
 */
export class WriteQueue {
  private state: StoredQueue = { writes: [], sequence: 0, ids: [] };
  private readonly loaded: Promise<void>;
  private readonly listeners = new Set<(event: OfflineEvent) => void>();
  private readonly waiters = new Map<string, Waiter>();
  /** Serializes the queue's changes and their saving. */
  private saving: Promise<void> = Promise.resolve();
  private running?: Promise<void>;
  private timer?: ReturnType<typeof setTimeout>;
  private attempts = 0;
  private closed = false;

  constructor(
    private readonly options: WriteQueueOptions,
    private readonly transport: QueueTransport,
    private readonly serializer: SuperJSON,
  ) {
    this.loaded = options.store.get(QUEUE_KEY).then((text) => {
      if (text) this.state = JSON.parse(text) as StoredQueue;
    });
    // A browser says when it is back online: try at once rather than at the next retry.
    browser.addEventListener?.('online', () => this.flush());
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
   * Queues a write (arguments as sent) and answers at once what it is expected to return (the
   * data with the placeholders of the ids it creates), and a promise of the server's result.
   */
  async write(
    model: string,
    operation: string,
    args: unknown,
    modelName?: string,
    idempotencyKey?: string,
  ): Promise<{ key: string; placeholders: Record<string, unknown>; applied: Promise<unknown> }> {
    await this.loaded;
    const serialized = args === undefined ? undefined : (this.serializer.serialize(args) as Serialized);
    const sequence = ++this.state.sequence;
    const meta = modelName ? this.options.modelMeta?.models[modelName] : undefined;
    const data = (args as { data?: unknown } | undefined)?.data;
    const placeholders = operation === 'create' ? createdIds(meta, data, sequence) : {};
    const write: QueuedWrite = { key: idempotencyKey ?? randomUuid(), model, operation, sequence };
    if (serialized) write.args = serialized;
    if (Object.keys(placeholders).length > 0)
      write.placeholders = this.serializer.serialize(placeholders) as Serialized;
    const where = fieldsOf(serialized?.json).where;
    if (ROW_WRITES.has(operation) && where !== undefined) {
      write.row = `${model}\n${JSON.stringify(where)}`;
      write.base = await this.baseOf(write, (args as { where: unknown }).where);
    }
    const applied = new Promise<unknown>((resolve, reject) => this.waiters.set(write.key, { resolve, reject }));
    applied.catch(() => undefined); // reported by the event too: an unheard refusal is no unhandled rejection
    await this.change(() => this.state.writes.push(write));
    this.emit({ type: 'queued', write: this.view(write) });
    this.flush();
    return { key: write.key, placeholders, applied };
  }

  /** Ends the conflict holding the queue (`conflict`), which then goes on. */
  async resolve(key: string, resolution: ConflictResolution): Promise<void> {
    const write = this.state.writes[0];
    if (!write?.conflict || write.key !== key) throw new TypeError(`No conflict of the queue has the key "${key}".`);
    const { etag } = write.conflict;
    if (resolution === 'theirs') {
      // Writes made on top of it take its own base: they were made on a version the server no longer has.
      await this.change(() => {
        this.state.writes.shift();
        this.rebase(key, write.base);
      });
      const error = new RpcClientError(412, {
        message: 'The server’s version was kept',
        errorCode: 'precondition-failed',
      });
      this.waiters.get(key)?.reject(error);
      this.waiters.delete(key);
      this.emit({ type: 'refused', write: this.view(write), error });
    } else {
      await this.change(() => {
        // A new request: a new key (the refused attempt kept none on the server).
        const replaced: QueuedWrite = { ...write, key: randomUuid(), base: etag === null ? undefined : { etag } };
        delete replaced.conflict;
        delete replaced.sentWith;
        if (resolution !== 'mine') replaced.args = this.serializer.serialize(resolution.args) as Serialized;
        this.state.writes[0] = replaced;
        this.rebase(key, { after: replaced.key });
        this.moveWaiter(key, replaced.key);
      });
    }
    this.flush();
  }

  /** Stops sending (a page going away, a test's reload): what is queued stays in the store. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** Sends the queued writes now, unless a conflict holds the queue or sending already runs. */
  flush(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running ??= this.run().finally(() => (this.running = undefined));
  }

  /** Resolves once no write is queued, or a conflict holds the queue (tests, a shutdown). */
  async settled(): Promise<void> {
    await this.loaded;
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    await this.loaded;
    while (!this.closed && this.state.writes.length > 0 && !this.state.writes[0]!.conflict) {
      if (browser.navigator?.onLine === false) return; // the 'online' event flushes
      const write = this.state.writes[0]!;
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
      ifMatch = await this.ifMatchOf(write, args);
      if (write.conflict) return;
      await this.change(() => (write.sentWith = { ifMatch: ifMatch ?? null }));
    }
    const { result, etag } = await this.transport.send(write, args, {
      idempotencyKey: write.key,
      ...(ifMatch === undefined ? {} : { ifMatch }),
    });
    await this.change(() => {
      this.state.writes.shift();
      this.learnIds(write, result);
      this.rebase(write.key, etag === null ? undefined : { etag });
    });
    this.waiters.get(write.key)?.resolve(result);
    this.waiters.delete(write.key);
    this.emit({ type: 'applied', write: this.view(write), result });
  }

  /** The `If-Match` of a write's first attempt; a conflict is held instead when its expected values are no longer the row's. */
  private async ifMatchOf(write: QueuedWrite, args: unknown): Promise<string | undefined> {
    const base = write.base;
    if (!base || 'after' in base) return undefined;
    if ('etag' in base) return base.etag;
    const current = await this.transport.current(write.model, (args as { where: unknown }).where);
    const expected = fieldsOf(base.expected.json);
    const now = fieldsOf(current && this.serializer.serialize(current.row).json);
    const unchanged =
      current !== null && Object.keys(expected).every((name) => leafKey(now[name]) === leafKey(expected[name]));
    if (unchanged) return current.etag ?? undefined;
    await this.change(() => {
      write.conflict = {
        theirs: current && (this.serializer.serialize(current.row) as Serialized),
        etag: current?.etag ?? null,
      };
    });
    this.emit({ type: 'conflict', conflict: this.conflictOf(write) });
    return undefined;
  }

  /** Holds a write the server answered 412: the server's version is read for the application to resolve against. */
  private async hold(write: QueuedWrite): Promise<void> {
    const where = write.args && fieldsOf(this.deserialize(write.args)).where;
    const current = where === undefined ? null : await this.transport.current(write.model, where).catch(() => null);
    await this.change(() => {
      write.conflict = {
        theirs: current && (this.serializer.serialize(current.row) as Serialized),
        etag: current?.etag ?? null,
      };
    });
    this.emit({ type: 'conflict', conflict: this.conflictOf(write) });
  }

  /** Drops a refused write and every queued write that names its placeholders or was made on top of it. */
  private async refuse(write: QueuedWrite, error: RpcClientError): Promise<void> {
    const dropped = [write];
    await this.change(() => {
      this.state.writes.shift();
      const placeholders = new Set<string>();
      const gone = new Set([write.key]);
      const mark = (each: QueuedWrite) => {
        if (each.placeholders)
          for (const value of Object.values(fieldsOf(each.placeholders.json))) placeholders.add(leafKey(value));
      };
      mark(write);
      this.state.writes = this.state.writes.filter((each) => {
        const base = each.base;
        const dependent =
          (base !== undefined && 'after' in base && gone.has(base.after)) ||
          (each.args !== undefined &&
            leavesIn(each.args.json, new Map([...placeholders].map((key) => [key, key]))).size > 0);
        if (!dependent) return true;
        gone.add(each.key);
        mark(each);
        dropped.push(each);
        return false;
      });
    });
    for (const each of dropped) {
      const reason =
        each === write
          ? error
          : new RpcClientError(error.status, {
              message: `A write this one depends on was refused: ${error.message}`,
              ...(error.errorCode ? { errorCode: error.errorCode } : {}),
            });
      this.waiters.get(each.key)?.reject(reason);
      this.waiters.delete(each.key);
      this.emit({ type: 'refused', write: this.view(each), error: reason });
    }
  }

  private retryLater(write: QueuedWrite, error: unknown): void {
    const delay = (this.options.retryDelay ?? defaultRetryDelay)(++this.attempts);
    this.emit({ type: 'waiting', write: this.view(write), error, delay });
    this.timer = setTimeout(() => this.flush(), delay);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** The version a row write is based on: the queue's last write of the row, else what the client's reads tell. */
  private async baseOf(write: QueuedWrite, where: unknown): Promise<WriteBase | undefined> {
    const earlier = this.state.writes.findLast((each) => each.row === write.row);
    if (earlier) return { after: earlier.key };
    const created = [...leavesIn(write.args?.json, this.pendingPlaceholders()).values()];
    if (created.length > 0) return { after: this.pendingPlaceholders().get(created[0]!) as string };
    const known = await this.transport.known(write.model, where);
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
        .filter((name) => name in row)
        .map((name) => [name, row[name]]),
    );
    return { expected: { json: expected } };
  }

  /** The placeholders of queued creates (JSON form → the create's key). */
  private pendingPlaceholders(): Map<string, unknown> {
    const found = new Map<string, unknown>();
    for (const each of this.state.writes) {
      for (const value of Object.values(fieldsOf(each.placeholders?.json))) found.set(leafKey(value), each.key);
    }
    return found;
  }

  /** After a create is applied: its placeholders become the ids it was given, in the queued writes too. */
  private learnIds(write: QueuedWrite, result: unknown): void {
    if (!write.placeholders) return;
    const answered = fieldsOf(this.serializer.serialize(result).json);
    const known = new Map<string, unknown>();
    for (const [name, placeholder] of Object.entries(fieldsOf(write.placeholders.json))) {
      if (answered[name] !== undefined) known.set(leafKey(placeholder), answered[name]);
    }
    for (const each of this.state.writes) {
      if (each.args) each.args = { ...each.args, json: replaceLeaves(each.args.json, known) };
      if (each.row) each.row = `${each.model}\n${JSON.stringify(fieldsOf(each.args?.json).where)}`;
    }
    this.state.ids = [...this.state.ids, ...known].slice(-REMEMBERED_IDS);
  }

  /** Writes made on top of `key` are now based on `base` (its answer's tag, or the version it was based on). */
  private rebase(key: string, base: WriteBase | undefined): void {
    for (const each of this.state.writes) {
      if (each.base && 'after' in each.base && each.base.after === key) {
        if (base) each.base = base;
        else delete each.base;
      }
    }
  }

  private moveWaiter(from: string, to: string): void {
    const waiter = this.waiters.get(from);
    if (!waiter) return;
    this.waiters.delete(from);
    this.waiters.set(to, waiter);
  }

  /** Changes the queue and saves it, one change after the other: a write is stored before it is sent. */
  private change(apply: () => void): Promise<void> {
    apply();
    const text = JSON.stringify(this.state);
    this.saving = this.saving.then(() => this.options.store.set(QUEUE_KEY, text));
    return this.saving;
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

  private emit(event: OfflineEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
