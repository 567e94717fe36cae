import type { CrudApiModuleOptions } from '../../lib/index.js';

/** The server of the live fan-out measurement (`--live-fan-out`). */
export const LIVE_FAN_OUT = 'live-fan-out';

/**
 * Live queries with limits above the measurement's: every subscriber is one caller on its own
 * connection, and the distinct queries all re-run after one write.
 */
export const LIVE_FAN_OUT_OPTIONS: Partial<CrudApiModuleOptions> = {
  live: { maxPerCaller: 100_000, maxRerunsPerSecond: 100_000 },
};
