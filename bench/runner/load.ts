import autocannon from 'autocannon';

import type { Scenario } from '../scenarios.js';

/** What one round of load on one server measured. */
export interface RoundResult {
  /** Completed requests per second over the round. */
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  requests: number;
  /** Answers with another status than the scenario's, plus connection errors and timeouts. */
  errors: number;
  /** Responses by HTTP status. */
  statuses: Record<string, number>;
  /** Requests the server received and SQL statements it ran during the round. */
  serverRequests: number;
  queries: number;
  /** Server CPU time during the round, in microseconds. */
  cpuMicros: number;
}

export interface LoadSettings {
  duration: number;
  connections: number;
}

/**
 * Drives `connections` concurrent clients at one server for `duration` seconds. A varied read's
 * requests are numbered across all connections from 0 in every round, so each side is sent the
 * same sequence.
 */
export async function runLoad(origin: string, scenario: Scenario, settings: LoadSettings) {
  const { vary } = scenario;
  let sent = 0;
  const result = await autocannon({
    requests: vary ? [{ setupRequest: (request) => ({ ...request, path: vary(sent++) }) }] : undefined,
    url: origin + scenario.path,
    method: scenario.method,
    body: scenario.body,
    headers: { ...scenario.headers, ...(scenario.contentType ? { 'content-type': scenario.contentType } : {}) },
    connections: settings.connections,
    duration: settings.duration,
    timeout: 30,
  });
  const expected = result.statusCodeStats[String(scenario.status)]?.count ?? 0;
  const answered = Object.values(result.statusCodeStats).reduce((sum, { count }) => sum + count, 0);
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: answered - expected + result.errors + result.timeouts,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count])),
  };
}
