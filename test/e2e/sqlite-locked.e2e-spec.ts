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
