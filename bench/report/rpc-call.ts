import type { Scenario } from '../scenarios.js';

export interface RpcCall {
  model: string;
  operation: string;
  args: Record<string, unknown>;
  origin: 'query' | 'body';
}

/** The model, operation and parsed arguments of an RPC scenario (`/api/rpc/:model/:operation`). */
export function rpcCall(scenario: Scenario): RpcCall | undefined {
  const url = new URL(scenario.path, 'http://bench');
  const match = /\/api\/rpc\/([^/]+)\/([^/]+)$/.exec(url.pathname);
  if (!match) return undefined;
  const q = url.searchParams.get('q');
  const args = JSON.parse(q ?? scenario.body ?? '{}') as Record<string, unknown>;
  return { model: match[1]!, operation: match[2]!, args, origin: q === null ? 'body' : 'query' };
}
