import type { DataModelMeta } from '../../metadata/model-meta.types.js';
import { modelsByClientName } from '../model-names.js';
import { readCacheKey } from '../read-cache.js';
import { decodeRpcResult, encodeTransaction } from '../rpc-wire.js';
import {
  type ClientParts,
  type OfflineMode,
  type OfflineParts,
  type Sender,
  TRANSACTION_MODEL,
} from './offline-mode.js';
import type { OfflineStore } from './offline-store.js';
import { hasKey } from './row-key.js';
import { type OfflineQueue, type QueuedWrite, type QueueTransport, WriteQueue } from './write-queue.js';

/** The `offline` option of `createRpcClient` (docs/offline.md). */
export interface RpcOfflineOptions {
  /** Where the queue of writes and the read answers are kept: `indexedDbStore()` in browsers. */
  store: OfflineStore;
  /** The generated `modelMeta`: rows created offline get placeholder ids that later writes can name. */
  modelMeta?: DataModelMeta;
  /** The wait before the `attempts`th retry of a write that got no answer, in ms. Default: 1 s doubling up to 30 s. */
  retryDelay?: (attempts: number) => number;
}

/** The queue of each client made with the `offline` option. */
const OFFLINE_QUEUES = new WeakMap<object, WriteQueue>();

/** Row writes whose answer (without a selection) is the row as its `findUnique` answers it, with that read's tag. */
const ANSWERS_THE_ROW: ReadonlySet<string> = new Set(['create', 'update', 'upsert']);

/** The store's key of the read answers kept for `If-None-Match`. */
const READS_KEY = 'reads';
/** How long after a read its answer is stored: reads in a burst are stored once. */
const SAVE_READS_DELAY_MS = 200;

/** The queue of writes of a client made with the `offline` option. */
export function offlineQueue(client: object): OfflineQueue {
  const queue = OFFLINE_QUEUES.get(client);
  if (!queue)
    throw new TypeError('offlineQueue takes a client made with createRpcClient({ offline: offlineFirst(...) }).');
  return queue;
}

type Row = Record<string, unknown>;

/** The row a unique `where` names in a decoded answer: the answer itself, or one of its rows. */
function rowIn(result: unknown, where: Row): Row | undefined {
  const rows = Array.isArray(result) ? result : [result];
  return rows.find((row): row is Row => typeof row === 'object' && row !== null && hasKey(row as Row, where));
}

/**
 * The `offline` option of `createRpcClient` (docs/offline.md): a client that keeps working
 * offline. Only a client given it carries the queue's code.
 */
export function offlineFirst(offline: RpcOfflineOptions): OfflineMode {
  return { attach: (parts) => offlineClient(offline, parts) };
}

/**
 * The offline parts of a client: the read answers kept in the store (so a reload still
 * revalidates with `If-None-Match`), and the queue every write goes through.
 */
function offlineClient(offline: RpcOfflineOptions, parts: ClientParts): OfflineParts {
  const { send, cache, request, serializer, baseUrl: base } = parts;
  const loaded = cache
    ? offline.store.get(READS_KEY).then((text) => text && cache.restore(JSON.parse(text)))
    : Promise.resolve();
  let saving: ReturnType<typeof setTimeout> | undefined;
  const storeReads = () => {
    clearTimeout(saving);
    saving = undefined;
    void offline.store.set(READS_KEY, JSON.stringify(cache!.snapshot())).catch(() => undefined);
  };
  /** Stores the read answers a moment after a read (a burst of reads is stored once). */
  const saveReads = () => {
    saving ??= setTimeout(storeReads, SAVE_READS_DELAY_MS);
  };
  const sender: Sender = async (http, headers) => {
    await loaded;
    const exchange = await send(http, headers);
    if (cache && http.method === 'GET') saveReads();
    return exchange;
  };
  const findUnique = (model: string, where: unknown) =>
    request({ model, operation: 'findUnique', args: { where }, fluent: [] });

  const names = offline.modelMeta && modelsByClientName(offline.modelMeta);
  /** The unique `where` of the row a write answered: its own (update, upsert), or its id (a create, with `modelMeta`). */
  const whereOf = (write: QueuedWrite, args: unknown, result: unknown): unknown => {
    if (write.operation !== 'create') return (args as Row).where;
    const name = names?.get(write.model);
    const ids = (name && offline.modelMeta!.models[name]?.idFields) || [];
    const id = ids.length === 1 ? (result as Row | null)?.[ids[0]!] : undefined;
    return id === undefined ? undefined : { [ids[0]!]: id };
  };
  /** The cache key of the row's `findUnique` (no selection), as a read of it would send it. */
  const ownKey = async (model: string, where: unknown) =>
    readCacheKey(`${base}${findUnique(model, where).path}`, await parts.headers());

  const transport: QueueTransport = {
    send: async (write, args, headers) => {
      if (write.model === TRANSACTION_MODEL) return sender(encodeTransaction(serializer, args as never), headers);
      const exchange = await sender(
        request({ model: write.model, operation: write.operation, args, fluent: [], withDeleted: write.withDeleted }),
        headers,
      );
      // The row as written is what the application saw last of it: its next write is made on it.
      const shaped = ['select', 'include', 'omit'].some((name) => (args as Row)[name] !== undefined);
      const where = ANSWERS_THE_ROW.has(write.operation) && !shaped ? whereOf(write, args, exchange.result) : undefined;
      if (cache && where && exchange.etag !== null) {
        cache.remember(await ownKey(write.model, where), exchange.etag, exchange.text);
        // At once: the next write of the row, after a reload too, is made on it.
        storeReads();
      }
      return exchange;
    },
    current: async (model, where) => {
      const { result, etag } = await sender(findUnique(model, where));
      return result === null ? null : { row: result, etag };
    },
    known: async (model, where) => {
      await loaded;
      if (!cache) return undefined;
      const own = await ownKey(model, where);
      const prefix = `${base}/${encodeURIComponent(model)}/`;
      // The latest read that showed the row: the edit was made on what it showed.
      for (const [key, entry] of cache.snapshot().reverse()) {
        if (!key.startsWith(prefix)) continue;
        if (key === own) return { etag: entry.etag };
        const row = rowIn(decodeRpcResult(serializer, JSON.parse(entry.text)), where as Row);
        if (row) return { row };
      }
      return undefined;
    },
  };
  const queue = new WriteQueue(offline, transport, serializer);
  return {
    sender,
    write: async (call, args, idempotencyKey) => {
      const target = call === 'batch' ? { model: TRANSACTION_MODEL, operation: 'sequential' } : call;
      const queued = await queue.write(target, args, names?.get(target.model), idempotencyKey);
      return queued.applied;
    },
    register: (client) => OFFLINE_QUEUES.set(client, queue),
  };
}
