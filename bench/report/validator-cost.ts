import type { DataModelMeta } from '../../lib/metadata/model-meta.types.js';
import { ModelRegistry } from '../../lib/metadata/model-registry.js';
import { DEFAULT_LIMITS } from '../../lib/options/option-table.js';
import { validateRpcArgs } from '../../lib/rpc/args/validate-rpc-args.js';
import type { Scenario } from '../scenarios.js';
import { markdownTable } from './bench-report.js';
import { cpuMicrosPerCall } from './micro-benchmark.js';
import { rpcCall } from './rpc-call.js';

export interface ValidatorCostRow {
  id: string;
  title: string;
  /** CPU time of one `validateRpcArgs` call on the scenario's arguments, in microseconds. */
  microsPerCall: number;
  /** That time as a share of our server's CPU time per request in the same run, when measured. */
  shareOfRequest?: number;
}

const CALLS = 20_000;

/**
 * What the RPC argument validator costs on each RPC scenario, measured in-process (it runs once per
 * request, so this is its whole share of a request's CPU time).
 */
export function measureValidatorCost(
  scenarios: readonly Scenario[],
  modelMeta: DataModelMeta,
  cpuPerRequest: ReadonlyMap<string, number>,
): ValidatorCostRow[] {
  const registry = new ModelRegistry(modelMeta);
  const rows: ValidatorCostRow[] = [];
  for (const scenario of scenarios) {
    const call = rpcCall(scenario);
    const model = call && registry.findByTypeName(call.model);
    if (!call || !model) continue;
    const options = { registry, model, operation: call.operation, origin: call.origin, limits: DEFAULT_LIMITS };
    const microsPerCall = cpuMicrosPerCall(() => validateRpcArgs(call.args, options), CALLS);
    const cpu = cpuPerRequest.get(scenario.id);
    rows.push({
      id: scenario.id,
      title: scenario.title,
      microsPerCall,
      ...(cpu ? { shareOfRequest: microsPerCall / cpu } : {}),
    });
  }
  return rows;
}

export function formatValidatorCostTable(rows: readonly ValidatorCostRow[]): string {
  return markdownTable(
    ['scenario', 'validator µs/call', 'share of our CPU/request'],
    rows.map((row) => [
      row.title,
      row.microsPerCall.toFixed(1),
      row.shareOfRequest === undefined ? '-' : `${(row.shareOfRequest * 100).toFixed(1)}%`,
    ]),
  );
}
