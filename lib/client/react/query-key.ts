import { SuperJSON } from 'superjson';

import { registerPrismaTypes } from '../../rpc/prisma-superjson-types.js';
import { asRpcPromise, type RpcCall, wireArgs } from '../rpc-promise.js';

/** The first element of every query key the hooks make: `queryClient.invalidateQueries({ queryKey: [RPC_QUERY_KEY] })` clears them all. */
export const RPC_QUERY_KEY = 'nestjs-crud-api';

/** A hook's query key: `[RPC_QUERY_KEY, model, operation, { args, meta?, fluent?, withDeleted? }]`. */
export type RpcQueryKey = readonly [typeof RPC_QUERY_KEY, string, string, RpcQueryKeyArgs];

export interface RpcQueryKeyArgs {
  /** The arguments as they travel (superjson's `json`): plain JSON, so TanStack Query can hash them. */
  args?: unknown;
  meta?: unknown;
  /** The relation path of a fluent call (`post.findUnique(...).author()`). */
  fluent?: readonly string[];
  /** A read of deleted rows too (`withDeleted`): never the same data as the read without it. */
  withDeleted?: true;
}

// Keys only need superjson's JSON form: no Decimal class to restore into.
const keySerializer = registerPrismaTypes(new SuperJSON(), null);

/** The query key of a call (`rpcQueryKey(client.post.findMany(args))`), to read or set its cached data. */
export function rpcQueryKey(call: PromiseLike<unknown>): RpcQueryKey {
  return queryKeyOfCall(asRpcPromise(call, 'rpcQueryKey').call);
}

/** The same key for the same call, however its arguments were built (TanStack Query hashes keys with sorted object keys). */
export function queryKeyOfCall(call: RpcCall): RpcQueryKey {
  const args = wireArgs(call);
  const keyArgs: RpcQueryKeyArgs = {};
  if (args !== undefined) {
    const { json, meta } = keySerializer.serialize(args);
    keyArgs.args = json;
    if (meta) keyArgs.meta = meta;
  }
  if (call.fluent.length > 0) keyArgs.fluent = call.fluent.map((step) => step.field);
  if (call.withDeleted) keyArgs.withDeleted = true;
  return [RPC_QUERY_KEY, call.model, call.operation, keyArgs];
}

/** The model and arguments of one of the hooks' query keys; undefined for other keys. */
export function readRpcQueryKey(key: readonly unknown[]): { model: string; args: unknown } | undefined {
  if (key[0] !== RPC_QUERY_KEY || typeof key[1] !== 'string') return undefined;
  return { model: key[1], args: (key[3] as RpcQueryKeyArgs | undefined)?.args };
}
