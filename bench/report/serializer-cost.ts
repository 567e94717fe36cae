import type { DataModelMeta } from '../../lib/metadata/model-meta.types.js';
import { ModelRegistry } from '../../lib/metadata/model-registry.js';
import { rpcSuperJSON } from '../../lib/rpc/rpc-superjson.js';
import { serializeRpcResult } from '../../lib/rpc/serialize-rpc-result.js';
import type { Scenario } from '../scenarios.js';
import { markdownTable } from './bench-report.js';
import { cpuMicrosPerCall } from './micro-benchmark.js';
import { rpcCall } from './rpc-call.js';

export interface SerializerCostRow {
  id: string;
  title: string;
  /** CPU time to write the response bytes with superjson's own walk (what the baseline does), µs. */
  superjsonMicros: number;
  /** The same with `serializeRpcResult`, µs. */
  oursMicros: number;
  /** Both wrote the same bytes. */
  identical: boolean;
}

const CALLS = 5_000;

function superjsonBytes(result: unknown): string {
  const { json, meta } = rpcSuperJSON.serialize(result);
  return JSON.stringify(meta ? { data: json, meta: { serialization: meta } } : { data: json ?? null });
}

const oursBytes = (result: unknown): string => JSON.stringify(serializeRpcResult(result));

type Delegates = Record<string, Record<string, (args: unknown) => Promise<unknown>>>;

/**
 * What writing the response of each RPC read scenario costs, in-process, on the result the
 * scenario's query returns from the seeded database: superjson's generic walk against ours.
 */
export async function measureSerializerCost(
  scenarios: readonly Scenario[],
  modelMeta: DataModelMeta,
  prisma: unknown,
): Promise<SerializerCostRow[]> {
  const registry = new ModelRegistry(modelMeta);
  const rows: SerializerCostRow[] = [];
  for (const scenario of scenarios.filter((s) => !s.write)) {
    const call = rpcCall(scenario);
    const model = call && registry.findByTypeName(call.model);
    if (!call || !model) continue;
    const result = await (prisma as Delegates)[registry.delegateName(model)]![call.operation]!(call.args);
    rows.push({
      id: scenario.id,
      title: scenario.title,
      superjsonMicros: cpuMicrosPerCall(() => superjsonBytes(result), CALLS),
      oursMicros: cpuMicrosPerCall(() => oursBytes(result), CALLS),
      identical: superjsonBytes(result) === oursBytes(result),
    });
  }
  return rows;
}

export function formatSerializerCostTable(rows: readonly SerializerCostRow[]): string {
  return markdownTable(
    ['scenario', 'superjson µs/response', 'ours µs/response', 'ratio', 'same bytes'],
    rows.map((row) => [
      row.title,
      row.superjsonMicros.toFixed(1),
      row.oursMicros.toFixed(1),
      (row.oursMicros / row.superjsonMicros).toFixed(2),
      row.identical ? 'yes' : 'NO',
    ]),
  );
}
