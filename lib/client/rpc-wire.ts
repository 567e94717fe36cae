import type { SuperJSON } from 'superjson';

import { readsArgsFromQuery } from '../rpc/rpc-operations.js';

/** One HTTP request of the RPC interface, before `fetch` sends it. */
export interface RpcHttpRequest {
  method: string;
  /** Path and query below the RPC base URL, starting with `/`. */
  path: string;
  body?: string;
}

/** A call's arguments in the wire form of its method: `q` + `meta` for GET/DELETE, a JSON body otherwise. */
export function encodeRpcCall(serializer: SuperJSON, method: string, path: string, args: unknown): RpcHttpRequest {
  if (args === undefined) return { method, path };
  const { json, meta } = serializer.serialize(args);
  if (readsArgsFromQuery(method)) {
    const params = new URLSearchParams({ q: JSON.stringify(json) });
    if (meta) params.set('meta', JSON.stringify({ serialization: meta }));
    return { method, path: `${path}?${params}` };
  }
  const body = meta ? { ...(json as object), meta: { serialization: meta } } : json;
  return { method, path, body: JSON.stringify(body) };
}

/** A sequential transaction's body: the fetch client's `{ data: [...] }` form with one `meta` for all. */
export function encodeTransaction(
  serializer: SuperJSON,
  steps: readonly { model: string; op: string; args?: unknown }[],
): RpcHttpRequest {
  const { json, meta } = serializer.serialize(steps);
  const body = meta ? { data: json, meta: { serialization: meta } } : { data: json };
  return { method: 'POST', path: '/$transaction/sequential', body: JSON.stringify(body) };
}

/** A success answer's `data`, its types restored from `meta.serialization` when the server sent it. */
export function decodeRpcResult(
  serializer: SuperJSON,
  body: { data?: unknown; meta?: { serialization?: unknown } },
): unknown {
  const serialization = body.meta?.serialization;
  if (serialization === undefined) return body.data;
  return serializer.deserialize({ json: body.data as never, meta: serialization as never });
}
