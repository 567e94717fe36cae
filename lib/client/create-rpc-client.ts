import { SuperJSON } from 'superjson';

import { registerPrismaTypes } from '../rpc/prisma-superjson-types.js';
import { RPC_OPERATIONS } from '../rpc/rpc-operations.js';
import { toRpcClientError } from './rpc-client.error.js';
import type { RpcClient, RpcClientOptions } from './rpc-client.types.js';
import { asRpcPromise, callResult, createRpcPromise, type RpcPromise, type RpcSend, wireArgs } from './rpc-promise.js';
import { decodeRpcResult, encodeRpcCall, encodeTransaction, type RpcHttpRequest } from './rpc-wire.js';
import type { NoRules } from './rules-data.types.js';

async function resolveHeaders(headers: RpcClientOptions['headers']): Promise<Headers> {
  return new Headers(typeof headers === 'function' ? await headers() : headers);
}

/** Sends requests to the RPC base URL and answers the decoded results, or throws RpcClientError. */
function createTransport(
  options: RpcClientOptions,
  serializer: SuperJSON,
): (request: RpcHttpRequest) => Promise<unknown> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  return async ({ method, path, body }) => {
    const headers = await resolveHeaders(options.headers);
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    const res = await fetchImpl(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    if (!res.ok) throw toRpcClientError(res.status, text);
    return decodeRpcResult(serializer, JSON.parse(text));
  };
}

function unknownOperation(model: string, operation: string): never {
  throw new TypeError(`The RPC interface has no operation "${operation}" (on model "${model}").`);
}

/** The model's delegate: one method per served operation, each answering a lazy RpcPromise. */
function createDelegate(model: string, send: RpcSend): Record<string, (args?: unknown) => RpcPromise> {
  const delegate: Record<string, (args?: unknown) => RpcPromise> = {};
  for (const operation of RPC_OPERATIONS.keys()) {
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
  const send: RpcSend = (model, operation, args) => {
    const method = RPC_OPERATIONS.get(operation)?.methods[0] ?? unknownOperation(model, operation);
    return transport(encodeRpcCall(serializer, method, `/${encodeURIComponent(model)}/${operation}`, args));
  };

  async function $transaction(calls: readonly unknown[]): Promise<unknown[]> {
    const steps = calls.map((call) => asRpcPromise(call as PromiseLike<unknown>, '$transaction').call);
    const results = (await transport(
      encodeTransaction(
        serializer,
        steps.map((step) => ({ model: step.model, op: step.operation, args: wireArgs(step) })),
      ),
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
