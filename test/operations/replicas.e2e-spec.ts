/**
 * The `replicas` option on a primary and two streaming replicas of the test's own (pg_basebackup),
 * served by two application instances: no read shows a caller a state older than its last
 * acknowledged write, across instances and read shapes, while the replicas' replay is paused and
 * resumed at random; reads without a token stay within `maxLag`; a paused replica makes token reads
 * wait or go to the primary as configured; a replica stopped, restarted or promoted under load
 * costs no 500 and no hang.
 */
import { execFileSync } from 'node:child_process';

import { Test } from '@nestjs/testing';
import request from 'supertest';

import { createSampleDatabase, type SampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import { pushSchemaIfEmpty } from '../../fixtures/blog/database/prepare-database.js';
import { PrismaClientResolver } from '../../lib/data/prisma-client.resolver.js';
import { CrudApiHealth, CrudApiModule, type CrudApiModuleOptions } from '../../lib/index.js';
import type { ReplicaSet } from '../../lib/replicas/replica-set.js';
import { parseWalPosition } from '../../lib/shared/consistency-token.js';
import { openLiveQuery } from '../support/event-stream-client.js';
import { canCreatePgCluster, createPgCluster, createPgReplica, type PgCluster } from '../support/pg-cluster.js';
import { postDocument } from '../support/rest-fixtures.js';
import { seededRandom } from '../support/seeded-random.js';
import { createPlatformApp, TEST_ENDPOINT } from '../support/test-app.js';
import { testProviders, withPg } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const TOKEN = 'consistency-token';
const onCluster = testProviders().includes('postgresql') && canCreatePgCluster() ? describe : describe.skip;

const databaseUrl = (url: string, database: string) => {
  const named = new URL(url);
  named.pathname = `/${database}`;
  return named.toString();
};

type ReplicasOption = NonNullable<CrudApiModuleOptions['replicas']>;

interface Instance {
  url: string;
  http: () => ReturnType<typeof request>;
  replicas: ReplicaSet;
  health: CrudApiHealth;
  close(): Promise<void>;
}

onCluster('replicas: a caller never reads older than its own writes', () => {
  let primary: PgCluster;
  let standbys: PgCluster[];
  const databases: SampleDatabase[] = [];
  const instances: Instance[] = [];
  let authorId: number;

  const onStandby = (index: number, sql: string) => withPg(databaseUrl(standbys[index]!.url, 'postgres'), sql);
  const pause = (index: number) => onStandby(index, 'SELECT pg_wal_replay_pause()');
  const resume = (index: number) => onStandby(index, 'SELECT pg_wal_replay_resume()');

  /** An instance with its own clients (its own pools) of the primary and of each standby. */
  async function startInstance(
    settings: Partial<ReplicasOption> = {},
    options: Partial<CrudApiModuleOptions> = {},
  ): Promise<Instance> {
    const [onPrimary, ...onReplicas] = [primary, ...standbys].map((server) => {
      const database = createSampleDatabase(databaseUrl(server.url, 'blog'));
      databases.push(database);
      return database;
    });
    const moduleRef = await Test.createTestingModule({
      imports: [
        CrudApiModule.forRoot({
          endpoint: TEST_ENDPOINT,
          prisma: onPrimary!.prisma,
          modelMeta: onPrimary!.modelMeta,
          replicas: {
            clients: onReplicas.map((database) => database.prisma),
            maxLag: 400,
            maxWait: 250,
            pollInterval: 40,
            ...settings,
          },
          ...options,
        }),
      ],
    }).compile();
    const app = await createPlatformApp(moduleRef);
    await app.listen(0, '127.0.0.1');
    const instance = {
      url: (await app.getUrl()).replace('[::1]', '127.0.0.1'),
      http: () => request(app.getHttpServer()),
      replicas: app.get(PrismaClientResolver).replicas!,
      health: app.get(CrudApiHealth),
      close: () => app.close(),
    };
    instances.push(instance);
    return instance;
  }

  /** Creates a post through `instance`: its id, and the token its answer carries. */
  const createPost = async (instance: Instance, title: string, cookie?: boolean) => {
    const res = await instance
      .http()
      .post('/api/rest/post')
      .set('content-type', JSON_API)
      .send(postDocument(title, authorId))
      .expect(201);
    return {
      id: Number(res.body.data.id),
      token: res.headers[TOKEN] as string,
      cookie: cookie ? String(res.headers['set-cookie']).split(';')[0]! : undefined,
    };
  };

  /** Renames post `id` through `instance`: its answer, whose token follows the write. */
  const retitle = (instance: Instance, id: number, title: string) =>
    instance
      .http()
      .patch(`/api/rest/post/${id}`)
      .set('content-type', JSON_API)
      .send({ data: { type: 'post', id: String(id), attributes: { title } } })
      .expect(200);

  const eventually = async (check: () => boolean, ms = 10_000) => {
    const until = Date.now() + ms;
    while (!check()) {
      if (Date.now() > until) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  beforeAll(async () => {
    primary = await createPgCluster();
    await withPg(primary.url, 'CREATE DATABASE blog');
    await pushSchemaIfEmpty(databaseUrl(primary.url, 'blog'));
    standbys = [await createPgReplica(primary), await createPgReplica(primary)];
    const admin = createSampleDatabase(databaseUrl(primary.url, 'blog'));
    databases.push(admin);
    authorId = (await admin.prisma.user.create({ data: { email: 'replicas@example.com', name: 'R' } })).id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await Promise.all(databases.map((database) => database.prisma.$disconnect()));
    await Promise.all((standbys ?? []).map((standby) => standby.remove()));
    await primary?.remove();
  });

  describe('two instances sharing the servers', () => {
    let a: Instance;
    let b: Instance;
    beforeAll(async () => {
      a = await startInstance();
      b = await startInstance();
      await Promise.all([0, 1].map(resume));
    });
    afterEach(() => Promise.all([0, 1].map(resume)));

    /** A read of a caller's post in one of five shapes, sent with `token`: the version it shows, or its 304. */
    async function readVersion(
      instance: Instance,
      id: number,
      shape: number,
      token: string | undefined,
      etag?: string,
    ): Promise<{ version?: number; etag?: string; status: number }> {
      const paths = [
        `/api/rest/post/${id}`,
        `/api/rest/post?filter[id]=${id}`,
        `/api/rpc/post/findUnique?q=${encodeURIComponent(JSON.stringify({ where: { id } }))}`,
        `/api/rpc/post/findMany?q=${encodeURIComponent(JSON.stringify({ where: { id } }))}`,
        `/api/rest/user/${authorId}/posts?filter[id]=${id}`,
      ];
      let call = instance.http().get(paths[shape]!);
      if (token) call = call.set('Consistency-Token', token);
      if (etag) call = call.set('If-None-Match', etag);
      const res = await call;
      if (res.status === 304) return { status: 304, etag };
      expect(res.status).toBe(200);
      const body = res.body;
      const row = shape === 2 ? body.data : shape === 3 ? body.data[0] : shape === 0 ? body.data : body.data[0];
      const title: string = row.attributes?.title ?? row.title;
      return { version: Number(title.split(' v')[1]), etag: res.headers.etag, status: 200 };
    }

    it.each([11, 22, 33])(
      'generated (seed %i): every read shows at least the last write its caller saw acknowledged',
      async (seed) => {
        const random = seededRandom(seed);
        const callers = await Promise.all(
          [0, 1, 2].map(async (index) => {
            const { id, token } = await createPost(a, `caller ${index} v0`);
            return { id, token: token as string | undefined, acked: 0, etag: undefined as string | undefined };
          }),
        );
        const paused = [false, false];
        const before = a.replicas.counts.replica + b.replicas.counts.replica;
        const tokenFallbacks = a.replicas.counts.primaryForToken + b.replicas.counts.primaryForToken;
        for (let step = 0; step < 80; step++) {
          const draw = random.next();
          const caller = random.pick(callers);
          const instance = random.pick([a, b]);
          if (draw < 0.1) {
            const index = random.int(2);
            paused[index] = !paused[index];
            await (paused[index] ? pause(index) : resume(index));
          } else if (draw < 0.2) {
            const pausing = draw < 0.15;
            await Promise.all([0, 1].map((index) => (pausing ? pause(index) : resume(index))));
            paused.fill(pausing);
          } else if (draw < 0.5) {
            const version = caller.acked + 1;
            const res = await retitle(instance, caller.id, `caller v${version}`);
            expect(res.headers[TOKEN]).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
            caller.acked = version;
            caller.token = res.headers[TOKEN];
          } else {
            const read = await readVersion(instance, caller.id, random.int(5), caller.token, caller.etag);
            if (read.status === 304) {
              // Not modified: the tag's version is still the row's, so at least the acknowledged one.
              expect(caller.etag).toBeDefined();
            } else {
              expect(read.version).toBeGreaterThanOrEqual(caller.acked);
              caller.etag = random.next() < 0.5 ? read.etag : undefined;
            }
          }
        }
        await Promise.all([0, 1].map(resume));
        // Both routes were taken: replicas served reads, and paused ones sent token reads to the primary.
        expect(a.replicas.counts.replica + b.replicas.counts.replica).toBeGreaterThan(before);
        expect(a.replicas.counts.primaryForToken + b.replicas.counts.primaryForToken).toBeGreaterThan(tokenFallbacks);
      },
      60_000,
    );

    it('answers a conditional GET 200, not 304, once the caller wrote after the tag it sends', async () => {
      const { id, token } = await createPost(a, 'tagged v0');
      const first = await readVersion(b, id, 0, token);
      await Promise.all([0, 1].map(pause));
      const res = await retitle(a, id, 'tagged v1');
      const again = await readVersion(b, id, 0, res.headers[TOKEN], first.etag);
      expect(again).toMatchObject({ status: 200, version: 1 });
    });

    it('keeps reads without a token within maxLag: a stale replica serves none', async () => {
      const { id } = await createPost(a, 'lagging v0');
      await pause(0);
      await pause(1);
      await retitle(a, id, 'lagging v1');
      // maxLag (400 ms) and two checks (40 ms each) later, the paused replicas are too stale.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const lagging = b.replicas.counts.primaryForLag;
      expect((await readVersion(b, id, 2, undefined)).version).toBe(1);
      expect(b.replicas.counts.primaryForLag).toBe(lagging + 1);
    });

    it('waits for a replica to replay a token, up to maxWait, and serves it there', async () => {
      const { id } = await createPost(a, 'waiting v0');
      await pause(0);
      await pause(1);
      const res = await retitle(a, id, 'waiting v1');
      const counts = { ...b.replicas.counts };
      const read = readVersion(b, id, 0, res.headers[TOKEN]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await resume(1);
      expect((await read).version).toBe(1);
      expect(b.replicas.counts.replica).toBe(counts.replica + 1);
      expect(b.replicas.counts.primaryForToken).toBe(counts.primaryForToken);
    });

    it.each(['RPC update', 'RPC $transaction/sequential', 'atomic operations'])(
      'a write by %s answers a token that reads honour with the replicas behind',
      async (shape) => {
        const { id } = await createPost(a, 'shapes v0');
        await Promise.all([0, 1].map(pause));
        const update = { where: { id }, data: { title: 'shapes v1' } };
        const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
        const write =
          shape === 'RPC update'
            ? a.http().patch('/api/rpc/post/update').send(update)
            : shape === 'RPC $transaction/sequential'
              ? a
                  .http()
                  .post('/api/rpc/$transaction/sequential')
                  .send([{ model: 'Post', op: 'update', args: update }])
              : a
                  .http()
                  .post('/api/rest/operations')
                  .set('content-type', ATOMIC)
                  .set('accept', ATOMIC)
                  .send({
                    'atomic:operations': [
                      { op: 'update', data: { type: 'post', id: String(id), attributes: { title: 'shapes v1' } } },
                    ],
                  });
        const res = await write;
        expect(res.status).toBeLessThan(300);
        expect(res.headers[TOKEN]).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
        expect((await readVersion(b, id, 2, res.headers[TOKEN])).version).toBe(1);
      },
    );

    it('refuses a token that names no position', async () => {
      const res = await a.http().get('/api/rest/post').set('Consistency-Token', 'yesterday');
      expect(res.status).toBe(400);
      expect(res.body.errors[0].code).toBe('invalid-request');
    });
  });

  describe('behind: primary, and a token in a cookie', () => {
    let c: Instance;
    beforeAll(async () => {
      c = await startInstance({ behind: 'primary', maxWait: 5000, cookie: 'crud_token' });
    });
    afterEach(() => Promise.all([0, 1].map(resume)));

    it('reads the primary at once when no replica has replayed the cookie token', async () => {
      await Promise.all([0, 1].map(pause));
      const created = await createPost(c, 'cookie v0', true);
      expect(created.cookie).toMatch(/^crud_token=[0-9A-F]+\/[0-9A-F]+$/);
      const counts = { ...c.replicas.counts };
      await c.http().get(`/api/rest/post/${created.id}`).set('Cookie', created.cookie!).expect(200);
      expect(c.replicas.counts.primaryForToken).toBe(counts.primaryForToken + 1);
      expect(c.replicas.counts.replica).toBe(counts.replica);
    });
  });

  describe('live queries and idempotent retries', () => {
    let e: Instance;
    beforeAll(async () => {
      e = await startInstance({}, { live: {}, idempotency: { model: 'IdempotencyKey' } });
    });
    afterEach(() => Promise.all([0, 1].map(resume)));

    it("runs a live query's reads on the primary: it follows commits the replicas have not replayed", async () => {
      await Promise.all([0, 1].map(pause));
      const { id } = await createPost(e, 'live v0');
      const served = e.replicas.counts.replica;
      const stream = await openLiveQuery(`${e.url}/api/rest/post/${id}`);
      try {
        expect(stream.status).toBe(200);
        expect((await stream.nth(1)) as { data: { attributes: { title: string } } }).toMatchObject({
          data: { attributes: { title: 'live v0' } },
        });
        await retitle(e, id, 'live v1');
        expect(await stream.nth(2)).toMatchObject({ data: { attributes: { title: 'live v1' } } });
        expect(e.replicas.counts.replica).toBe(served);
      } finally {
        stream.close();
      }
    });

    it('answers a replayed write with a token at least as recent as the first answer', async () => {
      const key = `replicas-${Math.random()}`;
      const send = () =>
        e
          .http()
          .post('/api/rest/post')
          .set('content-type', JSON_API)
          .set('Idempotency-Key', key)
          .send(postDocument('once v0', authorId))
          .expect(201);
      const first = await send();
      await createPost(e, 'meanwhile v0');
      const replayed = await send();
      expect(replayed.body).toEqual(first.body);
      expect(parseWalPosition(replayed.headers[TOKEN])!).toBeGreaterThanOrEqual(
        parseWalPosition(first.headers[TOKEN])!,
      );
    });
  });

  describe('replicas that fail', () => {
    let d: Instance;
    beforeAll(async () => {
      await Promise.all([0, 1].map(resume));
      d = await startInstance();
    });

    /** `count` reads sent 8 at a time, half of them with a token; their statuses. */
    async function load(
      count: number,
      token: string,
      during?: () => Promise<unknown>,
      instance: Instance = d,
    ): Promise<number[]> {
      const statuses: number[] = [];
      let next = 0;
      const worker = async () => {
        while (next < count) {
          const index = next++;
          const call = instance.http().get('/api/rest/post?page[limit]=5').timeout(10_000);
          statuses.push((await (index % 2 ? call.set('Consistency-Token', token) : call)).status);
        }
      };
      await Promise.all([...Array.from({ length: 8 }, worker), during?.()]);
      return statuses;
    }

    it('moves reads on when a replica stops mid-load, and back once it is up again', async () => {
      const { token } = await createPost(d, 'stopping v0');
      const statuses = await load(300, token, async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await standbys[0]!.stop();
      });
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      await eventually(() => !d.replicas.states()[0]!.healthy);
      await standbys[0]!.start();
      await eventually(() => d.replicas.states()[0]!.healthy);
      expect((await load(20, token)).every((status) => status === 200)).toBe(true);
    }, 60_000);

    it('moves reads on from a replica that stops answering without closing its connections', async () => {
      const f = await startInstance({ readTimeout: 300 });
      const { token } = await createPost(f, 'frozen v0');
      await eventually(() => f.replicas.states()[0]!.healthy);
      // The server and its sessions stopped, their sockets open: as a frozen host or a partition.
      const postmaster = execFileSync('pgrep', ['-f', '--', `-p ${standbys[0]!.port} `])
        .toString()
        .trim()
        .split('\n');
      const sessions = postmaster.flatMap((pid) => execFileSync('pgrep', ['-P', pid]).toString().trim().split('\n'));
      const pids = [...postmaster, ...sessions].map(Number);
      pids.forEach((pid) => process.kill(pid, 'SIGSTOP'));
      try {
        const statuses = await load(40, token, undefined, f);
        expect(statuses.filter((status) => status !== 200)).toEqual([]);
        expect(f.replicas.counts.retriedOnPrimary).toBeGreaterThan(0);
        await eventually(() => !f.replicas.states()[0]!.healthy);
      } finally {
        pids.forEach((pid) => process.kill(pid, 'SIGCONT'));
      }
      await eventually(() => f.replicas.states()[0]!.healthy);
    }, 60_000);

    it('stops reading a promoted replica, and says so in the health check', async () => {
      await onStandby(1, 'SELECT pg_promote()');
      await eventually(() => !d.replicas.states()[1]!.healthy);
      const health = await d.health.check('database');
      expect(health.database).toMatchObject({ status: 'up', replicas: [{ healthy: true }, { healthy: false }] });
      const { token } = await createPost(d, 'promoted v0');
      expect((await load(20, token)).every((status) => status === 200)).toBe(true);
    }, 30_000);
  });
});
