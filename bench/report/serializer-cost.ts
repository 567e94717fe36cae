import type { DataModelMeta } from '../../lib/metadata/model-meta.types.js';
import { ModelRegistry } from '../../lib/metadata/model-registry.js';
import type { RpcResultWriter } from '../../lib/rpc/rpc-result-writer.js';
import { RpcResultWriters } from '../../lib/rpc/rpc-result-writers.js';
import { rpcSuperJSON } from '../../lib/rpc/rpc-superjson.js';
import { serializeRpcResult } from '../../lib/rpc/serialize-rpc-result.js';
import { HAND_WRITTEN_OUTPUTS, rpcBody } from '../baseline/superjson-rows.js';
import type { Scenario } from '../scenarios.js';
import { markdownTable } from './bench-report.js';
import { cpuMicrosPerCall } from './micro-benchmark.js';
import { rpcCall } from './rpc-call.js';

export interface SerializerCostRow {
  id: string;
  title: string;
  /** CPU time to write the response bytes with superjson's own walk, µs. */
  superjsonMicros: number;
  /** The same as the baseline writes them: by hand where it has a writer for the scenario, else superjson, µs. */
  baselineMicros: number;
  /** The same with `serializeRpcResult`'s generic walk, µs. */
  walkMicros: number;
  /** The same as our server writes them: with the writer compiled for the call, if any, µs. */
  oursMicros: number;
  /** All wrote the same bytes. */
  identical: boolean;
}

const CALLS = 5_000;

const superjsonBytes = (result: unknown): string => JSON.stringify(rpcBody(rpcSuperJSON.serialize(result)));

const oursBytes = (result: unknown, writer?: RpcResultWriter): string =>
  JSON.stringify(serializeRpcResult(result, rpcSuperJSON, writer));

type Delegates = Record<string, Record<string, (args: unknown) => Promise<unknown>>>;

/**
 * What writing the response of each RPC read scenario costs, in-process, on the result the
 * scenario's query returns from the seeded database: superjson's generic walk, the baseline's
 * writer, our generic walk, and ours as the server writes it (with the writer compiled for the call).
 */
export async function measureSerializerCost(
  scenarios: readonly Scenario[],
  modelMeta: DataModelMeta,
  prisma: unknown,
): Promise<SerializerCostRow[]> {
  const registry = new ModelRegistry(modelMeta);
  const writers = new RpcResultWriters(registry);
  const rows: SerializerCostRow[] = [];
  for (const scenario of scenarios.filter((s) => !s.write)) {
    const call = rpcCall(scenario);
    const model = call && registry.findByTypeName(call.model);
    if (!call || !model) continue;
    const result = await (prisma as Delegates)[registry.delegateName(model)]![call.operation]!(call.args);
    const writer = writers.find(model, call.operation, call.args);
    const handWritten = HAND_WRITTEN_OUTPUTS[scenario.id];
    const baselineBytes = handWritten
      ? () => JSON.stringify(rpcBody(handWritten(result)))
      : () => superjsonBytes(result);
    const bytes = superjsonBytes(result);
    rows.push({
      id: scenario.id,
      title: scenario.title,
      superjsonMicros: cpuMicrosPerCall(() => superjsonBytes(result), CALLS),
      baselineMicros: cpuMicrosPerCall(baselineBytes, CALLS),
      walkMicros: cpuMicrosPerCall(() => oursBytes(result), CALLS),
      oursMicros: cpuMicrosPerCall(() => oursBytes(result, writer), CALLS),
      identical: [baselineBytes(), oursBytes(result), oursBytes(result, writer)].every((written) => written === bytes),
    });
  }
  return rows;
}

export function formatSerializerCostTable(rows: readonly SerializerCostRow[]): string {
  return markdownTable(
    [
      'scenario',
      'superjson µs/response',
      'baseline µs/response',
      'generic walk µs/response',
      'ours µs/response',
      'ours / baseline',
      'same bytes',
    ],
    rows.map((row) => [
      row.title,
      row.superjsonMicros.toFixed(1),
      row.baselineMicros.toFixed(1),
      row.walkMicros.toFixed(1),
      row.oursMicros.toFixed(1),
      (row.oursMicros / row.baselineMicros).toFixed(2),
      row.identical ? 'yes' : 'NO',
    ]),
  );
}
