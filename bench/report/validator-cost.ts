import { performance } from 'node:perf_hooks';
import { DEFAULT_LIMITS } from '../../lib/crud-api.constants.js';
import type { DataModelMeta } from '../../lib/metadata/model-meta.types.js';
import { ModelRegistry } from '../../lib/metadata/model-registry.js';
import { validateRpcArgs } from '../../lib/rpc/args/validate-rpc-args.js';
import type { Scenario } from '../scenarios.js';
import { markdownTable } from './bench-report.js';

export interface ValidatorCostRow {
  id: string;
  title: string;
  /** CPU time of one `validateRpcArgs` call on the scenario's arguments, in microseconds. */
  microsPerCall: number;
  /** That time as a share of our server's CPU time per request in the same run, when measured. */
  shareOfRequest?: number;
}

const CALLS = 20_000;

/** The model, operation and parsed arguments of an RPC scenario (`/api/rpc/:model/:operation`). */
function rpcCall(scenario: Scenario): { model: string; operation: string; args: Record<string, unknown>; origin: 'query' | 'body' } | undefined {
  const url = new URL(scenario.path, 'http://bench');
  const match = /\/api\/rpc\/([^/]+)\/([^/]+)$/.exec(url.pathname);
  if (!match) return undefined;
  const q = url.searchParams.get('q');
  const args = JSON.parse(q ?? scenario.body ?? '{}') as Record<string, unknown>;
  return { model: match[1]!, operation: match[2]!, args, origin: q === null ? 'body' : 'query' };
}

/**
 * What the RPC argument validator costs on each RPC scenario, measured in-process (it runs once per
 * request, so this is its whole share of a request's CPU time).
 */
export function measureValidatorCost(scenarios: readonly Scenario[], modelMeta: DataModelMeta, cpuPerRequest: ReadonlyMap<string, number>): ValidatorCostRow[] {
  const registry = new ModelRegistry(modelMeta);
  const rows: ValidatorCostRow[] = [];
  for (const scenario of scenarios) {
    const call = rpcCall(scenario);
    const model = call && registry.findByTypeName(call.model);
    if (!call || !model) continue;
    const options = { registry, model, operation: call.operation, origin: call.origin, limits: DEFAULT_LIMITS };
    for (let i = 0; i < CALLS / 10; i++) validateRpcArgs(call.args, options);
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) validateRpcArgs(call.args, options);
    const microsPerCall = ((performance.now() - started) * 1000) / CALLS;
    const cpu = cpuPerRequest.get(scenario.id);
    rows.push({ id: scenario.id, title: scenario.title, microsPerCall, ...(cpu ? { shareOfRequest: microsPerCall / cpu } : {}) });
  }
  return rows;
}

export function formatValidatorCostTable(rows: readonly ValidatorCostRow[]): string {
  return markdownTable(
    ['scenario', 'validator µs/call', 'share of our CPU/request'],
    rows.map((row) => [row.title, row.microsPerCall.toFixed(1), row.shareOfRequest === undefined ? '-' : `${(row.shareOfRequest * 100).toFixed(1)}%`]),
  );
}
