import type { RoundResult } from '../runner/load.js';
import type { Parity } from '../runner/parity.js';
import { type Comparison, type ComparisonId, COMPARISONS } from '../scenarios.js';

/** One side of a scenario over all its rounds. */
export interface SideSummary {
  /** Mean requests per second of the rounds. */
  rps: number;
  /** Mean of the rounds' latency percentiles, in milliseconds. */
  p50: number;
  p99: number;
  /** SQL statements the server ran per request it received. */
  sqlPerRequest: number;
  /**
   * Server CPU time per request, in microseconds: the cost of the code itself, much less sensitive
   * than requests/s to other load on the machine.
   */
  cpuPerRequest: number;
  peakRssMb: number;
  /** V8 heap used after a full collection, once started and after the rounds (scenario runs). */
  heapMb?: HeapSamples;
  errors: number;
  rounds: RoundResult[];
}

export interface HeapSamples {
  started: number;
  loaded: number;
}

export interface ScenarioResult {
  id: string;
  title: string;
  /** What the two sides are: our module against the hand-written controller, or a conditional GET. */
  comparison: ComparisonId;
  /** What each side served and was sent (`COMPARISONS`), spelled out in the results. */
  sides: Comparison['sides'];
  ours: SideSummary;
  baseline: SideSummary;
  /** Median over the rounds of ours.rps / baseline.rps, each round's pair measured back to back. */
  ratio: number;
  /** The lowest and highest round ratio: how much the machine moved during the scenario. */
  ratioRange: [number, number];
  /** Median over the rounds of ours' CPU µs per request / the baseline's, paired like `ratio`. */
  cpuRatio: number;
  /**
   * The spread of the paired ratios: their interquartile range (first and third quartiles), which
   * one disturbed round does not widen as it does the range. A difference smaller than it is noise.
   */
  spread: { ratio: [number, number]; cpuRatio: [number, number] };
  parity: Parity;
}

export interface ScalingRow {
  rows: number;
  /** Each side's peak RSS so far: its server serves every size in turn. */
  ours: Omit<SideSummary, 'rounds'>;
  baseline: Omit<SideSummary, 'rounds'>;
  /** Ours under `Prefer: count=none|estimated` and on a deep cursor page, by variant. */
  variants: Record<string, Omit<SideSummary, 'rounds' | 'peakRssMb'>>;
}

export function summarizeSide(rounds: RoundResult[], peakRssBytes: number, heapMb?: HeapSamples): SideSummary {
  const mean = (pick: (round: RoundResult) => number) =>
    rounds.reduce((sum, round) => sum + pick(round), 0) / rounds.length;
  const requests = rounds.reduce((sum, round) => sum + round.serverRequests, 0);
  const queries = rounds.reduce((sum, round) => sum + round.queries, 0);
  const cpu = rounds.reduce((sum, round) => sum + round.cpuMicros, 0);
  return {
    rps: mean((round) => round.rps),
    p50: mean((round) => round.p50),
    p99: mean((round) => round.p99),
    sqlPerRequest: requests > 0 ? queries / requests : 0,
    cpuPerRequest: requests > 0 ? cpu / requests : 0,
    peakRssMb: peakRssBytes / 2 ** 20,
    ...(heapMb ? { heapMb } : {}),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    rounds,
  };
}

/**
 * The throughput ratio ours / baseline of a scenario, and the same for server CPU per request.
 * Round i of each side ran back to back, so each pair saw nearly the same machine; the median of
 * the pair ratios ignores a round that a burst of other load disturbed, which a ratio of means does not.
 */
export function pairedRatio(rounds: {
  ours: readonly RoundResult[];
  baseline: readonly RoundResult[];
}): Pick<ScenarioResult, 'ratio' | 'ratioRange' | 'cpuRatio' | 'spread'> {
  const throughput = pairRatios(rounds, (round) => round.rps);
  if (!throughput.length)
    return { ratio: 0, ratioRange: [0, 0], cpuRatio: 0, spread: { ratio: [0, 0], cpuRatio: [0, 0] } };
  const cpu = pairRatios(rounds, cpuPerRequest);
  return {
    ratio: median(throughput),
    ratioRange: [throughput[0]!, throughput.at(-1)!],
    cpuRatio: median(cpu),
    spread: { ratio: quartiles(throughput), cpuRatio: quartiles(cpu) },
  };
}

/** The first and third quartiles of ascending values (linear interpolation between ranks). */
export function quartiles(sorted: readonly number[]): [number, number] {
  const at = (share: number) => {
    const rank = share * (sorted.length - 1);
    const low = Math.floor(rank);
    return sorted[low]! + (sorted[Math.ceil(rank)]! - sorted[low]!) * (rank - low);
  };
  return [at(0.25), at(0.75)];
}

/** Server CPU µs per request of one round. */
export const cpuPerRequest = (round: RoundResult) =>
  round.serverRequests > 0 ? round.cpuMicros / round.serverRequests : 0;

/** ours / baseline of each round pair, ascending; a pair whose baseline measured 0 counts as 0. */
export function pairRatios(
  rounds: { ours: readonly RoundResult[]; baseline: readonly RoundResult[] },
  pick: (round: RoundResult) => number,
): number[] {
  return rounds.ours
    .map((round, index) => {
      const baseline = rounds.baseline[index];
      return baseline && pick(baseline) > 0 ? pick(round) / pick(baseline) : 0;
    })
    .sort((a, b) => a - b);
}

function median(sorted: readonly number[]): number {
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
}

const fixed = (value: number, digits: number) => value.toFixed(digits);
const pair = (a: string, b: string) => `${a} / ${b}`;
const withSpread = (median: number, [low, high]: [number, number]) =>
  `${fixed(median, 2)} (${fixed(low, 2)}-${fixed(high, 2)})`;

const PARITY_CELLS: Record<Parity['verdict'], string> = {
  identical: 'yes',
  'same-shape': 'shape',
  'not-modified': '304',
  different: 'NO',
};

/**
 * The scenario table (Markdown), one row per scenario, ours / baseline in paired columns named
 * after the scenarios' comparison (`ours` and `baseline`, or `304` and `200`).
 */
export function formatScenarioTable(
  results: readonly ScenarioResult[],
  { columns } = COMPARISONS['hand-written'],
): string {
  const header = [
    'Scenario',
    `${columns.ours} req/s`,
    `${columns.baseline} req/s`,
    'ratio (IQR)',
    'round ratios',
    `p50 ms (${columns.pair})`,
    `p99 ms (${columns.pair})`,
    `CPU µs/req (${columns.pair})`,
    'CPU ratio (IQR)',
    `SQL/req (${columns.pair})`,
    `peak RSS MB (${columns.pair})`,
    'errors',
    'same body',
  ];
  const rows = results.map((r) => [
    r.title,
    fixed(r.ours.rps, 0),
    fixed(r.baseline.rps, 0),
    withSpread(r.ratio, r.spread.ratio),
    r.ratioRange.map((value) => fixed(value, 2)).join('-'),
    pair(fixed(r.ours.p50, 1), fixed(r.baseline.p50, 1)),
    pair(fixed(r.ours.p99, 1), fixed(r.baseline.p99, 1)),
    pair(fixed(r.ours.cpuPerRequest, 0), fixed(r.baseline.cpuPerRequest, 0)),
    withSpread(r.cpuRatio, r.spread.cpuRatio),
    pair(fixed(r.ours.sqlPerRequest, 2), fixed(r.baseline.sqlPerRequest, 2)),
    pair(fixed(r.ours.peakRssMb, 0), fixed(r.baseline.peakRssMb, 0)),
    String(r.ours.errors + r.baseline.errors),
    PARITY_CELLS[r.parity.verdict],
  ]);
  return markdownTable(header, rows);
}

/**
 * What each server of a scenario holds: its peak RSS, and its heap after a full collection once
 * started (the code and structures it keeps) and after the rounds (what load left behind).
 */
export function formatMemoryTable(
  results: readonly ScenarioResult[],
  { columns } = COMPARISONS['hand-written'],
): string {
  const heap = (r: ScenarioResult, at: keyof HeapSamples) =>
    pair(fixed(r.ours.heapMb?.[at] ?? NaN, 1), fixed(r.baseline.heapMb?.[at] ?? NaN, 1));
  return markdownTable(
    [
      'Scenario',
      `peak RSS MB (${columns.pair})`,
      `heap MB after start-up (${columns.pair})`,
      `heap MB after load (${columns.pair})`,
    ],
    results.map((r) => [
      r.title,
      pair(fixed(r.ours.peakRssMb, 0), fixed(r.baseline.peakRssMb, 0)),
      heap(r, 'started'),
      heap(r, 'loaded'),
    ]),
  );
}

/** The scaling table: list latency of `page[limit]=20` by table size. */
export function formatScalingTable(rows: readonly ScalingRow[]): string {
  const header = [
    'posts',
    'ours req/s',
    'baseline req/s',
    'p50 ms (ours / base)',
    'p99 ms (ours / base)',
    'CPU µs/req (ours / base)',
    'SQL/req (ours / base)',
    'peak RSS MB (ours / base)',
  ];
  return markdownTable(
    header,
    rows.map((row) => [
      String(row.rows),
      fixed(row.ours.rps, 0),
      fixed(row.baseline.rps, 0),
      pair(fixed(row.ours.p50, 1), fixed(row.baseline.p50, 1)),
      pair(fixed(row.ours.p99, 1), fixed(row.baseline.p99, 1)),
      pair(fixed(row.ours.cpuPerRequest, 0), fixed(row.baseline.cpuPerRequest, 0)),
      pair(fixed(row.ours.sqlPerRequest, 2), fixed(row.baseline.sqlPerRequest, 2)),
      pair(fixed(row.ours.peakRssMb, 0), fixed(row.baseline.peakRssMb, 0)),
    ]),
  );
}

/** p50 (p99) ms and SQL per request of each variant, by table size: flat rows are the point. */
export function formatScalingVariantsTable(rows: readonly ScalingRow[]): string {
  const variants = [...new Set(rows.flatMap((row) => Object.keys(row.variants)))];
  return markdownTable(
    ['posts', 'exact: p50 (p99) ms, SQL/req', ...variants.map((variant) => `${variant}: p50 (p99) ms, SQL/req`)],
    rows.map((row) => [
      String(row.rows),
      ...[row.ours, ...variants.map((variant) => row.variants[variant])].map((side) =>
        side ? `${fixed(side.p50, 1)} (${fixed(side.p99, 1)}), ${fixed(side.sqlPerRequest, 2)}` : '-',
      ),
    ]),
  );
}

export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (column === 0 ? `${'-'.repeat(width + 1)}-` : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
