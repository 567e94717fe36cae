import type { SuperJSON } from 'superjson';

import { walkRpcResult } from './rpc-result-walk.js';
import type { RpcResultWriter } from './rpc-result-writer.js';
import { rpcSuperJSON } from './rpc-superjson.js';

/** The RPC response body: `data` is superjson's `json` part, `meta.serialization` its type metadata. */
export interface RpcResultBody {
  data: unknown;
  meta?: { serialization: unknown };
}

/**
 * Serializes an operation's result; `meta` appears only when superjson produced type metadata.
 * With the server's own instance, the operation's compiled writer (when given) or else the fast
 * walk writes what superjson would (each defers to the next for what it does not cover); another
 * instance may carry other registrations.
 */
export function serializeRpcResult(
  result: unknown,
  serializer: SuperJSON = rpcSuperJSON,
  writer?: RpcResultWriter,
): RpcResultBody {
  const fast = serializer === rpcSuperJSON ? (writer?.(result) ?? walkRpcResult(result)) : undefined;
  const { json, meta } = fast ?? serializer.serialize(result);
  return meta ? { data: json, meta: { serialization: meta } } : { data: json ?? null };
}
