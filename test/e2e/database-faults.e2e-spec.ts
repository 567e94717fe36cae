import { randomUUID } from 'node:crypto';

import mariadb from 'mariadb';
import pg from 'pg';
import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';

import {
  createSampleDatabase,
  type DatabaseBounds,
  type SampleDatabase,
} from '../../fixtures/blog/database/create-prisma-client.js';
import { pushSchemaIfEmpty } from '../../fixtures/blog/database/prepare-database.js';
import { canCreatePgCluster, createPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { createAppOver } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

/** Short bounds, so that each fault answers within a few seconds. */
const BOUNDS: DatabaseBounds = { poolSize: 4, acquireMs: 1000, statementMs: 3000, lockMs: 500 };
/** What "promptly" means here: well below the bounds of the old behaviour (30 s), whatever the machine's load. */
const PROMPTLY_MS = 3000;
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

type FaultApp = Awaited<ReturnType<typeof createAppOver>>;

const createFaultApp = (database: SampleDatabase) =>
  createAppOver(database, { transactions: { maxWait: BOUNDS.acquireMs, timeout: BOUNDS.statementMs } });

/** A database fault answered in the interface's format: never 500, 503 with Retry-After, 504 without. */
function expectFault(res: Response, status: 503 | 504, code: string, format: 'rest' | 'rpc'): void {
  expect(res.status).toBe(status);
  expect(res.headers['retry-after']).toBe(status === 503 ? '1' : undefined);
  if (format === 'rest') {
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    expect(res.body.errors).toEqual([expect.objectContaining({ status: String(status), code })]);
  } else {
    expect(res.body.error).toEqual(expect.objectContaining({ message: expect.any(String), orm: true }));
  }
}

/** Runs `request` and measures how long it took. */
async function timed(request: PromiseLike<Response>): Promise<{ res: Response; ms: number }> {
  const started = Date.now();
  const res = await request;
  return { res, ms: Date.now() - started };
}

/** The requests of one kind of fault on either interface, in single, transaction and atomic form. */
function writes(http: () => TestAgent, tag: string, authorId: number) {
  const user = (n: number) => ({ email: `${tag}-${n}@faults.test`, name: tag });
  const author = { author: { data: { type: 'user', id: String(authorId) } } };
  return {
    restCreate: () =>
      http()
        .post('/api/rest/post')
        .set('Content-Type', 'application/vnd.api+json')
        .send({ data: { type: 'post', attributes: { title: `${tag} post` }, relationships: author } }),
    rpcCreate: () =>
      http()
        .post('/api/rpc/user/create')
        .send({ data: user(1) }),
    rpcTransaction: () =>
      http()
        .post('/api/rpc/$transaction/sequential')
        .send([
          { model: 'User', op: 'create', args: { data: user(2) } },
          { model: 'Post', op: 'create', args: { data: { title: `${tag} in transaction`, authorId } } },
        ]),
    atomic: () =>
      http()
        .post('/api/rest/operations')
        .set({ 'Content-Type': ATOMIC, Accept: ATOMIC })
        .send(
          JSON.stringify({
            'atomic:operations': [
              { op: 'add', data: { type: 'user', attributes: user(3) } },
              { op: 'add', data: { type: 'post', attributes: { title: `${tag} atomic` }, relationships: author } },
            ],
          }),
        ),
  };
}

/** Retries a read until it succeeds: pooled connections the fault closed fail once each (503). */
async function recovered(http: () => TestAgent): Promise<void> {
  for (let attempt = 0; attempt <= BOUNDS.poolSize; attempt += 1) {
    const res = await http().get('/api/rest/user');
    if (res.status === 200) return;
    expectFault(res, 503, 'service-unavailable', 'rest');
  }
  throw new Error('the application did not recover');
}

const postgresAvailable = testProviders().includes('postgresql') && canCreatePgCluster();

(postgresAvailable ? describe : describe.skip)('database faults (postgresql, a server of its own)', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let t: FaultApp;
  let appUrl: string;
  let authorId: number;

  const adminQuery = (sql: string) => admin.query(sql);
  const terminateApp = () =>
    adminQuery(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'app' AND pid <> pg_backend_pid()",
    );

  /** Holds `LOCK TABLE "Post"` in another session until the returned function releases it. */
  async function lockPosts(): Promise<() => Promise<void>> {
    const locker = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${cluster.port}/faults` });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE "Post" IN ACCESS EXCLUSIVE MODE');
    return async () => {
      await locker.query('ROLLBACK');
      await locker.end();
    };
  }

  beforeAll(async () => {
    cluster = await createPgCluster();
    admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await adminQuery('CREATE ROLE app LOGIN');
    await adminQuery('CREATE DATABASE faults OWNER app');
    appUrl = `postgresql://app@127.0.0.1:${cluster.port}/faults`;
    await pushSchemaIfEmpty(appUrl);
    const database = createSampleDatabase(appUrl, { bounds: BOUNDS });
    authorId = (await database.prisma.user.create({ data: { email: 'author@faults.test', name: 'Author' } })).id;
    t = await createFaultApp(database);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await admin?.end().catch(() => undefined);
    await cluster?.remove();
  });

  it('a locked table answers 504 within its bound; the other tables answer at once; nothing is written', async () => {
    const w = writes(t.http, 'locked', authorId);
    const release = await lockPosts();
    try {
      const [read, other, restCreate, rpcTransaction, atomic] = await Promise.all([
        timed(t.http().get('/api/rest/post')),
        timed(t.http().get('/api/rest/user')),
        timed(w.restCreate()),
        timed(w.rpcTransaction()),
        timed(w.atomic()),
      ]);
      expect(other.res.status).toBe(200);
      expect(other.ms).toBeLessThan(PROMPTLY_MS);
      expectFault(read.res, 504, 'database-timeout', 'rest');
      expectFault(restCreate.res, 504, 'database-timeout', 'rest');
      expectFault(rpcTransaction.res, 504, 'database-timeout', 'rpc');
      expectFault(atomic.res, 504, 'database-timeout', 'rest');
      for (const { ms } of [read, restCreate, rpcTransaction, atomic]) expect(ms).toBeLessThan(PROMPTLY_MS);
    } finally {
      await release();
    }
    const db = new pg.Client({ connectionString: appUrl });
    await db.connect();
    const written = await db.query(`SELECT count(*)::int AS n FROM "users" WHERE name = 'locked'`);
    const posts = await db.query(`SELECT count(*)::int AS n FROM "Post" WHERE title LIKE 'locked%'`);
    await db.end();
    expect(written.rows[0].n).toBe(0);
    expect(posts.rows[0].n).toBe(0);
  });

  it('a terminated session answers 503 with Retry-After, and the next request succeeds', async () => {
    const release = await lockPosts();
    try {
      const waiting = t.http().get('/api/rest/post');
      const answered = waiting.then((res) => res);
      // The request waits on the lock; its session is then terminated (pg_terminate_backend).
      for (let tries = 0; tries < 50; tries += 1) {
        const { rows } = await admin.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = 'app' AND wait_event_type = 'Lock'",
        );
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await terminateApp();
      expectFault(await answered, 503, 'service-unavailable', 'rest');
    } finally {
      await release();
    }
    await recovered(t.http);
  });

  it('a read-only database refuses writes with 503 database-read-only; reads keep working', async () => {
    await adminQuery('ALTER DATABASE faults SET default_transaction_read_only = on');
    try {
      await terminateApp();
      await recovered(t.http);
      const w = writes(t.http, 'read-only', authorId);
      expectFault(await w.restCreate(), 503, 'database-read-only', 'rest');
      expectFault(await w.rpcCreate(), 503, 'database-read-only', 'rpc');
      expectFault(await w.rpcTransaction(), 503, 'database-read-only', 'rpc');
      expectFault(await w.atomic(), 503, 'database-read-only', 'rest');
      expect((await t.http().get('/api/rest/user')).status).toBe(200);
      expect((await t.http().get('/api/rpc/post/findMany')).status).toBe(200);
    } finally {
      await adminQuery('ALTER DATABASE faults RESET default_transaction_read_only');
      await terminateApp();
    }
    await recovered(t.http);
  });

  it('a connection limit answers 503 with Retry-After on both interfaces', async () => {
    await adminQuery('ALTER ROLE app CONNECTION LIMIT 0');
    try {
      await terminateApp();
      expectFault(await t.http().get('/api/rest/user'), 503, 'service-unavailable', 'rest');
      expectFault(await t.http().get('/api/rpc/user/findMany'), 503, 'service-unavailable', 'rpc');
    } finally {
      await adminQuery('ALTER ROLE app CONNECTION LIMIT -1');
    }
    await recovered(t.http);
  });

  it('a stopped server answers 503 with Retry-After at once; the first request after its restart succeeds; no acknowledged write is lost', async () => {
    const created = await writes(t.http, 'before-restart', authorId).rpcCreate();
    expect(created.status).toBe(201);
    await admin.end();
    await cluster.stop();
    try {
      const w = writes(t.http, 'stopped', authorId);
      const read = await timed(t.http().get('/api/rest/user'));
      const transaction = await timed(w.rpcTransaction());
      expectFault(read.res, 503, 'service-unavailable', 'rest');
      expectFault(transaction.res, 503, 'service-unavailable', 'rpc');
      expect(Math.max(read.ms, transaction.ms)).toBeLessThan(PROMPTLY_MS);
      expectFault(await w.atomic(), 503, 'service-unavailable', 'rest');
    } finally {
      await cluster.start();
      admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
    }
    const res = await t.http().get('/api/rest/user').query({ 'filter[name]': 'before-restart' });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
  });
});

(testProviders().includes('mysql') ? describe : describe.skip)('database faults (mysql, a database of its own)', () => {
  let db: TestDatabase;
  let t: FaultApp;
  let admin: mariadb.Connection;
  let authorId: number;

  beforeAll(async () => {
    db = await createTestDatabase('mysql');
    const database = createSampleDatabase(db.url, { bounds: BOUNDS });
    authorId = (await database.prisma.user.create({ data: { email: 'author@faults.test', name: 'Author' } })).id;
    t = await createFaultApp(database);
    admin = await mariadb.createConnection(db.url.replace(/^mysql:/, 'mariadb:'));
  });

  afterAll(async () => {
    await t?.close();
    await admin?.end();
    await db?.drop();
  });

  /** The application's connections: the test database's sessions but this one and the lock holder. */
  const appSessions = async (except: number[]) =>
    (
      await admin.query<{ ID: bigint }[]>(
        'SELECT ID FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND ID <> CONNECTION_ID()',
      )
    )
      .map((row) => Number(row.ID))
      .filter((id) => !except.includes(id));

  it('a locked table answers 504 within its bound; a killed query or connection 503; nothing is written', async () => {
    const locker = await mariadb.createConnection(db.url.replace(/^mysql:/, 'mariadb:'));
    await locker.query('LOCK TABLES Post WRITE');
    try {
      const w = writes(t.http, 'locked', authorId);
      const [read, other, transaction] = await Promise.all([
        timed(t.http().get('/api/rest/post')),
        timed(t.http().get('/api/rest/user')),
        timed(w.rpcTransaction()),
      ]);
      expect(other.res.status).toBe(200);
      expect(other.ms).toBeLessThan(PROMPTLY_MS);
      expectFault(read.res, 504, 'database-timeout', 'rest');
      expectFault(transaction.res, 504, 'database-timeout', 'rpc');
      expect(Math.max(read.ms, transaction.ms)).toBeLessThan(PROMPTLY_MS);
      for (const kill of ['KILL QUERY', 'KILL']) {
        const waiting = t
          .http()
          .get('/api/rpc/post/findMany')
          .then((res) => res);
        await new Promise((resolve) => setTimeout(resolve, 200));
        for (const id of await appSessions([locker.threadId!]))
          await admin.query(`${kill} ${id}`).catch(() => undefined);
        expectFault(await waiting, 503, 'service-unavailable', 'rpc');
      }
    } finally {
      await locker.end();
    }
    await recovered(t.http);
    expect(await db.prisma.user.count({ where: { name: 'locked' } })).toBe(0);
  });

  it('a read-only server (--read-only, 1290) refuses writes with 503 database-read-only; reads keep working', async () => {
    // `read_only` is global, but binds only users without READ ONLY ADMIN: the application gets a
    // user of its own, so that the other tests' root connections keep writing meanwhile.
    const user = `crud_ro_${randomUUID().slice(0, 8)}`;
    const url = new URL(db.url);
    await admin.query(`CREATE USER '${user}'@'127.0.0.1'`);
    await admin.query(`GRANT ALL ON \`${url.pathname.slice(1)}\`.* TO '${user}'@'127.0.0.1'`);
    url.username = user;
    const readOnly = await createFaultApp(createSampleDatabase(url.toString(), { bounds: BOUNDS }));
    try {
      await admin.query('SET GLOBAL read_only = ON');
      const w = writes(readOnly.http, 'read-only', authorId);
      expectFault(await w.restCreate(), 503, 'database-read-only', 'rest');
      expectFault(await w.rpcCreate(), 503, 'database-read-only', 'rpc');
      expectFault(await w.rpcTransaction(), 503, 'database-read-only', 'rpc');
      expectFault(await w.atomic(), 503, 'database-read-only', 'rest');
      expect((await readOnly.http().get('/api/rest/user')).status).toBe(200);
      expect((await readOnly.http().get('/api/rpc/post/findMany')).status).toBe(200);
    } finally {
      await admin.query('SET GLOBAL read_only = OFF');
    }
    try {
      expect((await writes(readOnly.http, 'writable', authorId).rpcCreate()).status).toBe(201);
      expect(await db.prisma.user.count({ where: { name: 'read-only' } })).toBe(0);
      expect(await db.prisma.post.count({ where: { title: { startsWith: 'read-only' } } })).toBe(0);
    } finally {
      await readOnly.close();
      await admin.query(`DROP USER '${user}'@'127.0.0.1'`);
    }
  });
});
