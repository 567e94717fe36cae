/**
 * The rate limit stores on their real backends: a bucket passes exactly what it holds under
 * concurrent takes, also from two stores over separate clients sharing the buckets; keys are
 * independent; costs add up; a bucket refills over its window; and a Redis store that cannot reach
 * its server rejects at once rather than holding a request up.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';

import { Redis, type RedisOptions } from 'ioredis';

import { createSampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import { DatabaseRateLimitStore, rateLimitModelProblems } from '../../lib/limits/database-store.js';
import type { BucketLimit } from '../../lib/limits/gcra.js';
import { MemoryRateLimitStore } from '../../lib/limits/memory-store.js';
import { type RateLimitStore, RateLimitStoreError } from '../../lib/limits/rate-limit-store.js';
import { RedisRateLimitStore } from '../../lib/limits/redis-store.js';
import { eventually } from '../support/eventually.js';
import { REDIS_URL_VARIABLE } from '../support/global-setup.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

const execFileAsync = promisify(execFile);

const SEVEN_PER_MINUTE: BucketLimit = { units: 7, windowMs: 60_000 };
/** Keys of this run only: the Redis server is shared. */
const run = randomUUID();
let keys = 0;
const newKey = () => `${run}:${keys++}`;

/** Stores that share their buckets, and the clock they run on when the test can move it. */
interface Backend {
  stores: RateLimitStore[];
  /** Moves the stores' clock on; absent for Redis, whose server keeps the time. */
  advance?: (ms: number) => void;
}

/** How many of `count` concurrent takes of 1 pass, spread over the stores in turn. */
async function passed(stores: RateLimitStore[], key: string, count: number, limit = SEVEN_PER_MINUTE) {
  const taken = await Promise.all(
    Array.from({ length: count }, (_, index) => stores[index % stores.length]!.take(key, 1, limit)),
  );
  return taken.filter((answer) => answer.allowed).length;
}

/** The checks every store passes; `open` gives two stores sharing buckets when the backend can. */
function behavesAsABucket(open: () => Backend) {
  let backend: Backend;
  beforeEach(() => {
    backend = open();
  });

  it('passes exactly the bucket of 40 concurrent takes', async () => {
    expect(await passed(backend.stores.slice(0, 1), newKey(), 40)).toBe(7);
  });

  it("keeps each key's bucket to itself", async () => {
    const [store] = backend.stores;
    const used = newKey();
    const other = newKey();
    expect(await passed([store!], used, 10)).toBe(7);
    expect(await store!.take(other, 1, SEVEN_PER_MINUTE)).toMatchObject({ allowed: true, remaining: 6 });
    expect(await store!.take(used, 1, SEVEN_PER_MINUTE)).toMatchObject({ allowed: false });
  });

  it('adds costs up', async () => {
    const [store] = backend.stores;
    const key = newKey();
    const eight = { units: 8, windowMs: 60_000 };
    expect(await store!.take(key, 3, eight)).toMatchObject({ allowed: true, remaining: 5 });
    expect(await store!.take(key, 5, eight)).toMatchObject({ allowed: true, remaining: 0 });
    const denied = await store!.take(key, 1, eight);
    expect(denied).toMatchObject({ allowed: false, remaining: 0 });
    expect(denied.retryAfterMs).toBeGreaterThan(0);
  });

  it('refills the bucket over its window', async () => {
    const [store] = backend.stores;
    const key = newKey();
    // A short window, as Redis keeps its own time and the test waits for it. Its interval is a
    // whole millisecond: otherwise, rounded up, the bucket would take up to `units` ms more to fill.
    const limit = { units: 3, windowMs: 300 };
    expect(await passed([store!], key, limit.units + 1, limit)).toBe(limit.units);
    if (backend.advance) backend.advance(limit.windowMs);
    else await new Promise((resolve) => setTimeout(resolve, limit.windowMs + 20));
    expect(await passed([store!], key, limit.units + 1, limit)).toBe(limit.units);
  });
}

/** The same, for two stores over separate clients. */
function sharesBucketsAcrossClients(open: () => Backend) {
  it('passes exactly the bucket of 40 concurrent takes through two clients', async () => {
    expect(await passed(open().stores, newKey(), 40)).toBe(7);
  });
}

/** A clock the test moves. */
function testClock() {
  let now = Date.now();
  return { clock: () => now, advance: (ms: number) => (now += ms) };
}

describe('MemoryRateLimitStore', () => {
  behavesAsABucket(() => {
    const { clock, advance } = testClock();
    return { stores: [new MemoryRateLimitStore({ clock })], advance };
  });
});

describe.each(testProviders())('DatabaseRateLimitStore (%s)', (provider) => {
  let db: TestDatabase;
  let second: ReturnType<typeof createSampleDatabase>;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
    second = createSampleDatabase(db.url);
  });
  afterAll(async () => {
    await second.prisma.$disconnect();
    await db.drop();
  });
  const model = () => db.modelMeta.models.RateLimitBucket!;
  const open = () => {
    const { clock, advance } = testClock();
    const stores = [db.prisma, second.prisma].map((client) => new DatabaseRateLimitStore(client, model(), { clock }));
    return { stores, advance };
  };

  behavesAsABucket(open);
  sharesBucketsAcrossClients(open);

  it('purges the buckets full by then, and keeps the others', async () => {
    const { clock, advance } = testClock();
    const store = new DatabaseRateLimitStore(db.prisma, model(), { clock });
    const [idle, busy] = [newKey(), newKey()];
    await store.take(idle, 1, { units: 10, windowMs: 1000 });
    await store.take(busy, 1, SEVEN_PER_MINUTE);
    advance(1000);
    await store.purgeIdle(clock());
    const ids = (await db.prisma.rateLimitBucket.findMany({ where: { id: { in: [idle, busy] } } })).map(
      (row) => row.id,
    );
    expect(ids).toEqual([busy]);
  });

  it('does not deny a take whose clock reading came before one it found counted', async () => {
    // Two units a second. The first take read the clock 5 ms after the second one did but wrote
    // first: the second, judged at its older reading, would find the bucket 5 ms short of room.
    const limit = { units: 2, windowMs: 1000 };
    const start = 1_000_000;
    const readings = [start, start + 10, start + 10, start + 10];
    const late = new DatabaseRateLimitStore(db.prisma, model(), { clock: () => start + 5 });
    const early = new DatabaseRateLimitStore(second.prisma, model(), { clock: () => readings.shift() ?? start + 10 });
    const key = newKey();
    expect((await late.take(key, 1, limit)).allowed).toBe(true);
    expect((await early.take(key, 1, limit)).allowed).toBe(true);
  });

  it('checks the model the application declares for the buckets', () => {
    expect(rateLimitModelProblems(model(), 'RateLimitBucket')).toEqual([]);
    expect(rateLimitModelProblems(db.modelMeta.models.Tag, 'Tag')).toContain(
      '"rateLimits.store.model": Tag.tat must be BigInt',
    );
  });
});

const redisUrl = process.env[REDIS_URL_VARIABLE];
const onRedis = redisUrl ? describe : describe.skip;

/** A client that fails a command at once while its server is away, reconnecting by itself; connecting. */
function failFastClient(url: string, options: RedisOptions = {}): { client: Redis; connected: Promise<void> } {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    ...options,
  });
  client.on('error', () => undefined);
  return { client, connected: client.connect() };
}

onRedis('RedisRateLimitStore', () => {
  const clients: Redis[] = [];
  beforeAll(async () => {
    const opened = [failFastClient(redisUrl!), failFastClient(redisUrl!)];
    clients.push(...opened.map(({ client }) => client));
    await Promise.all(opened.map(({ connected }) => connected));
  });
  afterAll(async () => {
    const ours = await clients[0]!.keys(`crud-api:rl:${run}:*`);
    if (ours.length > 0) await clients[0]!.del(...ours);
    clients.forEach((client) => client.disconnect());
  });
  const open = () => ({ stores: clients.map((client) => new RedisRateLimitStore(client)) });

  behavesAsABucket(open);
  sharesBucketsAcrossClients(open);

  it('lets an idle bucket expire once full again', async () => {
    const key = newKey();
    await new RedisRateLimitStore(clients[0]!).take(key, 2, SEVEN_PER_MINUTE);
    const ttl = await clients[0]!.pttl(`crud-api:rl:${key}`);
    expect(ttl).toBeGreaterThan(2 * 8572 - 1000);
    expect(ttl).toBeLessThanOrEqual(2 * 8572);
  });

  it('rejects within a second when the server is unreachable', async () => {
    const { client, connected } = failFastClient('redis://127.0.0.1:6390', { retryStrategy: () => 50 });
    connected.catch(() => undefined);
    try {
      const started = Date.now();
      await expect(new RedisRateLimitStore(client).take(newKey(), 1, SEVEN_PER_MINUTE)).rejects.toBeInstanceOf(
        RateLimitStoreError,
      );
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      client.disconnect();
    }
  });

  it('rejects while its server is down and answers again once it is back', async () => {
    const port = 6391;
    let server: ChildProcess | undefined;
    const start = async () => {
      server = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      // Listening once it answers: ask with redis-cli, which leaves nothing behind in this process.
      await eventually(() => execFileAsync('redis-cli', ['-p', String(port), 'ping']), 5000);
    };
    const kill = () =>
      new Promise((resolve) => {
        server!.once('exit', resolve);
        server!.kill('SIGKILL');
      });
    await start();
    const { client, connected } = failFastClient(`redis://127.0.0.1:${port}`, { retryStrategy: () => 50 });
    await connected;
    const store = new RedisRateLimitStore(client);
    const key = newKey();
    try {
      expect(await store.take(key, 1, SEVEN_PER_MINUTE)).toMatchObject({ allowed: true, remaining: 6 });
      await kill();
      const started = Date.now();
      await expect(store.take(key, 1, SEVEN_PER_MINUTE)).rejects.toBeInstanceOf(RateLimitStoreError);
      expect(Date.now() - started).toBeLessThan(1000);
      await start();
      // A fresh server: the bucket is full again.
      await eventually(
        async () => expect(await store.take(newKey(), 1, SEVEN_PER_MINUTE)).toMatchObject({ allowed: true }),
        5000,
      );
    } finally {
      client.disconnect();
      if (server?.exitCode === null) await kill();
    }
  });
});
