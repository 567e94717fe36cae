import { type CrudApiModuleOptions, postgresChangeTransport } from '../../lib/index.js';

/** The server of the live fan-out measurement (`--live-fan-out`). */
export const LIVE_FAN_OUT = 'live-fan-out';

/**
 * Live queries with limits above the measurement's: every subscriber is one caller on its own
 * connection, and the distinct queries all re-run after one write.
 */
export const LIVE_FAN_OUT_OPTIONS: Partial<CrudApiModuleOptions> = {
  live: { maxPerCaller: 100_000, maxRerunsPerSecond: 100_000 },
};

/** The two instances of the measurement across instances (PostgreSQL only). */
export const LIVE_ACROSS = 'live-across';

/** Live queries over the PostgreSQL transport, on the benchmark's database. */
export const liveAcrossOptions = (databaseUrl: string): Partial<CrudApiModuleOptions> => ({
  live: { ...LIVE_FAN_OUT_OPTIONS.live, transport: postgresChangeTransport({ connectionString: databaseUrl }) },
});

/** The module options of a live measurement's server, by its scenario name. */
export function liveOptions(scenario: string, databaseUrl: string): Partial<CrudApiModuleOptions> | undefined {
  if (scenario === LIVE_FAN_OUT) return LIVE_FAN_OUT_OPTIONS;
  return scenario === LIVE_ACROSS ? liveAcrossOptions(databaseUrl) : undefined;
}
