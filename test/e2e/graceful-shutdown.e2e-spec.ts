import { type PrismaModulePlace, startShutdownApp } from '../shutdown-app/shutdown-app-process.js';
import {
  acknowledgedNames,
  expectGracefulOutcomes,
  sendWrite,
  type ShutdownOutcome,
} from '../support/shutdown-outcomes.js';
import { testPlatform } from '../support/test-app.js';
import { createTestDatabase, testProviders } from '../support/test-database.js';

const GRACE_PERIOD = 10_000;
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

/** The graceful shutdown of test/shutdown-app under load, as Kubernetes stops a pod: SIGTERM. */
describe.each(testProviders().filter((provider) => provider !== 'mysql'))('graceful shutdown (%s)', (provider) => {
  // SQLite runs one write transaction at a time: its slow writes queue, within Prisma's 2 s maxWait.
  const slowMs = provider === 'sqlite' ? 300 : 1500;

  it.each<PrismaModulePlace>(['root', 'before', 'after'])(
    'lets accepted requests finish and exits 0, the PrismaService in the %s module',
    async (prismaModule) => {
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
        // A bounded loop of fast writes on two connections, through the signal until the server is gone.
        const kinds = Object.keys(WRITES) as (keyof typeof WRITES)[];
        const loop = async (worker: string, pause = 0) => {
          for (let index = 0; index < 500 && !exited; index += 1) {
            const outcome = await send(kinds[index % kinds.length]!, `${worker}-${index}`);
            if (outcome.networkError) break;
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
        expect(shutdownMs).toBeLessThan(GRACE_PERIOD);
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
