import { clientSuperJSON } from './rpc-client.js';
import type { TestApp } from './test-app.js';

/** One operation of a sequential transaction, as ZenStack's clients describe it. */
export interface TransactionOperation {
  model: string;
  op: string;
  args?: Record<string, unknown>;
}

/**
 * The wire forms ZenStack v3's clients send to `$transaction/sequential` (written from its
 * published client-helpers, TanStack Query hooks and fetch client):
 * - `server`: an array of `{ model, op, args }`, each `args` with its own superjson `meta`, as a single call's body;
 * - `hooks`: the TanStack Query hooks' `marshal(operations)`: the plain array, or, when superjson
 *   produced metadata, the array's items under their indexes beside one `meta` for all;
 * - `fetch`: the fetch client's `{ data: [...] }`, each operation with its own `meta`.
 */
export type TransactionWireForm = 'server' | 'hooks' | 'fetch';

export function transactionBody(operations: TransactionOperation[], form: TransactionWireForm): unknown {
  if (form === 'server') {
    return operations.map(({ args, ...op }) => {
      if (args === undefined) return op;
      const { json, meta } = clientSuperJSON.serialize(args);
      return { ...op, args: meta ? { ...(json as object), meta: { serialization: meta } } : json };
    });
  }
  if (form === 'hooks') {
    const { json, meta } = clientSuperJSON.serialize(operations);
    return meta ? { ...(json as object[]), meta: { serialization: meta } } : json;
  }
  return {
    data: operations.map((op) => {
      const { json, meta } = clientSuperJSON.serialize(op);
      return meta ? { ...(json as object), meta: { serialization: meta } } : json;
    }),
  };
}

/** POSTs a sequential transaction and restores the results' types, as the clients do. */
export async function callTransaction(t: Pick<TestApp, 'http'>, body: unknown, base = '/api/rpc') {
  const res = await t
    .http()
    .post(`${base}/$transaction/sequential`)
    .send(body as object);
  const data = res.body?.meta?.serialization
    ? clientSuperJSON.deserialize({ json: res.body.data, meta: res.body.meta.serialization })
    : res.body?.data;
  return { status: res.status, body: res.body, data };
}
