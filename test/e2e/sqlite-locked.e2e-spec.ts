import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import Database from 'better-sqlite3';

import {
  createSampleDatabase,
  SAMPLE_DATABASE_BOUNDS,
  type SampleDatabase,
} from '../../fixtures/blog/database/create-prisma-client.js';
import { pushSchemaIfEmpty } from '../../fixtures/blog/database/prepare-database.js';
import { longestStall } from '../support/longest-stall.js';
import { createAppOver } from '../support/test-app.js';

/** How long a statement of the application waits for the lock in these tests. */
const BUSY_TIMEOUT_MS = 3000;

/**
 * Another process holds the SQLite database (`BEGIN EXCLUSIVE`): the application keeps serving
 * and its timers keep running, a request waiting for the lock answers 503 once its wait is over,
 * and a request whose lock is released in time succeeds.
 */
describe('SQLite locked by another connection', () => {
  const file = path.join(os.tmpdir(), `crud_api_locked_${process.pid}_${Date.now()}.db`);
  let database: SampleDatabase;
  let t: Awaited<ReturnType<typeof createAppOver>>;
  let locker: Database.Database;
  let authorId: number;

  beforeAll(async () => {
    const url = `file:${file}`;
    await pushSchemaIfEmpty(url);
    database = createSampleDatabase(url, { bounds: { ...SAMPLE_DATABASE_BOUNDS, lockMs: BUSY_TIMEOUT_MS } });
    authorId = (await database.prisma.user.create({ data: { email: 'a@example.com', name: 'A' } })).id;
    t = await createAppOver(database);
    locker = new Database(file);
  });

  afterEach(() => {
    if (locker.inTransaction) locker.exec('COMMIT');
  });

  afterAll(async () => {
    locker.close();
    await t.close();
    await rm(file, { force: true });
  });

  const http = () => t.http();
  const createPost = (title: string) =>
    http().post('/api/rpc/post/create').send({ data: { title, authorId } }).set('content-type', 'application/json');
  const titles = async () =>
    (await database.prisma.post.findMany({ orderBy: { id: 'asc' } })).map((post) => post.title);

  it('keeps serving while waiting, then answers 503 for the requests that did not get the lock', async () => {
    locker.exec('BEGIN EXCLUSIVE');
    const started = Date.now();
    let docsMs = Infinity;
    const { stallMs, result } = await longestStall(async () => {
      const waiting = Promise.all([createPost('never written'), http().get('/api/rest/post')]);
      // While both wait for the lock, a route that needs no database answers at once.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const docsStarted = Date.now();
      await http().get('/api/docs/rest.json').expect(200);
      docsMs = Date.now() - docsStarted;
      return waiting;
    });
    const [written, readBack] = (result as PromiseFulfilledResult<Awaited<ReturnType<typeof createPost>>[]>).value;

    // Bounds well below the lock wait, which the driver's own busy timeout would block for whole;
    // loose enough for a machine busy with other suites.
    expect(docsMs).toBeLessThan(BUSY_TIMEOUT_MS / 2);
    expect(stallMs).toBeLessThan(BUSY_TIMEOUT_MS / 2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS - 50);
    expect(written.status).toBe(503);
    expect(written.headers['retry-after']).toBe('1');
    expect(written.body.error).toMatchObject({ orm: true, code: 'P1008' });
    expect(readBack.status).toBe(503);
    expect(readBack.headers['retry-after']).toBe('1');
    expect(readBack.body.errors[0].code).toBe('service-unavailable');
    locker.exec('COMMIT');
    expect(await titles()).not.toContain('never written');
  });

  it('answers a write whose lock is released within the wait, and keeps it', async () => {
    locker.exec('BEGIN EXCLUSIVE');
    setTimeout(() => locker.exec('COMMIT'), BUSY_TIMEOUT_MS / 3);
    const res = await createPost('written after the lock');
    expect(res.status).toBe(201);
    expect(await titles()).toContain('written after the lock');
  });

  it('answers reads and writes as usual once the other process is done', async () => {
    await createPost('plain write').expect(201);
    await http().get('/api/rest/post').expect(200);
  });
});

/**
 * A transaction of the application itself holds SQLite's one writer (a rule hook waits inside its
 * create's transaction): reads go on at once, seeing committed rows only, and a write that cannot
 * have the writer within the lock wait answers 503, writing nothing; the transaction commits.
 */
describe('SQLite held by a transaction of the application', () => {
  const file = path.join(os.tmpdir(), `crud_api_held_${process.pid}_${Date.now()}.db`);
  const LOCK_MS = 300;
  const HOOK_MS = 1200;
  let database: SampleDatabase;
  let t: Awaited<ReturnType<typeof createAppOver>>;
  let authorId: number;
  let releaseHook: () => void = () => undefined;

  beforeAll(async () => {
    const url = `file:${file}`;
    await pushSchemaIfEmpty(url);
    database = createSampleDatabase(url, { bounds: { ...SAMPLE_DATABASE_BOUNDS, lockMs: LOCK_MS } });
    authorId = (await database.prisma.user.create({ data: { email: 'h@example.com', name: 'H' } })).id;
    t = await createAppOver(database, {
      transactions: { timeout: HOOK_MS * 4, maxWait: 2000 },
      rules: {
        Tag: {
          beforeCreate: async ({ tx }) => {
            await tx.tag.count();
            await new Promise<void>((resolve) => {
              releaseHook = resolve;
              setTimeout(resolve, HOOK_MS);
            });
          },
        },
      },
    });
  });

  afterAll(async () => {
    releaseHook();
    await t.close();
    await rm(file, { force: true });
  });

  it('reads at once, answers 503 to a write kept waiting, and commits the transaction', async () => {
    const http = () => t.http();
    const held = http()
      .post('/api/rpc/tag/create')
      .send({ data: { name: 'held' } });
    const heldAnswer = held.then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const readStarted = Date.now();
    const read = await http().get('/api/rest/tag');
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual([]);
    expect(Date.now() - readStarted).toBeLessThan(HOOK_MS / 2);

    const writeStarted = Date.now();
    const write = await http()
      .post('/api/rpc/post/create')
      .send({ data: { title: 'kept waiting', authorId } });
    expect(Date.now() - writeStarted).toBeLessThan(HOOK_MS);
    expect(write.status).toBe(503);
    expect(write.headers['retry-after']).toBe('1');

    expect((await heldAnswer).status).toBe(201);
    expect(await database.prisma.tag.count({ where: { name: 'held' } })).toBe(1);
    expect(await database.prisma.post.count({ where: { title: 'kept waiting' } })).toBe(0);
    await http()
      .post('/api/rpc/post/create')
      .send({ data: { title: 'after', authorId } })
      .expect(201);
  });
});
