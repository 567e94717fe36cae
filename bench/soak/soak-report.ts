import { markdownTable } from '../report/bench-report.js';
import type { WriteVerification } from './write-ledger.js';

/** One answered (or failed) request of the soak load. */
export interface SoakSample {
  /** Milliseconds since the measured load began. */
  at: number;
  latencyMs: number;
  operation: string;
  /** False for an unexpected status or a transport error. */
  ok: boolean;
}

export interface SoakInterval {
  /** Index of the interval (minute) since the load began. */
  index: number;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
}

export interface MemorySample {
  at: number;
  rssMb: number;
  heapUsedMb: number;
}

export interface SoakReport {
  durationSeconds: number;
  connections: number;
  requests: number;
  requestsPerSecond: number;
  errors: number;
  /** Requests and errors by operation. */
  operations: Record<string, { requests: number; errors: number }>;
  intervals: SoakInterval[];
  memory: { start: MemorySample; end: MemorySample; peakRssMb: number };
  writes: WriteVerification;
  /** A few error descriptions, to start looking from. */
  errorSamples: string[];
}

/** The value below which `share` of the sorted values lie (nearest rank). */
export function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil(share * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Requests, errors and latency percentiles per interval of `intervalMs` (a minute by default). */
export function summarizeIntervals(samples: readonly SoakSample[], intervalMs = 60_000): SoakInterval[] {
  const buckets: SoakSample[][] = [];
  for (const sample of samples) (buckets[Math.floor(sample.at / intervalMs)] ??= []).push(sample);
  return Array.from(buckets, (bucket = [], index) => {
    const latencies = bucket.map((sample) => sample.latencyMs).sort((a, b) => a - b);
    return {
      index,
      requests: bucket.length,
      errors: bucket.filter((sample) => !sample.ok).length,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
    };
  });
}

/** Requests and errors by operation name. */
export function countByOperation(samples: readonly SoakSample[]): SoakReport['operations'] {
  const counts: SoakReport['operations'] = {};
  for (const sample of samples) {
    const entry = (counts[sample.operation] ??= { requests: 0, errors: 0 });
    entry.requests++;
    if (!sample.ok) entry.errors++;
  }
  return counts;
}

/** The soak run as Markdown: totals, memory, writes, then p50/p99 per minute. */
export function formatSoakReport(report: SoakReport): string {
  const { memory, writes } = report;
  const mb = (value: number) => value.toFixed(0);
  const summary = markdownTable(
    ['measure', 'value'],
    [
      ['duration', `${report.durationSeconds.toFixed(0)} s, ${report.connections} connections`],
      ['requests', `${report.requests} (${report.requestsPerSecond.toFixed(0)} req/s)`],
      ['errors', String(report.errors)],
      [
        'server RSS start / end / peak',
        `${mb(memory.start.rssMb)} / ${mb(memory.end.rssMb)} / ${mb(memory.peakRssMb)} MB`,
      ],
      ['server heap used start / end', `${mb(memory.start.heapUsedMb)} / ${mb(memory.end.heapUsedMb)} MB`],
      [
        'writes acknowledged (create / update / delete)',
        `${writes.acknowledged.creates} / ${writes.acknowledged.updates} / ${writes.acknowledged.deletes}`,
      ],
      [
        'posts that must exist: found',
        `${writes.foundPresent} of ${writes.expectedPresent} (stale title: ${writes.staleTitle.length})`,
      ],
      ['posts that must be gone: absent', `${writes.foundAbsent} of ${writes.expectedAbsent}`],
    ],
  );
  const minutes = markdownTable(
    ['minute', 'requests', 'errors', 'p50 ms', 'p99 ms'],
    report.intervals.map((interval) => [
      String(interval.index + 1),
      String(interval.requests),
      String(interval.errors),
      interval.p50.toFixed(1),
      interval.p99.toFixed(1),
    ]),
  );
  const operations = markdownTable(
    ['operation', 'requests', 'errors'],
    Object.entries(report.operations).map(([name, { requests, errors }]) => [name, String(requests), String(errors)]),
  );
  return `${summary}\n\n${minutes}\n\n${operations}`;
}
