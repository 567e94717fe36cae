import type { ReplicaCounts } from '../../lib/replicas/replica-set.js';
/** Messages between the runner and a server process over the `fork` IPC channel. */
export type Side = 'ours' | 'baseline';

/**
 * Which hand-written controller a `baseline` server mounts: the fastest careful one (no
 * validation), or the one a Nest team writes (DTOs under a global ValidationPipe, ParseIntPipe,
 * an exception filter mapping Prisma's errors).
 */
export type BaselineKind = 'careful' | 'nest';
export const BASELINE_KINDS: readonly BaselineKind[] = ['careful', 'nest'];

/** The HTTP platform both servers run on. */
export type BenchPlatform = 'express' | 'fastify';

export interface ServerArgs {
  side: Side;
  /** The scenario whose baseline controller to mount; `ours` serves everything, with the scenario's `oursOptions`. */
  scenario: string;
  databaseUrl: string;
  port: number;
  /** Express unless given. */
  platform?: BenchPlatform;
  /** Prisma's model operations answered from memory after their first call (`--no-db`, see `replayingClient`). */
  replay?: boolean;
  /** An OpenTelemetry SDK recording (then dropping) the module's spans and metrics (`--tracing`, ours only). */
  tracing?: boolean;
  /** Live queries turned on, no subscription open (`--live`, ours only). */
  live?: boolean;
  /** Our module reads once per GET, identical GETs that arrive together too (`--no-coalesce`). */
  uncoalesced?: boolean;
  /** The controller a `baseline` server mounts; `careful` unless given. */
  baseline?: BaselineKind;
}

export type RunnerMessage = { type: 'reset' } | { type: 'stats' } | { type: 'memory' } | { type: 'stop' };

export interface ServerStats {
  /** HTTP requests received since the last reset. */
  requests: number;
  /** SQL statements Prisma ran since the last reset. */
  queries: number;
  /** CPU time (user + system) the process used since the last reset, in microseconds. */
  cpuMicros: number;
  /** Peak resident set size of the process so far, in bytes. */
  peakRss: number;
  /** With replicas: where its reads went since it started. */
  replicas?: ReplicaCounts;
}

/** Memory after a full garbage collection (when the process runs with `--expose-gc`), in bytes. */
export interface ServerMemory {
  rss: number;
  heapUsed: number;
}

export type ServerMessage =
  | { type: 'ready' }
  | { type: 'stats'; stats: ServerStats }
  | { type: 'memory'; memory: ServerMemory }
  | { type: 'reset' };

export function encodeServerArgs(args: ServerArgs): string[] {
  return [
    args.side,
    args.scenario,
    args.databaseUrl,
    String(args.port),
    args.platform ?? 'express',
    args.replay ? 'replay' : 'live',
    args.tracing ? 'traced' : 'untraced',
    args.live ? 'live-queries' : 'no-live-queries',
    args.uncoalesced ? 'uncoalesced' : 'coalesced',
    args.baseline ?? 'careful',
  ];
}

export function decodeServerArgs(argv: string[]): ServerArgs {
  const [side, scenario, databaseUrl, port, platform, database, tracing, live, coalesce, baseline] = argv;
  if (
    (side !== 'ours' && side !== 'baseline') ||
    !scenario ||
    !databaseUrl ||
    !port ||
    (platform !== 'express' && platform !== 'fastify') ||
    (database !== 'live' && database !== 'replay') ||
    (tracing !== 'traced' && tracing !== 'untraced') ||
    (live !== 'live-queries' && live !== 'no-live-queries') ||
    (coalesce !== 'coalesced' && coalesce !== 'uncoalesced') ||
    (baseline !== 'careful' && baseline !== 'nest')
  ) {
    throw new Error(
      'usage: bench-server <ours|baseline> <scenario> <database-url> <port> <express|fastify> <live|replay> <traced|untraced> <live-queries|no-live-queries> <coalesced|uncoalesced> <careful|nest>',
    );
  }
  return {
    side,
    scenario,
    databaseUrl,
    port: Number(port),
    platform,
    replay: database === 'replay',
    tracing: tracing === 'traced',
    live: live === 'live-queries',
    uncoalesced: coalesce === 'uncoalesced',
    baseline,
  };
}

/** The REST endpoint both servers of a scenario build their links from. */
export function endpointOf(port: number): string {
  return `http://127.0.0.1:${port}/api/rest`;
}
