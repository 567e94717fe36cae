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

/** The server of the measurement where every subscriber is its own caller, through policies. */
export const LIVE_POLICIES = 'live-policies';

/** The headers that say who a subscriber of `LIVE_POLICIES` is: a seeded user, and a session of its own. */
export const CALLER_HEADERS = { user: 'x-bench-user', session: 'x-bench-session' } as const;

/** The context of one caller: its session makes it its own, so no two subscribers share a re-run. */
export interface LiveCaller {
  userId: number;
  session: string;
}

/** The caller of the measurement's writes: an editor, who reads and updates every post. */
export const EDITOR_ID = 0;

/**
 * Each caller reads the published posts and its own (the sample blog's read policy on posts); the
 * editor reads all, so that its one write can change the drafts of several authors (a write only
 * reaches the rows its caller reads).
 */
export const LIVE_POLICIES_OPTIONS: Partial<CrudApiModuleOptions> = {
  ...LIVE_FAN_OUT_OPTIONS,
  policies: {
    // Readable authors: a post's foreign key to an unreadable row would read as null.
    User: { read: true },
    Post: {
      read: ({ userId }: LiveCaller) =>
        userId === EDITOR_ID ? true : { OR: [{ published: true }, { authorId: userId }] },
      update: true,
    },
  },
  context: (request: { headers: Record<string, string | undefined> }): LiveCaller => ({
    userId: Number(request.headers[CALLER_HEADERS.user]),
    session: request.headers[CALLER_HEADERS.session] ?? '',
  }),
};

/** The module options of a live measurement's server, by its scenario name. */
export function liveOptions(scenario: string, databaseUrl: string): Partial<CrudApiModuleOptions> | undefined {
  if (scenario === LIVE_FAN_OUT) return LIVE_FAN_OUT_OPTIONS;
  if (scenario === LIVE_POLICIES) return LIVE_POLICIES_OPTIONS;
  return scenario === LIVE_ACROSS ? liveAcrossOptions(databaseUrl) : undefined;
}
