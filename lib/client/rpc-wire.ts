import type { SuperJSON } from 'superjson';

import { readsArgsFromQuery } from '../rpc/rpc-operations.js';

/** One HTTP request of the RPC interface, before `fetch` sends it. */
export interface RpcHttpRequest {
  method: string;
  /** Path and query below the RPC base URL, starting with `/`. */
  path: string;
  body?: string;
}

/**
 * A call's arguments in the wire form of its method: `q` + `meta` for GET/DELETE, a JSON body
 * otherwise; `query` adds the call's other query parameters (`withDeleted`).
 */
export function encodeRpcCall(
  serializer: SuperJSON,
  method: string,
  path: string,
  args: unknown,
  query: Readonly<Record<string, string>> = {},
): RpcHttpRequest {
  const params = new URLSearchParams();
  let body: string | undefined;
  if (args !== undefined) {
    const { json, meta } = serializer.serialize(args);
    if (readsArgsFromQuery(method)) {
      params.set('q', JSON.stringify(json));
      if (meta) params.set('meta', JSON.stringify({ serialization: meta }));
    } else {
      body = JSON.stringify(meta ? { ...(json as object), meta: { serialization: meta } } : json);
    }
  }
  for (const [name, value] of Object.entries(query)) params.set(name, value);
  const search = params.toString();
  return { method, path: search ? `${path}?${search}` : path, ...(body === undefined ? {} : { body }) };
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

/** A success answer of the RPC interface, as JSON. */
export interface RpcResultBody {
  data?: unknown;
  meta?: { serialization?: unknown };
}

/** A success answer's `data`, its types restored from `meta.serialization` when the server sent it. */
export function decodeRpcResult(serializer: SuperJSON, body: RpcResultBody): unknown {
  const serialization = body.meta?.serialization;
  if (serialization === undefined) return body.data;
  return serializer.deserialize({ json: body.data as never, meta: serialization as never });
}
