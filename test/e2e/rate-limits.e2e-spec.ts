/**
 * Rate limits over HTTP, on both interfaces and platforms: exact under concurrency on one and two
 * instances (the memory store on one; Redis and the database shared by two), costs as
 * docs/rate-limits.md's table says, the headers, callers apart, windows that refill, and a store
 * that fails, is killed and restarted: never a 500, never a hang, the documented fail mode.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';

import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Redis } from 'ioredis';
import request from 'supertest';

import { CrudApiModule, type CrudApiModuleOptions } from '../../lib/index.js';
import { createPlatformApp, createTestApp, TEST_ENDPOINT, type TestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** This run's callers: the shared Redis keeps buckets of earlier runs for their window. */
const RUN = randomUUID().slice(0, 8);
const caller = (name: string) => `${name}-${RUN}`;

type RateLimitsOption = NonNullable<CrudApiModuleOptions['rateLimits']>;

/** The caller is the `X-User` header; `X-Role: admin` makes it an admin. */
const context = (req: any) => ({
  user: req.headers['x-user'] ? { id: String(req.headers['x-user']), role: req.headers['x-role'] } : undefined,
});

/** A second instance of the module over the first one's database, as another server of the application would be. */
async function secondInstance(first: TestApp, rateLimits: RateLimitsOption): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      CrudApiModule.forRoot({
        endpoint: TEST_ENDPOINT,
        prisma: first.db.prisma,
        modelMeta: first.db.modelMeta,
        context,
        rateLimits,
      }),
    ],
  }).compile();
  return createPlatformApp(moduleRef);
}

/** `n` GETs of one post sent together by `user`, alternately to each app; the statuses. */
async function burst(apps: INestApplication[], path: string, n: number, user: string): Promise<number[]> {
  const sent = Array.from({ length: n }, (_unused, i) =>
    request(apps[i % apps.length]!.getHttpServer())
      .get(path)
      .set('X-User', user),
  );
  return (await Promise.all(sent)).map((res) => res.status);
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

/** The units left of `name` in a `RateLimit` header. */
function remaining(header: string | undefined, name: string): number | undefined {
  const item = header?.split(/,\s*/).find((part) => part.startsWith(`"${name}"`));
  const match = item && /;r=(\d+)/.exec(item);
  return match ? Number(match[1]) : undefined;
}

type StoreCase = {
  name: string;
  provider: ReturnType<typeof testProviders>[number];
  store: () => RateLimitsOption['store'];
};

const redisClients: Redis[] = [];
const redisStore = () => {
  const client = new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  redisClients.push(client);
  return { redis: client };
};
// disconnect, not quit: a client whose server the test killed would go on reconnecting, and keep Jest alive.
afterAll(() => redisClients.forEach((client) => client.disconnect()));

const STORES: StoreCase[] = [
  { name: 'memory', provider: 'sqlite', store: () => 'memory' },
  { name: 'redis', provider: 'sqlite', store: redisStore },
  ...testProviders().map((provider) => ({
    name: `database on ${provider}`,
    provider,
    store: () => ({ model: 'RateLimitBucket' }),
  })),
];

describe.each(STORES)('rate limits with the $name store', ({ provider, store, name }) => {
  const shared = name !== 'memory';
  let t: TestApp;
  let second: INestApplication | undefined;
  let postId: number;
  const rateLimits: RateLimitsOption = {
    store: store(),
    // Exactness is measured, not the fail mode: a slow store under a burst fails open at the default.
    storeTimeout: 10_000,
    limits: [
      { name: 'few', limit: 5, window: 3600, when: (ctx: any) => ctx.user?.id?.startsWith('few') },
      { name: 'cost', limit: 1000, window: 3600, when: (ctx: any) => ctx.user?.id?.startsWith('cost') },
      {
        name: 'writes',
        limit: 4,
        window: 3600,
        operations: ['write'],
        when: (ctx: any) => ctx.user?.id?.startsWith('w'),
      },
      { name: 'admins', limit: 2, window: 3600, when: (ctx: any) => ctx.user?.role === 'admin' },
      { name: 'fast', limit: 2, window: 1, when: (ctx: any) => ctx.user?.id?.startsWith('fast') },
    ],
  };
  beforeAll(async () => {
    t = await createTestApp(provider, { options: { context, rateLimits, idempotency: undefined } });
    const author = await t.db.prisma.user.create({ data: { email: `rl-${randomUUID()}@x.test`, name: 'A' } });
    postId = (await t.db.prisma.post.create({ data: { title: 'limited', authorId: author.id } })).id;
    if (shared) second = await secondInstance(t, rateLimits);
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });
  const apps = () => (second ? [t.app, second] : [t.app]);

  it(`exactly the limit passes under concurrency${shared ? ', across two instances' : ''}`, async () => {
    const statuses = await burst(apps(), `/api/rest/post/${postId}`, 16, caller('few-1'));
    expect([count(statuses, 200), count(statuses, 429)]).toEqual([5, 11]);
    // Another caller's bucket is its own.
    expect(count(await burst(apps(), `/api/rest/post/${postId}`, 7, caller('few-2')), 200)).toBe(5);
  });

  it('a refused request answers 429 too-many-requests with Retry-After and the headers, on both interfaces', async () => {
    await burst(apps(), `/api/rest/post/${postId}`, 5, caller('few-3'));
    const rest = await t.http().get(`/api/rest/post/${postId}`).set('X-User', caller('few-3')).expect(429);
    expect(rest.body.errors[0].code).toBe('too-many-requests');
    expect(Number(rest.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(rest.headers['ratelimit-policy']).toBe('"few";q=5;w=3600');
    expect(remaining(rest.headers.ratelimit, 'few')).toBe(0);
    const rpc = await t.http().get('/api/rpc/post/findMany').set('X-User', caller('few-3')).expect(429);
    expect(rpc.body.error.errorCode).toBe('too-many-requests');
    expect(rpc.headers['retry-after']).toBeDefined();
  });

  it('costs add up as documented, and errors carry the headers too', async () => {
    const user = `cost-${randomUUID()}`;
    const left = async (send: (agent: ReturnType<TestApp['http']>) => request.Test, status: number) => {
      const res = await send(t.http()).set('X-User', user).expect(status);
      expect(res.headers['ratelimit-policy']).toBe('"cost";q=1000;w=3600');
      return remaining(res.headers.ratelimit, 'cost')!;
    };
    const start = await left((h) => h.get(`/api/rest/post/${postId}`), 200); // read one: 1
    expect(start).toBe(999);
    expect(await left((h) => h.get('/api/rest/post?include=author,comments.author'), 200)).toBe(999 - 2 - 3);
    expect(await left((h) => h.get('/api/rest/post/999999'), 404)).toBe(994 - 1);
    const q = encodeURIComponent(JSON.stringify({ include: { author: true }, take: 2 }));
    expect(await left((h) => h.get(`/api/rpc/post/findMany?q=${q}`), 200)).toBe(993 - 2 - 1);
    const author = await t.db.prisma.user.findFirstOrThrow();
    const steps = [
      { model: 'post', op: 'create', args: { data: { title: 'in tx', authorId: author.id } } },
      { model: 'post', op: 'findMany', args: { select: { id: true, author: true } } },
    ];
    expect(await left((h) => h.post('/api/rpc/$transaction/sequential').send(steps), 200)).toBe(990 - 3 - 2 - 1);
    const atomic = {
      'atomic:operations': [
        { op: 'add', data: { type: 'post', attributes: { title: 'a1', authorId: author.id } } },
        { op: 'add', data: { type: 'post', attributes: { title: 'a2', authorId: author.id } } },
      ],
    };
    const ext = `${JSON_API};ext="https://jsonapi.org/ext/atomic"`;
    expect(
      await left((h) => h.post('/api/rest/operations').set('Content-Type', ext).set('Accept', ext).send(atomic), 200),
    ).toBe(984 - 6);
  });

  it('a limit counts only its operations: reads leave a writes limit untouched', async () => {
    const user = `w-${randomUUID()}`;
    const read = await t.http().get(`/api/rest/post/${postId}`).set('X-User', user).expect(200);
    expect(read.headers['ratelimit-policy']).toBeUndefined();
    const write = () =>
      t
        .http()
        .patch(`/api/rpc/post/update`)
        .set('X-User', user)
        .send({ where: { id: postId }, data: { rating: 2 } });
    expect(remaining((await write().expect(200)).headers.ratelimit, 'writes')).toBe(1);
    expect((await write()).status).toBe(429);
  });

  it('a limit applies to the callers its `when` selects', async () => {
    const statuses = await burst(apps(), `/api/rest/post/${postId}`, 4, `admin-${randomUUID()}`);
    expect(count(statuses, 200)).toBe(4); // not an admin: no limit
    const admin = `admin-${randomUUID()}`;
    const sent = await Promise.all(
      Array.from({ length: 4 }, () =>
        request(t.app.getHttpServer()).get(`/api/rest/post/${postId}`).set('X-User', admin).set('X-Role', 'admin'),
      ),
    );
    expect(
      count(
        sent.map((res) => res.status),
        200,
      ),
    ).toBe(2);
  });

  it('the window refills the bucket', async () => {
    const user = `fast-${randomUUID()}`;
    expect(count(await burst(apps(), `/api/rest/post/${postId}`, 3, user), 200)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(count(await burst(apps(), `/api/rest/post/${postId}`, 3, user), 200)).toBe(2);
  });
});

describe('rate limits without the option', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { options: { context } });
  });
  afterAll(() => t.close());

  it('answers carry no rate limit headers', async () => {
    const res = await t.http().get('/api/rest/post').set('X-User', 'any').expect(200);
    expect(res.headers['ratelimit-policy']).toBeUndefined();
    expect(res.headers.ratelimit).toBeUndefined();
  });
});

describe('a Redis store that fails', () => {
  const PORT = 6300 + Math.floor(Math.random() * 80);
  let server: ChildProcess | undefined;
  const startRedis = async () => {
    server = spawn('redis-server', ['--port', String(PORT), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const probe = new Redis({ port: PORT, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        await probe.connect();
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    probe.disconnect();
  };
  const killRedis = () => {
    server?.kill('SIGKILL');
    server = undefined;
  };
  afterAll(() => killRedis());

  const appWith = async (onStoreError: 'open' | 'closed') => {
    const client = new Redis({
      port: PORT,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => 50,
    });
    redisClients.push(client);
    const rateLimits: RateLimitsOption = {
      store: { redis: client },
      onStoreError,
      limits: [{ name: 'all', limit: 1000, window: 60 }],
    };
    return createTestApp('sqlite', { options: { context, rateLimits } });
  };

  it.each(['open', 'closed'] as const)(
    'killed and restarted under load: no 500, no hang, onStoreError %s',
    async (mode) => {
      await startRedis();
      const t = await appWith(mode);
      try {
        const send = async () =>
          (await request(t.app.getHttpServer()).get('/api/rest/post').set('X-User', caller('k'))).status;
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(await send()).toBe(200);
        killRedis();
        const down = await Promise.all(Array.from({ length: 10 }, send));
        expect(down.every((status) => status === (mode === 'open' ? 200 : 503))).toBe(true);
        if (mode === 'closed') {
          const res = await request(t.app.getHttpServer()).get('/api/rest/post').set('X-User', caller('k'));
          expect(res.body.errors[0].code).toBe('rate-limit-store-unavailable');
          expect(res.headers['retry-after']).toBe('1');
        }
        await startRedis();
        let back = 0;
        for (let attempt = 0; attempt < 50 && back === 0; attempt++) {
          const res = await request(t.app.getHttpServer()).get('/api/rest/post').set('X-User', caller('k'));
          if (res.status === 200 && res.headers.ratelimit) back = 1;
          else await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(back).toBe(1);
      } finally {
        killRedis();
        await t.close();
      }
    },
  );
});
