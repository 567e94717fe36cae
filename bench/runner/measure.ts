import type { Scenario } from '../scenarios.js';
import { type LoadSettings, type RoundResult, runLoad } from './load.js';
import type { ServerProcess } from './server-process.js';

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
  scenario: Scenario,
  settings: LoadSettings & { rounds: number },
): Promise<{ ours: RoundResult[]; baseline: RoundResult[] }> {
  const rounds = { ours: [] as RoundResult[], baseline: [] as RoundResult[] };
  for (let round = 0; round < settings.rounds; round++) {
    const order = round % 2 === 0 ? [ours, baseline] : [baseline, ours];
    for (const server of order) rounds[server.side].push(await measureRound(server, scenario, settings));
  }
  return rounds;
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
