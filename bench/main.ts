import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { TestDatabase } from '../test/support/test-database.js';
import { type BenchOptions, parseBenchOptions } from './bench-options.js';
import { createBenchDatabase } from './dataset/bench-database.js';
import { HISTORY_SIZE } from './dataset/history-span.js';
import { addPosts, DEFAULT_DATASET, seedDataset } from './dataset/seed-dataset.js';
import { seedHistory } from './dataset/seed-history.js';
import { runLiveFanOut } from './live/run-live-fan-out.js';
import { measureMixedLoad, type MixedLoadResult } from './replicas/mixed-load.js';
import { addReplicas, createPrimaryDatabase, type ReplicatedDatabase } from './replicas/replicated-database.js';
import {
  formatMemoryTable,
  formatScalingTable,
  formatScalingVariantsTable,
  formatScenarioTable,
  pairedRatio,
  type ScalingRow,
  type ScenarioResult,
  summarizeSide,
} from './report/bench-report.js';
import { writeResultCharts } from './report/charts.js';
import { formatSerializerCostTable, measureSerializerCost, type SerializerCostRow } from './report/serializer-cost.js';
import { formatValidatorCostTable, measureValidatorCost } from './report/validator-cost.js';
import { canPinCpus, pinProcess, RUNNER_CPU, SERVER_CPU } from './runner/cpu-affinity.js';
import type { LoadSettings } from './runner/load.js';
import { alternateRounds, assertStatus, measureRound, sameRequest, warmUp } from './runner/measure.js';
import { checkParity, prepareConditional } from './runner/parity.js';
import { SCALING_VARIANTS, scalingVariantScenario } from './runner/scaling-variants.js';
import { type ServerPlacement, ServerProcess } from './runner/server-process.js';
import {
  baselineRequestOf,
  type ComparisonId,
  comparisonOf,
  COMPARISONS,
  ON_REPLICAS,
  SCALING_SCENARIO_ID,
  type Scenario,
  SCENARIOS,
  selectScenarios,
} from './scenarios.js';
import type { BaselineKind } from './server/server-protocol.js';
import { runSoak } from './soak/run-soak.js';

// `npm run bench`: seeds a database, then for every scenario starts our module and the scenario's
// hand-written baseline as two child processes, checks they answer the same, and drives
// alternating rounds of autocannon load at each (a conditional GET: our module on both sides, the
// 304 against the full answer). Prints the tables and writes them as JSON, with their charts as SVG
// next to it.

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

async function main(): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseBenchOptions(process.argv.slice(2), process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  if (options.liveFanOut) {
    await runLiveFanOut(options);
    return;
  }
  if (options.soak) {
    const report = await runSoak(options);
    if (report.errors > 0 || !report.writes.ok) process.exitCode = 1;
    return;
  }
  const scenarios = selectScenarios(options.scenario);
  const pinned = options.pin && canPinCpus();
  if (pinned) pinProcess(process.pid, RUNNER_CPU);
  const placement: ServerPlacement = { cpuProfDir: options.cpuProf, cpu: pinned ? SERVER_CPU : undefined };
  const startedAt = new Date();
  const loadBefore = os.loadavg();

  log(
    `${options.db}: seeding ${DEFAULT_DATASET.users} users, ${DEFAULT_DATASET.posts} posts, ` +
      `${DEFAULT_DATASET.posts * DEFAULT_DATASET.commentsPerPost} comments, ${DEFAULT_DATASET.tags} tags`,
  );
  // Scenarios of the `replicas` comparison run on a primary and two replicas of the bench's own.
  const replicated = scenarios.some((s) => ON_REPLICAS.has(comparisonOf(s)));
  if (replicated && options.db !== 'postgres') throw new Error('The replicas scenarios run on --db postgres only');
  const onPrimary = replicated ? await createPrimaryDatabase(options) : undefined;
  const handle = onPrimary?.handle ?? (await createBenchDatabase(options));
  const results: ScenarioResult[] = [];
  let serializerCost: SerializerCostRow[];
  let servers: ReplicatedDatabase | undefined;
  let mixedLoad: MixedLoadResult | undefined;
  try {
    const seeded = Date.now();
    await seedDataset(handle, DEFAULT_DATASET);
    log(`seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    if (onPrimary) {
      servers = await addReplicas(onPrimary.primary, handle.url);
      process.env.BENCH_REPLICA_URLS = servers.replicaUrls;
      log('started two streaming replicas');
    }
    if (scenarios.some((s) => comparisonOf(s) === 'as-of')) {
      const started = Date.now();
      await seedHistory(handle);
      log(`seeded ${HISTORY_SIZE} history entries in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    handle.queries.length = 0;
    serializerCost = await measureSerializerCost(handWritten(scenarios), handle.modelMeta, handle.prisma);
    if (options.cpuProf) await mkdir(options.cpuProf, { recursive: true });
    for (const [scenario, baseline] of scenarios.flatMap((s) =>
      baselinesOf(s, options.baselines).map((b) => [s, b] as const),
    )) {
      const result = await runScenario(scenario, baseline, handle.url, options, placement);
      results.push(result);
      const { columns } = COMPARISONS[result.comparison];
      log(
        `${scenario.id}: ${columns.ours} ${result.ours.rps.toFixed(0)} req/s, ${columns.baseline} ${result.baseline.rps.toFixed(0)} req/s, ` +
          `ratio ${result.ratio.toFixed(2)}, CPU ratio ${result.cpuRatio.toFixed(2)} (rounds ${result.ratioRange.map((r) => r.toFixed(2)).join('-')})${result.parity.detail ? ` (bodies differ: ${result.parity.detail})` : ''}`,
      );
    }
    const replicaScenario = scenarios.find((s) => comparisonOf(s) === 'replicas');
    if (replicaScenario) {
      mixedLoad = await measureMixedLoad(handle.url, replicaScenario.id, options);
      log(
        `mixed load: ${mixedLoad.reads} reads, ${mixedLoad.writes} writes by ${mixedLoad.callers} callers; ` +
          `replicas served ${(mixedLoad.replicaShare * 100).toFixed(1)}% (${(mixedLoad.waitedShare * 100).toFixed(1)}% after waiting), the primary ` +
          `${(mixedLoad.primaryForTokenShare * 100).toFixed(1)}% for a token, ${(mixedLoad.primaryForLagShare * 100).toFixed(1)}% for lag`,
      );
    }
  } finally {
    await handle.drop();
    await servers?.remove();
    if (!servers) await onPrimary?.primary.remove();
  }
  const validatorCost = measureValidatorCost(
    handWritten(scenarios),
    handle.modelMeta,
    new Map(results.map((r) => [r.id, r.ours.cpuPerRequest])),
  );
  const scaling =
    options.rows.length > 0 && !options.noDb && SCALING_SCENARIO_ID.includes(options.scenario)
      ? await runScaling(options, placement)
      : [];

  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      platform: `${os.platform()} ${os.release()}`,
      node: process.version,
      loadAverageBefore: loadBefore,
      loadAverageAfter: os.loadavg(),
      pinned: pinned ? { runnerCpu: RUNNER_CPU, serverCpu: SERVER_CPU } : false,
    },
    options,
    dataset: DEFAULT_DATASET,
    scenarios: results,
    validatorCost,
    serializerCost,
    scaling,
    ...(mixedLoad ? { mixedLoad } : {}),
  };
  const file = path.join(
    options.out,
    `${options.db}-${options.platform}${options.noDb ? '-no-db' : ''}${options.tracing ? '-tracing' : ''}${options.live ? '-live' : ''}${options.noCoalesce ? '-uncoalesced' : ''}-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`,
  );
  await mkdir(options.out, { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  const charts = await writeResultCharts(file, report);

  const database = options.noDb ? `no database (Prisma answers from memory, recorded on ${options.db})` : options.db;
  console.log(
    `\n## ${database} on ${options.platform}${options.tracing ? ', ours traced' : ''}${options.live ? ', ours with live queries on' : ''}${options.noCoalesce ? ', ours reading once per GET' : ''}: ${options.duration} s x ${options.rounds} rounds per side, ${options.connections} connections`,
  );
  console.log(
    `${report.machine.cores} x ${report.machine.cpu}, ${report.machine.memoryGb} GB, Node ${process.version}, ` +
      `load average before/after ${loadBefore[0]!.toFixed(2)} / ${report.machine.loadAverageAfter[0]!.toFixed(2)}, ` +
      `${pinned ? `runner on core ${RUNNER_CPU}, servers on core ${SERVER_CPU}` : 'not pinned to cores'}\n`,
  );
  for (const [comparison, rows] of byComparison(results)) {
    const { chart, columns, sides } = COMPARISONS[comparison];
    if (comparison !== 'hand-written')
      console.log(`\n${chart.title} (${columns.ours}: ${sides.ours}; ${columns.baseline}: ${sides.baseline}):\n`);
    console.log(formatScenarioTable(rows, COMPARISONS[comparison]));
    console.log(`\nMemory:\n\n${formatMemoryTable(rows, COMPARISONS[comparison])}`);
  }
  if (serializerCost.length > 0)
    console.log(`\nRPC response serialization, in-process:\n\n${formatSerializerCostTable(serializerCost)}`);
  if (validatorCost.length > 0)
    console.log(`\nRPC argument validation, in-process:\n\n${formatValidatorCostTable(validatorCost)}`);
  if (scaling.length > 0) console.log(`\nREST list page[limit]=20 by table size:\n\n${formatScalingTable(scaling)}`);
  if (scaling.length > 0)
    console.log(
      `\nREST list of 20 by table size and count strategy (ours; cursor: the page after the middle row):\n\n${formatScalingVariantsTable(scaling)}`,
    );
  for (const result of results.filter((r) => r.parity.verdict === 'different')) {
    console.log(`\nWARNING ${result.id}: ours and baseline answer differently: ${result.parity.detail}`);
  }
  console.log(`\nResults: ${file}${charts.map((chart) => `\nChart: ${chart}`).join('')}`);
}

async function runScenario(
  scenario: Scenario,
  baselineKind: BaselineKind,
  databaseUrl: string,
  options: BenchOptions,
  placement: ServerPlacement,
): Promise<ScenarioResult> {
  const comparison = comparisonOf(scenario, baselineKind);
  const conditional = comparison === 'conditional';
  const server = {
    scenario: scenario.id,
    databaseUrl,
    platform: options.platform,
    replay: options.noDb,
    uncoalesced: options.noCoalesce,
    baseline: baselineKind,
  };
  // `--expose-gc`: the heap is sampled after a full collection, once started and after the rounds.
  const measured = { ...placement, exposeGc: true };
  const [ours, baseline] = await Promise.all([
    ServerProcess.start({ ...server, side: 'ours', tracing: options.tracing, live: options.live }, measured),
    // A conditional GET runs our module on both sides, so both are traced and coalesced alike.
    ServerProcess.start({ ...server, side: 'baseline', tracing: conditional && options.tracing }, measured),
  ]);
  try {
    const started = { ours: await heapMb(ours), baseline: await heapMb(baseline) };
    const { parity, requests } = conditional
      ? await prepareConditional(scenario, ours, baseline)
      : {
          parity: await checkParity(scenario, ours, baseline),
          requests: { ours: scenario, baseline: baselineRequestOf(scenario) },
        };
    const settings = { duration: options.duration, connections: options.connections, rounds: options.rounds };
    await warmUp([ours], requests.ours, settings);
    await warmUp([baseline], requests.baseline, settings);
    const rounds = await alternateRounds(ours, baseline, requests, settings);
    if (conditional) assertStatus(rounds.ours, requests.ours, `${scenario.id} with If-None-Match`);
    const summary = async (side: ServerProcess) => {
      const { peakRss } = await side.stats();
      return summarizeSide(rounds[side.side], peakRss, { started: started[side.side], loaded: await heapMb(side) });
    };
    const oursSummary = await summary(ours);
    const baselineSummary = await summary(baseline);
    return {
      id: scenario.id,
      title: scenario.title,
      comparison,
      sides: COMPARISONS[comparison].sides,
      ours: oursSummary,
      baseline: baselineSummary,
      ...pairedRatio(rounds),
      parity,
    };
  } finally {
    await Promise.all([ours.stop(), baseline.stop()]);
  }
}

/** The server's V8 heap used after a full collection, in MB. */
const heapMb = async (server: ServerProcess): Promise<number> => (await server.memory()).heapUsed / 2 ** 20;

/** The scenarios measured against a hand-written controller: the in-process tables compare against it too. */
const handWritten = (scenarios: readonly Scenario[]) => scenarios.filter((s) => comparisonOf(s) === 'hand-written');

/** The baselines a scenario is run against: the chosen ones, but once when the baseline is our module (a conditional GET's, history's). */
const baselinesOf = (scenario: Scenario, chosen: readonly BaselineKind[]): readonly BaselineKind[] =>
  COMPARISONS[comparisonOf(scenario)].baselineServes === 'controller' ? chosen : ['careful'];

/** The results by comparison, hand-written first (each comparison has its own table). */
function byComparison(results: readonly ScenarioResult[]): [ComparisonId, ScenarioResult[]][] {
  return (Object.keys(COMPARISONS) as ComparisonId[])
    .map((comparison): [ComparisonId, ScenarioResult[]] => [
      comparison,
      results.filter((r) => r.comparison === comparison),
    ])
    .filter(([, rows]) => rows.length > 0);
}

/** The list scenario on one growing table (two alternating rounds per size): latency should stay flat. */
async function runScaling(options: BenchOptions, placement: ServerPlacement): Promise<ScalingRow[]> {
  const scenario = SCENARIOS.find((s) => s.id === SCALING_SCENARIO_ID)!;
  const handle = await createBenchDatabase(options);
  const rows: ScalingRow[] = [];
  try {
    const users = DEFAULT_DATASET.users;
    await seedDataset(handle, { users, posts: 0, commentsPerPost: 0, tags: 0 });
    const [ours, baseline] = await Promise.all([
      ServerProcess.start(
        {
          side: 'ours',
          scenario: scenario.id,
          databaseUrl: handle.url,
          platform: options.platform,
          tracing: options.tracing,
          live: options.live,
          uncoalesced: options.noCoalesce,
        },
        { cpu: placement.cpu },
      ),
      ServerProcess.start(
        { side: 'baseline', scenario: scenario.id, databaseUrl: handle.url, platform: options.platform },
        { cpu: placement.cpu },
      ),
    ]);
    try {
      let posts = 0;
      for (const size of options.rows) {
        await addPosts(handle.prisma, posts, size, users);
        posts = size;
        const settings = { duration: options.scalingDuration, connections: options.connections, rounds: 2 };
        await warmUp([ours, baseline], scenario, settings);
        const rounds = await alternateRounds(ours, baseline, sameRequest(scenario), settings);
        const { rounds: _o, ...oursSide } = summarizeSide(rounds.ours, (await ours.stats()).peakRss);
        const { rounds: _b, ...baselineSide } = summarizeSide(rounds.baseline, (await baseline.stats()).peakRss);
        const variants = await measureScalingVariants(handle, ours, scenario, size, settings);
        rows.push({ rows: size, ours: oursSide, baseline: baselineSide, variants });
        log(
          `scaling ${size} posts: ours p50 ${oursSide.p50.toFixed(1)} ms, baseline p50 ${baselineSide.p50.toFixed(1)} ms, ` +
            Object.entries(variants)
              .map(([variant, side]) => `${variant} p50 ${side.p50.toFixed(1)} ms`)
              .join(', '),
        );
      }
    } finally {
      await Promise.all([ours.stop(), baseline.stop()]);
    }
  } finally {
    await handle.drop();
  }
  return rows;
}

/** Ours alone on each scaling variant (count none/estimated, a deep cursor page): two rounds after a warm-up. */
async function measureScalingVariants(
  handle: TestDatabase,
  ours: ServerProcess,
  list: Scenario,
  posts: number,
  settings: LoadSettings & { rounds: number },
) {
  // Production tables are analyzed by autovacuum; a freshly seeded one is not yet.
  if (handle.provider === 'postgresql') await handle.prisma.$executeRawUnsafe('ANALYZE "Post"');
  const variants: ScalingRow['variants'] = {};
  for (const variant of SCALING_VARIANTS) {
    const scenario = scalingVariantScenario(list, variant, handle.modelMeta, posts);
    await warmUp([ours], scenario, settings);
    const rounds = [];
    for (let round = 0; round < settings.rounds; round++) rounds.push(await measureRound(ours, scenario, settings));
    const { rounds: _r, peakRssMb: _p, ...side } = summarizeSide(rounds, 0);
    variants[variant] = side;
  }
  return variants;
}

await main();
