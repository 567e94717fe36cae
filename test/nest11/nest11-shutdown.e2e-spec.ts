import { rmSync } from 'node:fs';

import Database from 'better-sqlite3';

import {
  acknowledgedNames,
  expectGracefulOutcomes,
  sendWrite,
  type ShutdownOutcome,
  type WriteRequest,
} from '../support/shutdown-outcomes.js';
import { type Nest11Bootstrap, startNest11App } from './nest11-app-process.js';
import { prepareNest11App } from './prepare-nest11-app.js';

const PREPARE_TIMEOUT_MS = 15 * 60_000;
const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
const AS_USER_1 = { 'x-user-id': '1' };
/** Nest's shutdown hooks and the module's drain, with nothing slow in flight. */
const SHUTDOWN_BOUND_MS = 5_000;

/** Policy writes of user 1 (the policies check each one in its transaction), through each write path. */
const WRITES: Record<string, (title: string) => WriteRequest> = {
  rest: (title) => ({
    path: '/api/rest/post',
    type: JSON_API,
    headers: AS_USER_1,
    body: {
      data: { type: 'post', attributes: { title }, relationships: { author: { data: { type: 'user', id: '1' } } } },
    },
  }),
  rpc: (title) => ({
    path: '/api/rpc/post/create',
    type: 'application/json',
    headers: AS_USER_1,
    body: { data: { title, authorId: 1 } },
  }),
  atomic: (title) => ({
    path: '/api/rest/operations',
    type: ATOMIC,
    headers: AS_USER_1,
    body: {
      'atomic:operations': [
        {
          op: 'add',
          data: { type: 'post', attributes: { title }, relationships: { author: { data: { type: 'user', id: '1' } } } },
        },
      ],
    },
  }),
};
const NORMAL_STATUS: Record<string, number> = { rest: 201, rpc: 201, atomic: 200 };

/**
 * SIGTERM under load in a real Nest 11 application (test/nest11-app) that disconnects Prisma in
 * its `PrismaService.onModuleDestroy`, the common recipe: the policy writes in flight still
 * commit and get their answers, the process ends as Nest ends it (by the signal, once closed),
 * with nothing logged, and every acknowledged write is stored.
 */
describe.each<Nest11Bootstrap>([
  { platform: 'express', bootstrap: 'factory' },
  { platform: 'fastify', bootstrap: 'factory' },
])('Nest 11 application on $platform, stopped with SIGTERM under load', (bootstrap) => {
  beforeAll(() => prepareNest11App(), PREPARE_TIMEOUT_MS);

  it('lets the writes in flight finish, closes cleanly and keeps every acknowledged write', async () => {
    const app = await startNest11App(bootstrap);
    try {
      const user = await app
        .http()
        .post('/api/rest/user')
        .set('Content-Type', JSON_API)
        .send({ data: { type: 'user', attributes: { email: 'ada@example.com', name: 'Ada' } } });
      expect(user.status).toBe(201);

      let signalled = false;
      let exited = false;
      void app.exited.then(() => (exited = true));
      const outcomes: ShutdownOutcome[] = [];
      const kinds = Object.keys(WRITES);
      const loop = async (worker: string) => {
        for (let index = 0; index < 1000 && !exited; index += 1) {
          const kind = kinds[index % kinds.length]!;
          const title = `${worker}-${index}`;
          const outcome: ShutdownOutcome = { kind, names: [title], sentAfterSignal: signalled };
          outcomes.push(outcome);
          if ((await sendWrite(app.url, WRITES[kind]!(title), outcome)).networkError) break;
        }
      };
      const loops = ['a', 'b', 'c', 'd'].map(loop);
      // Load first: the signal comes while the four clients' writes are in flight.
      while (acknowledgedNames(outcomes).length < 40) await new Promise((resolve) => setTimeout(resolve, 5));
      const inFlight = outcomes.filter((outcome) => outcome.status === undefined && !outcome.networkError);
      signalled = true;
      const signalledAt = Date.now();
      app.signal('SIGTERM');
      const { code, signal, output } = await app.exited;
      const shutdownMs = Date.now() - signalledAt;
      await Promise.all(loops);

      // `enableShutdownHooks()` ends the process by raising the signal again once the application closed.
      const clean = signal === 'SIGTERM' && output.trim() === /listening on \d+/.exec(output)?.[0];
      expect({ code, signal, output: clean ? '' : output }).toEqual({ code: null, signal: 'SIGTERM', output: '' });
      expect(shutdownMs).toBeLessThan(SHUTDOWN_BOUND_MS);
      expect(inFlight.length).toBeGreaterThan(0);
      expectGracefulOutcomes(outcomes, (kind) => NORMAL_STATUS[kind]!);
      const database = new Database(app.database, { readonly: true });
      const stored = database.prepare('SELECT title FROM Post').all() as { title: string }[];
      database.close();
      expect(new Set(stored.map((row) => row.title))).toEqual(new Set(acknowledgedNames(outcomes)));
    } finally {
      app.signal('SIGKILL');
      await app.exited;
      rmSync(app.database, { force: true });
    }
  }, 60_000);
});
