import { parseArgs } from 'node:util';

import { BASELINE_KINDS, type BaselineKind, type BenchPlatform } from './server/server-protocol.js';

export type BenchDatabase = 'sqlite' | 'postgres' | 'mariadb';

export interface BenchOptions {
  /** Seconds of load per round. */
  duration: number;
  /** Concurrent HTTP connections autocannon keeps open. */
  connections: number;
  /** A/B rounds per side and scenario; rounds alternate ours, baseline, ours, baseline... */
  rounds: number;
  db: BenchDatabase;
  /** The HTTP platform both servers (ours and the baseline) run on. */
  platform: BenchPlatform;
  /** The hand-written baselines each scenario is compared with, in this order (`--baseline`). */
  baselines: BaselineKind[];
  /** Substring filter on scenario ids (`rest-`, `rpc-find`); empty runs every scenario. */
  scenario: string;
  /** Post counts of the scaling table; empty skips it. */
  rows: number[];
  /** Seconds of load per round at each scaling size (two alternating rounds per side). */
  scalingDuration: number;
  /** Admin URL of the PostgreSQL server where a throw-away database is created. */
  postgresUrl: string;
  /** Admin URL of the MariaDB/MySQL server where a throw-away database is created. */
  mariadbUrl: string;
  /** Directory for the JSON results. */
  out: string;
  /** Write a V8 CPU profile of each server process into this directory. */
  cpuProf?: string;
  /** Pin the runner and the servers to separate cores (`taskset`, Linux); on unless `--no-pin`. */
  pin: boolean;
  /** Run the soak test (mixed read/write load on our server, writes verified) instead of the A/B scenarios. */
  soak: boolean;
  /** Seconds of measured soak load, after its warm-up. */
  soakDuration: number;
  /** Measure live queries' fan-out (one write to `subscribers` streams) instead of the A/B scenarios. */
  liveFanOut: boolean;
  /** Live queries open during the fan-out measurement, each its own caller in the policies one. */
  subscribers: number;
  /** The fan-out measurement through policies alone (issue 46's), without the shared and distinct ones. */
  policiesOnly: boolean;
  /** Both servers' Prisma model operations answered from memory after their first call: the layers' own cost, without the database. */
  noDb: boolean;
  /** Our server runs with an OpenTelemetry SDK registered (spans and metrics recorded, then dropped). */
  tracing: boolean;
  /** Our server runs with live queries on, and no subscription open: what the option costs the other requests. */
  live: boolean;
  /** Our module reads once per GET, identical GETs that arrive together too (`coalesceReads: false`). */
  noCoalesce: boolean;
}

export const DEFAULT_POSTGRES_URL = 'postgresql://postgres@127.0.0.1:5432/test';
export const DEFAULT_MARIADB_URL = 'mysql://root@127.0.0.1:3306/test';

/** --db names: Prisma's provider names are accepted too. */
const DATABASE_NAMES: Record<string, BenchDatabase> = {
  sqlite: 'sqlite',
  postgres: 'postgres',
  postgresql: 'postgres',
  mariadb: 'mariadb',
  mysql: 'mariadb',
};

const USAGE = `Usage: npm run bench -- [options]
  --duration <s>        seconds of load per round (default 1)
  --connections <n>     concurrent connections (default 10)
  --rounds <n>          rounds per side, alternating ABBA (default 12; keep it even)
  --baseline careful|nest|both  the hand-written controller(s) each scenario is compared with: the
                        fastest careful one, the one a Nest team writes (ValidationPipe, DTOs), or
                        both in turn (default both)
  --db sqlite|postgres|mariadb  database (default sqlite; mysql names MariaDB too)
  --platform express|fastify  Nest's HTTP adapter for ours and the baseline alike (default express)
  --scenario <text>     run only scenarios whose id contains <text>
  --rows <n,n,...>      post counts of the scaling table (default 1000,10000,100000; 0 skips it;
                        add 1000000 for 1M rows, which takes minutes to seed)
  --scaling-duration <s> seconds per round at each scaling size (default 2)
  --postgres-url <url>  PostgreSQL admin URL (default $BENCH_POSTGRES_URL or ${DEFAULT_POSTGRES_URL})
  --mariadb-url <url>   MariaDB/MySQL admin URL (default $BENCH_MARIADB_URL or ${DEFAULT_MARIADB_URL})
  --out <dir>           results directory (default bench/results)
  --cpu-prof <dir>      write a CPU profile of every server process into <dir>
  --no-pin              let the OS place the runner and servers (default: runner on core 0, servers on core 1)
  --soak                mixed read/write load on both interfaces instead of the scenarios; writes verified afterwards
  --soak-duration <s>   seconds of measured soak load after a 15 s warm-up (default 180)
  --live-fan-out        live queries: one write to --subscribers streams (one shared query, then one query each,
                        then each its own caller through policies, one write changing 1% of the answers)
  --subscribers <n>     live queries open during --live-fan-out (default 10000)
  --policies-only       --live-fan-out measures only the subscribers each its own caller through policies
  --no-db               both servers answer each Prisma model operation with its first result, from memory:
                        what the module costs over the hand-written code without the database (no scaling table)
  --tracing             our server records its OpenTelemetry spans and metrics (an SDK that drops them):
                        what tracing costs; the baseline runs without
  --live                our server runs with live queries on and no subscription open: what the option
                        costs the other requests
  --no-coalesce         our server reads once per GET (coalesceReads: false): what one read costs when
                        no identical GETs arrive together`;

/** Reads the command line; throws a message with the usage on anything it does not understand. */
export function parseBenchOptions(argv: string[], env: Record<string, string | undefined> = {}): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      duration: { type: 'string', default: '1' },
      connections: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '12' },
      baseline: { type: 'string', default: 'both' },
      db: { type: 'string', default: 'sqlite' },
      platform: { type: 'string', default: 'express' },
      scenario: { type: 'string', default: '' },
      rows: { type: 'string', default: '1000,10000,100000' },
      'scaling-duration': { type: 'string', default: '2' },
      'postgres-url': { type: 'string', default: env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL },
      'mariadb-url': { type: 'string', default: env.BENCH_MARIADB_URL ?? DEFAULT_MARIADB_URL },
      out: { type: 'string', default: 'bench/results' },
      'cpu-prof': { type: 'string' },
      'no-pin': { type: 'boolean', default: false },
      soak: { type: 'boolean', default: false },
      'soak-duration': { type: 'string', default: '180' },
      'live-fan-out': { type: 'boolean', default: false },
      subscribers: { type: 'string', default: '10000' },
      'policies-only': { type: 'boolean', default: false },
      'no-db': { type: 'boolean', default: false },
      tracing: { type: 'boolean', default: false },
      live: { type: 'boolean', default: false },
      'no-coalesce': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) throw new Error(USAGE);
  const db = Object.hasOwn(DATABASE_NAMES, values.db) ? DATABASE_NAMES[values.db]! : undefined;
  if (!db) throw new Error(`--db must be sqlite, postgres or mariadb\n${USAGE}`);
  const platform = values.platform;
  if (platform !== 'express' && platform !== 'fastify')
    throw new Error(`--platform must be express or fastify\n${USAGE}`);
  const baselines =
    values.baseline === 'both' ? [...BASELINE_KINDS] : BASELINE_KINDS.filter((k) => k === values.baseline);
  if (baselines.length === 0) throw new Error(`--baseline must be careful, nest or both\n${USAGE}`);
  if (values['no-db'] && values.soak)
    throw new Error(
      `--no-db measures the servers without the database; the soak test checks what the database holds\n${USAGE}`,
    );
  return {
    duration: positiveNumber('duration', values.duration),
    connections: positiveInteger('connections', values.connections),
    rounds: positiveInteger('rounds', values.rounds),
    db,
    platform,
    baselines,
    scenario: values.scenario,
    rows: parseRows(values.rows),
    scalingDuration: positiveNumber('scaling-duration', values['scaling-duration']),
    postgresUrl: values['postgres-url'],
    mariadbUrl: values['mariadb-url'],
    out: values.out,
    cpuProf: values['cpu-prof'],
    pin: !values['no-pin'],
    soak: values.soak,
    soakDuration: positiveNumber('soak-duration', values['soak-duration']),
    liveFanOut: values['live-fan-out'],
    subscribers: positiveInteger('subscribers', values.subscribers),
    policiesOnly: values['policies-only'],
    noDb: values['no-db'],
    tracing: values.tracing,
    live: values.live,
    noCoalesce: values['no-coalesce'],
  };
}

function parseRows(text: string): number[] {
  if (text.trim() === '0' || text.trim() === '') return [];
  const rows = text.split(',').map((part) => positiveInteger('rows', part.trim()));
  return [...new Set(rows)].sort((a, b) => a - b);
}

function positiveNumber(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} must be a positive number, got "${text}"\n${USAGE}`);
  return value;
}

function positiveInteger(name: string, text: string): number {
  const value = positiveNumber(name, text);
  if (!Number.isInteger(value)) throw new Error(`--${name} must be a positive integer, got "${text}"\n${USAGE}`);
  return value;
}
