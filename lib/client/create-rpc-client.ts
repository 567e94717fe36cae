import { SuperJSON } from 'superjson';

import { registerPrismaTypes } from '../rpc/prisma-superjson-types.js';
import { RPC_OPERATIONS, SOFT_DELETE_RPC_OPERATIONS } from '../rpc/rpc-operations.js';
import { SOFT_DELETE_FLAG, WITH_DELETED_PARAMETER } from '../shared/soft-delete.constants.js';
import { idempotencyKeyField, randomUuid } from './idempotency-key.js';
import { ReadCache, readCacheKey } from './read-cache.js';
import { toRpcClientError } from './rpc-client.error.js';
import type { RpcClient, RpcClientOptions, RpcTransactionOptions } from './rpc-client.types.js';
import {
  asRpcPromise,
  callResult,
  createRpcPromise,
  type RpcCall,
  type RpcPromise,
  type RpcSend,
  wireArgs,
} from './rpc-promise.js';
import { decodeRpcResult, encodeRpcCall, encodeTransaction, type RpcHttpRequest } from './rpc-wire.js';
import type { NoRules } from './rules-data.types.js';

/** Every operation a delegate offers, with its methods: the served ones, and those of soft-deleted models. */
const OPERATIONS: ReadonlyMap<string, { methods: readonly string[] }> = new Map([
  ...RPC_OPERATIONS,
  ...SOFT_DELETE_RPC_OPERATIONS,
]);

/** How many reads a client keeps for revalidation unless `etagCache` says otherwise. */
const DEFAULT_ETAG_CACHE_ENTRIES = 100;

async function resolveHeaders(headers: RpcClientOptions['headers']): Promise<Headers> {
  return new Headers(typeof headers === 'function' ? await headers() : headers);
}

/** The read cache a client keeps (`etagCache` option): none when sized `false` or 0. */
function readCacheOf(size: RpcClientOptions['etagCache']): ReadCache | undefined {
  const entries = size ?? DEFAULT_ETAG_CACHE_ENTRIES;
  return entries ? new ReadCache(entries) : undefined;
}

/**
 * Sends requests to the RPC base URL and answers the decoded results, or throws RpcClientError.
 * A GET sends the `ETag` of its last answer in `If-None-Match`; on `304` the kept body answers.
 * A write sends its `Idempotency-Key`.
 */
function createTransport(
  options: RpcClientOptions,
  serializer: SuperJSON,
): (request: RpcHttpRequest, idempotencyKey?: string) => Promise<unknown> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const cache = readCacheOf(options.etagCache);
  const decode = (text: string) => decodeRpcResult(serializer, JSON.parse(text));
  return async ({ method, path, body }, idempotencyKey) => {
    const url = `${baseUrl}${path}`;
    const headers = await resolveHeaders(options.headers);
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    const cacheKey = cache && method === 'GET' ? readCacheKey(url, headers) : undefined;
    const cached = cacheKey === undefined ? undefined : cache?.get(cacheKey);
    if (cached) headers.set('If-None-Match', cached.etag);
    if (idempotencyKey !== undefined) headers.set('Idempotency-Key', idempotencyKeyField(idempotencyKey));
    const fetchImpl = options.fetch ?? globalThis.fetch;
    const res = await fetchImpl(url, { method, headers, body });
    if (res.status === 304 && cached) return decode(cached.text);
    const text = await res.text();
    if (!res.ok) throw toRpcClientError(res.status, text);
    if (cacheKey !== undefined) cache?.remember(cacheKey, res.headers.get('ETag'), text);
    return decode(text);
  };
}

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
function createDelegate(model: string, send: RpcSend): Record<string, (args?: unknown) => RpcPromise> {
  const delegate: Record<string, (args?: unknown) => RpcPromise> = {};
  for (const operation of OPERATIONS.keys()) {
    delegate[operation] = (args?: unknown) => createRpcPromise({ model, operation, args, fluent: [] }, send);
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
  const transport = createTransport(options, serializer);
  const send: RpcSend = (call, idempotencyKey) => {
    const { model, operation } = call;
    const method = OPERATIONS.get(operation)?.methods[0] ?? unknownOperation(model, operation);
    const query: Record<string, string> = call.withDeleted ? { [WITH_DELETED_PARAMETER]: SOFT_DELETE_FLAG } : {};
    return transport(
      encodeRpcCall(serializer, method, `/${encodeURIComponent(model)}/${operation}`, wireArgs(call), query),
      method === 'GET' ? undefined : idempotencyKey(),
    );
  };

  async function $transaction(calls: readonly unknown[], options?: RpcTransactionOptions): Promise<unknown[]> {
    const steps = calls.map((call) => transactionStep(asRpcPromise(call as PromiseLike<unknown>, '$transaction').call));
    const results = (await transport(
      encodeTransaction(
        serializer,
        steps.map((step) => ({ model: step.model, op: step.operation, args: wireArgs(step) })),
      ),
      options?.idempotencyKey ?? randomUuid(),
    )) as unknown[];
    return results.map((result, index) => callResult(steps[index], result));
  }

  const delegates = new Map<string, ReturnType<typeof createDelegate>>();
  return new Proxy({ $transaction } as object, {
    get(target, property) {
      if (typeof property !== 'string' || property.startsWith('$') || property === 'then')
        return Reflect.get(target, property);
      let delegate = delegates.get(property);
      if (!delegate) delegates.set(property, (delegate = createDelegate(property, send)));
      return delegate;
    },
  }) as RpcClient<Client, Rules>;
}
