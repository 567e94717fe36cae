import type { SuperJSON } from 'superjson';
import { rpcSuperJSON } from './rpc-superjson.js';

/** The RPC response body: `data` is superjson's `json` part, `meta.serialization` its type metadata. */
export interface RpcResultBody {
  data: unknown;
  meta?: { serialization: unknown };
}

/** Serializes an operation's result; `meta` appears only when superjson produced type metadata. */
export function serializeRpcResult(result: unknown, serializer: SuperJSON = rpcSuperJSON): RpcResultBody {
  const { json, meta } = serializer.serialize(result);
  return meta ? { data: json, meta: { serialization: meta } } : { data: json ?? null };
}
