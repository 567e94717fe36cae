import type { Scenario } from '../scenarios.js';
import type { Side } from '../server/server-protocol.js';
import { type LoadSettings, type RoundResult, runLoad } from './load.js';
import type { ServerProcess } from './server-process.js';

/** The request each side is measured with: the scenario's own on both, but for a conditional GET. */
export type SideRequests = Readonly<Record<Side, Scenario>>;

export const sameRequest = (scenario: Scenario): SideRequests => ({ ours: scenario, baseline: scenario });

/** One round on one server: fresh counters, load, then the server's own count of requests and SQL. */
export async function measureRound(
  server: ServerProcess,
  scenario: Scenario,
  settings: LoadSettings,
): Promise<RoundResult> {
  await server.reset();
  const load = await runLoad(server.origin, scenario, settings);
  const stats = await server.stats();
  return { ...load, serverRequests: stats.requests, queries: stats.queries, cpuMicros: stats.cpuMicros };
}

/**
 * Rounds alternate between the two servers, switching which goes first every round
 * (ours, baseline, baseline, ours, ...), so slow drift of the machine hits both alike.
 */
export async function alternateRounds(
  ours: ServerProcess,
  baseline: ServerProcess,
  requests: SideRequests,
  settings: LoadSettings & { rounds: number },
): Promise<{ ours: RoundResult[]; baseline: RoundResult[] }> {
  const rounds = { ours: [] as RoundResult[], baseline: [] as RoundResult[] };
  for (let round = 0; round < settings.rounds; round++) {
    const order = round % 2 === 0 ? [ours, baseline] : [baseline, ours];
    for (const server of order) rounds[server.side].push(await measureRound(server, requests[server.side], settings));
  }
  return rounds;
}

/**
 * Throws unless every request of the rounds was answered with the request's status. For the 304
 * side of a conditional GET: counted only as errors, full answers would pass for cheap 304s.
 */
export function assertStatus(rounds: readonly RoundResult[], request: Scenario, label: string): void {
  const errors = rounds.reduce((sum, round) => sum + round.errors, 0);
  if (errors === 0) return;
  const statuses: Record<string, number> = {};
  for (const [status, count] of rounds.flatMap((round) => Object.entries(round.statuses)))
    statuses[status] = (statuses[status] ?? 0) + count;
  throw new Error(
    `${label}: ${errors} requests not answered ${request.status} (by status ${JSON.stringify(statuses)}; errors count failed connections too)`,
  );
}

/**
 * Seconds of unmeasured load per server before its first round. Two seconds were not enough: the
 * first measured round of our server was still 10-20% slower than the rest (JIT tiers, heap growth).
 */
const WARM_UP_SECONDS = 3;

/** Load that JIT-compiles the hot paths and fills connection pools; not measured. */
export async function warmUp(servers: ServerProcess[], scenario: Scenario, settings: LoadSettings): Promise<void> {
  for (const server of servers) await runLoad(server.origin, scenario, { ...settings, duration: WARM_UP_SECONDS });
}
