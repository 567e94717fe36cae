import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import fc from 'fast-check';

import type { DatabaseProvider } from '../../fixtures/blog/database/database-url.js';
import { type PrismaModulePlace, startShutdownApp } from '../shutdown-app/shutdown-app-process.js';
import { itOn } from '../support/it-on.js';
import {
  acknowledgedNames,
  expectAnswered,
  expectGracefulOutcomes,
  sendWrite,
  sendWriteThrough,
  type ShutdownOutcome,
} from '../support/shutdown-outcomes.js';
import { testPlatform } from '../support/test-app.js';
import { createTestDatabase, testProviders } from '../support/test-database.js';

const GRACE_PERIOD = 4000;
/** What the application's exit takes after the drain: its other hooks, closing the server. */
const EXIT_MS = 3000;
const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

/** The writes a client sends: each creates tags, through one of the module's write paths. */
const WRITES = {
  rest: (name: string) => ({
    path: '/api/rest/tag',
    type: JSON_API,
    body: { data: { type: 'tag', attributes: { name } } },
  }),
  rpc: (name: string) => ({ path: '/api/rpc/tag/create', type: 'application/json', body: { data: { name } } }),
  sequential: (name: string) => ({
    path: '/api/rpc/$transaction/sequential',
    type: 'application/json',
    body: [
      { model: 'Tag', op: 'create', args: { data: { name } } },
      { model: 'Tag', op: 'count', args: {} },
    ],
  }),
  atomic: (name: string) => ({
    path: '/api/rest/operations',
    type: ATOMIC,
    body: { 'atomic:operations': [{ op: 'add', data: { type: 'tag', attributes: { name } } }] },
  }),
} as const;

const NORMAL_STATUS: Record<keyof typeof WRITES, number> = { rest: 201, rpc: 201, sequential: 200, atomic: 200 };

const SEED = 44;
const KEEP_ALIVE_CLIENTS = 16;

/**
 * One drain's timing: when the signal comes after a slow write has started, and each keep-alive
 * client's pause between its requests, in percent of the slow write's time (a client pausing
 * longer than the drain is idle when it ends).
 */
interface DrainTiming {
  signalDelayMs: number;
  pauses: number[];
}

const drainTimings: fc.Arbitrary<DrainTiming> = fc.record({
  signalDelayMs: fc.integer({ min: 0, max: 100 }),
  pauses: fc.array(fc.integer({ min: 1, max: 200 }), {
    minLength: KEEP_ALIVE_CLIENTS,
    maxLength: KEEP_ALIVE_CLIENTS,
  }),
});

/**
 * SIGTERM while 16 keep-alive clients write (Node's agent, one connection each, kept between
 * requests), each until it is told to go to another server (503 with `Retry-After`), and a slow
 * write holds the drain open. Every request gets an answer: none is reset, not even one a client
 * sends on its idle connection as the drain ends.
 */
async function drainKeepAliveClients(provider: DatabaseProvider, slowMs: number, timing: DrainTiming): Promise<void> {
  const db = await createTestDatabase(provider);
  const app = await startShutdownApp({
    databaseUrl: db.url,
    platform: testPlatform(),
    prismaModule: 'root',
    slowMs,
    gracePeriod: GRACE_PERIOD,
  });
  const agents = timing.pauses.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  let signalled = false;
  const outcomes: ShutdownOutcome[] = [];
  const client = async (index: number) => {
    for (let request = 0; ; request += 1) {
      const name = `client-${index}-${request}`;
      const outcome: ShutdownOutcome = { kind: 'rest', names: [name], sentAfterSignal: signalled };
      outcomes.push(outcome);
      await sendWriteThrough(agents[index]!, app.url, WRITES.rest(name), outcome);
      if (outcome.status !== NORMAL_STATUS.rest) return;
      await sleep((timing.pauses[index]! * slowMs) / 100);
    }
  };
  try {
    const slow = sendWrite(app.url, WRITES.rest('slow-0'), { kind: 'rest', names: ['slow-0'], sentAfterSignal: false });
    const clients = agents.map((_, index) => client(index));
    await app.slowWritesStarted(1);
    await sleep(timing.signalDelayMs);
    signalled = true;
    app.signal('SIGTERM');
    const { code, output } = await app.exited;
    outcomes.push(await slow);
    await Promise.all(clients);

    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
    for (const outcome of outcomes) expectAnswered(outcome, (kind) => NORMAL_STATUS[kind as 'rest']);
    expect(outcomes.filter((o) => o.sentAfterSignal && o.status === 503)).toHaveLength(KEEP_ALIVE_CLIENTS);
    const stored = (await db.prisma.tag.findMany({ select: { name: true } })).map((tag) => tag.name);
    expect(new Set(stored)).toEqual(new Set(acknowledgedNames(outcomes)));
  } finally {
    agents.forEach((agent) => agent.destroy());
    app.signal('SIGKILL');
    await app.exited;
    await db.drop();
  }
}

/** The graceful shutdown of test/shutdown-app under load, as Kubernetes stops a pod: SIGTERM. */
describe.each(testProviders().filter((provider) => provider !== 'mysql'))('graceful shutdown (%s)', (provider) => {
  // SQLite runs one write transaction at a time: its slow writes queue, within Prisma's 2 s maxWait.
  const slowMs = provider === 'sqlite' ? 300 : 1500;

  // Where the PrismaService sits orders Nest's shutdown hooks, whatever the database: the other
  // places run on SQLite only.
  const places: [PrismaModulePlace, DatabaseProvider[]][] = [
    ['root', ['sqlite', 'postgresql']],
    ['before', ['sqlite']],
    ['after', ['sqlite']],
  ];
  describe.each(places)('the PrismaService in the %s module', (prismaModule, providers) => {
    itOn(provider, providers, 'the module order of shutdown hooks does not depend on the database')(
      'lets accepted requests finish and exits 0',
      async () => {
        const db = await createTestDatabase(provider);
        const app = await startShutdownApp({
          databaseUrl: db.url,
          platform: testPlatform(),
          prismaModule,
          slowMs,
          gracePeriod: GRACE_PERIOD,
        });
        let signalled = false;
        const outcomes: ShutdownOutcome[] = [];
        const send = (kind: keyof typeof WRITES, name: string): Promise<ShutdownOutcome> => {
          const outcome: ShutdownOutcome = { kind, names: [name], sentAfterSignal: signalled };
          outcomes.push(outcome);
          return sendWrite(app.url, WRITES[kind](name), outcome);
        };
        let exited = false;
        void app.exited.then(() => (exited = true));
        try {
          const slow = (['rest', 'rest', 'sequential', 'atomic'] as const).map((kind, index) =>
            send(kind, `slow-${kind}-${index}`),
          );
          // A bounded loop of fast writes on two connections, through the signal until the server
          // refuses one (the client then goes to another server) or is gone.
          const kinds = Object.keys(WRITES) as (keyof typeof WRITES)[];
          const loop = async (worker: string, pause = 0) => {
            for (let index = 0; index < 500 && !exited; index += 1) {
              const outcome = await send(kinds[index % kinds.length]!, `${worker}-${index}`);
              if (outcome.networkError || outcome.status === 503) break;
              await new Promise((resolve) => setTimeout(resolve, pause));
            }
          };
          const loops = [loop('fast-0'), loop('fast-1')];
          const started = await app.slowWritesStarted(1);
          signalled = true;
          const signalledAt = Date.now();
          app.signal('SIGTERM');
          // New requests while the accepted ones drain: refused, whatever connection they come on.
          loops.push(loop('late', 20));
          const { code, output } = await app.exited;
          const shutdownMs = Date.now() - signalledAt;
          await Promise.all([...slow, ...loops]);

          expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
          // The drain ends at the grace period at the latest: fetch's idle pooled connections may
          // hold it until then (on Fastify, whose keep-alive timeout is longer).
          expect(shutdownMs).toBeLessThan(GRACE_PERIOD + EXIT_MS);
          // Caught by the signal in the middle of its transaction, it still gets its normal answer.
          const caught = outcomes.filter((o) => started.includes(o.names[0]!));
          expect(caught.map((o) => o.status)).toEqual(caught.map((o) => NORMAL_STATUS[o.kind as 'rest']));
          // test/e2e/health.e2e-spec.ts holds a write open to prove the refusal of late requests deterministically.
          expectGracefulOutcomes(outcomes, (kind) => NORMAL_STATUS[kind as 'rest']);
          const acknowledged = acknowledgedNames(outcomes);
          const stored = (await db.prisma.tag.findMany({ select: { name: true } })).map((tag) => tag.name);
          expect(new Set(stored)).toEqual(new Set(acknowledged));
        } finally {
          app.signal('SIGKILL');
          await app.exited;
          await db.drop();
        }
      },
      60_000,
    );
  });

  // How connections are held and closed is the platform's and the module's, not the database's.
  itOn(provider, ['sqlite'], 'keep-alive connections do not depend on the database')(
    'answers every request of keep-alive clients, drain after drain, never resetting one',
    async () => {
      for (const timing of fc.sample(drainTimings, { seed: SEED, numRuns: 3 })) {
        await drainKeepAliveClients(provider, slowMs, timing);
      }
    },
    180_000,
  );
});
