import { SuperJSON } from 'superjson';

import { PRISMA_OPERATIONS, prismaOperation } from '../metadata/prisma-operations.js';
import { registerPrismaTypes } from '../rpc/prisma-superjson-types.js';
import { CONSISTENCY_TOKEN_HEADER, laterToken } from '../shared/consistency-token.js';
import { SOFT_DELETE_FLAG, WITH_DELETED_PARAMETER } from '../shared/soft-delete.constants.js';
import { resolveHeaders } from './headers.js';
import { idempotencyKeyField, randomUuid } from './idempotency-key.js';
import { liveQuery } from './live-query.js';
import type { Sender } from './offline/offline-mode.js';
import { ReadCache, readCacheKey } from './read-cache.js';
import { toRpcClientError } from './rpc-client.error.js';
import type { RpcClient, RpcClientOptions, RpcTransactionOptions } from './rpc-client.types.js';
import {
  asRpcPromise,
  callResult,
  createRpcPromise,
  type RpcCall,
  type RpcPromise,
  type RpcTransport,
  wireArgs,
} from './rpc-promise.js';
import {
  decodeRpcResult,
  encodeRpcCall,
  encodeTransaction,
  type RpcHttpRequest,
  type RpcResultBody,
} from './rpc-wire.js';
import type { NoRules } from './rules-data.types.js';

/** How many reads a client keeps for revalidation unless `etagCache` says otherwise. */
const DEFAULT_ETAG_CACHE_ENTRIES = 100;

/** The read cache a client keeps (`etagCache` option): none when sized `false` or 0. */
function readCacheOf(size: RpcClientOptions['etagCache']): ReadCache | undefined {
  const entries = size ?? DEFAULT_ETAG_CACHE_ENTRIES;
  return entries ? new ReadCache(entries) : undefined;
}

/**
 * Sends requests to the RPC base URL and answers the decoded results, or throws RpcClientError.
 * A GET sends the `ETag` of its last answer in `If-None-Match`; on `304` the kept body answers.
 * A write sends its `Idempotency-Key`. Every request sends the latest consistency token the server
 * answered (docs/replicas.md): its reads never see a state older than this client's writes.
 */
function createSender(options: RpcClientOptions, serializer: SuperJSON, cache: ReadCache | undefined): Sender {
  const tokenHeader = options.consistencyHeader ?? CONSISTENCY_TOKEN_HEADER;
  let token: string | undefined;
  const decode = (text: string) => decodeRpcResult(serializer, JSON.parse(text));
  return async ({ method, path, body }, { idempotencyKey, ifMatch } = {}) => {
    const url = `${baseUrlOf(options)}${path}`;
    const headers = await resolveHeaders(options.headers);
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    const cacheKey = cache && method === 'GET' ? readCacheKey(url, headers) : undefined;
    const cached = cacheKey === undefined ? undefined : cache?.get(cacheKey);
    if (cached) headers.set('If-None-Match', cached.etag);
    if (idempotencyKey !== undefined) headers.set('Idempotency-Key', idempotencyKeyField(idempotencyKey));
    if (ifMatch !== undefined) headers.set('If-Match', ifMatch);
    // After the cache key: a new token must not make the kept answers unreachable.
    if (token !== undefined && !headers.has(tokenHeader)) headers.set(tokenHeader, token);
    const fetchImpl = options.fetch ?? globalThis.fetch;
    const res = await fetchImpl(url, { method, headers, body });
    const answered = res.headers.get(tokenHeader);
    if (answered !== null) token = laterToken(token, answered);
    if (res.status === 304 && cached) return { result: decode(cached.text), etag: cached.etag, text: cached.text };
    const text = await res.text();
    if (!res.ok) throw toRpcClientError(res.status, text);
    const etag = res.headers.get('ETag');
    if (cacheKey !== undefined) cache?.remember(cacheKey, etag, text);
    return { result: decode(text), etag, text };
  };
}

const baseUrlOf = (options: RpcClientOptions) => options.baseUrl.replace(/\/+$/, '');

/** A call as a step of `$transaction`, whose route takes no query parameter of its own. */
function transactionStep(call: RpcCall): RpcCall {
  if (call.withDeleted)
    throw new TypeError('$transaction takes no withDeleted call: send it alone (a batch sees live rows only).');
  return call;
}

function unknownOperation(model: string, operation: string): never {
  throw new TypeError(`The RPC interface has no operation "${operation}" (on model "${model}").`);
}

/** The model's delegate: one method per served operation, each answering a lazy RpcPromise. */
function createDelegate(model: string, transport: RpcTransport): Record<string, (args?: unknown) => RpcPromise> {
  const delegate: Record<string, (args?: unknown) => RpcPromise> = {};
  // Every operation the server serves, those of soft-deleted models too.
  for (const { name: operation } of PRISMA_OPERATIONS) {
    delegate[operation] = (args?: unknown) => createRpcPromise({ model, operation, args, fluent: [] }, transport);
  }
  return delegate;
}

/**
 * A client of the RPC interface typed by the application's generated Prisma client (a type import
 * only: `createRpcClient<PrismaClient>(...)`). Each model is a property, as on the Prisma client.
 * `createRpcClient<PrismaClient, typeof rules>(...)` types write data by the application's rules.
 */
export function createRpcClient<Client, Rules = NoRules>(options: RpcClientOptions): RpcClient<Client, Rules> {
  const serializer = registerPrismaTypes(new SuperJSON(), options.decimal ?? null);
  const cache = readCacheOf(options.etagCache);
  const send = createSender(options, serializer, cache);
  const request = (call: RpcCall): RpcHttpRequest => {
    const { model, operation } = call;
    const method = prismaOperation(operation)?.methods[0] ?? unknownOperation(model, operation);
    const query: Record<string, string> = call.withDeleted ? { [WITH_DELETED_PARAMETER]: SOFT_DELETE_FLAG } : {};
    return encodeRpcCall(serializer, method, `/${encodeURIComponent(model)}/${operation}`, wireArgs(call), query);
  };
  const offline = options.offline?.attach({
    baseUrl: baseUrlOf(options),
    headers: () => resolveHeaders(options.headers),
    send,
    cache,
    request,
    serializer,
  });
  const sender: Sender = offline?.sender ?? send;
  const transport: RpcTransport = {
    send: async (call, idempotencyKey) => {
      const http = request(call);
      if (http.method === 'GET') return (await sender(http)).result;
      if (offline) return offline.write(call, wireArgs(call), idempotencyKey());
      return (await sender(http, { idempotencyKey: idempotencyKey() })).result;
    },
    live: (call, { onResult, onError, ...handlers }) => {
      const { method, path } = request(call);
      if (method !== 'GET') throw new TypeError(`liveCall takes a read (findMany, count...), not ${call.operation}.`);
      return liveQuery(`${baseUrlOf(options)}${path}`, {
        ...handlers,
        fetch: options.fetch,
        headers: options.headers,
        onResult: (body) => onResult(decodeRpcResult(serializer, body as RpcResultBody)),
        onError:
          onError &&
          ((error, willRetry) => onError(toRpcClientError(error.status, error.body || error.message), willRetry)),
      });
    },
  };

  async function $transaction(calls: readonly unknown[], options?: RpcTransactionOptions): Promise<unknown[]> {
    const steps = calls.map((call) => transactionStep(asRpcPromise(call as PromiseLike<unknown>, '$transaction').call));
    const batch = steps.map((step) => ({ model: step.model, op: step.operation, args: wireArgs(step) }));
    const idempotencyKey = options?.idempotencyKey ?? randomUuid();
    const results = (
      offline
        ? await offline.write('batch', batch, idempotencyKey)
        : (await sender(encodeTransaction(serializer, batch), { idempotencyKey })).result
    ) as unknown[];
    return results.map((result, index) => callResult(steps[index], result));
  }

  const delegates = new Map<string, ReturnType<typeof createDelegate>>();
  const client = new Proxy({ $transaction } as object, {
    get(target, property) {
      if (typeof property !== 'string' || property.startsWith('$') || property === 'then')
        return Reflect.get(target, property);
      let delegate = delegates.get(property);
      if (!delegate) delegates.set(property, (delegate = createDelegate(property, transport)));
      return delegate;
    },
  }) as RpcClient<Client, Rules>;
  offline?.register(client);
  return client;
}
