import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { readReplicas } from '@prisma/extension-read-replicas';
import pg from 'pg';
import request from 'supertest';

import { createSampleDatabase, type SampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import { pushSchemaIfEmpty } from '../../fixtures/blog/database/prepare-database.js';
import { type ChangeEvent, CrudApiModule, type CrudApiModuleOptions } from '../../lib/index.js';
import {
  canCreatePgCluster,
  createPgCluster,
  createPgReplica,
  hasPgBouncer,
  type PgCluster,
  startPgBouncer,
} from '../support/pg-cluster.js';
import { postDocument } from '../support/rest-fixtures.js';
import { callRpc } from '../support/rpc-client.js';
import { createPlatformApp, TEST_ENDPOINT } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase, testProviders, withPg } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const onPostgres = testProviders().includes('postgresql') ? describe : describe.skip;

/** The URL of `database` on the server that `url` points at. */
function databaseUrl(url: string, database: string): string {
  const named = new URL(url);
  named.pathname = `/${database}`;
  return named.toString();
}

interface Instance {
  app: INestApplication;
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

/** One application instance: its own Nest application and its own Prisma client (its own pool). */
async function startInstance(
  options: Partial<CrudApiModuleOptions> & Pick<CrudApiModuleOptions, 'prisma' | 'modelMeta'>,
): Promise<Instance> {
  const moduleRef = await Test.createTestingModule({
    imports: [CrudApiModule.forRoot({ endpoint: TEST_ENDPOINT, ...options })],
  }).compile();
  const app = await createPlatformApp(moduleRef);
  return { app, http: () => request(app.getHttpServer()), close: () => app.close() };
}

const createPost = (instance: Instance, title: string, authorId: number) =>
  instance.http().post('/api/rest/post').set('content-type', JSON_API).send(postDocument(title, authorId));

async function newAuthor(prisma: SampleDatabase['prisma']): Promise<number> {
  return (
    await prisma.user.create({ data: { email: `${Math.random().toString(36).slice(2)}@example.com`, name: 'A' } })
  ).id;
}

onPostgres('scaling out on PostgreSQL', () => {
  describe('two application instances over one database', () => {
    let db: TestDatabase;
    let second: SampleDatabase;
    let a: Instance;
    let b: Instance;
    const heard: { a: ChangeEvent[]; b: ChangeEvent[] } = { a: [], b: [] };
    let authorId: number;

    beforeAll(async () => {
      db = await createTestDatabase('postgresql');
      second = createSampleDatabase(db.url);
      a = await startInstance({
        prisma: db.prisma,
        modelMeta: db.modelMeta,
        onChange: (event) => void heard.a.push(event),
      });
      b = await startInstance({
        prisma: second.prisma,
        modelMeta: second.modelMeta,
        onChange: (event) => void heard.b.push(event),
      });
      authorId = await newAuthor(db.prisma);
    });

    afterAll(async () => {
      await a.close();
      await b.close();
      await second.prisma.$disconnect();
      await db.drop();
    });

    it('reads on one instance what the other wrote, at once', async () => {
      const created = await createPost(a, 'written on A', authorId).expect(201);
      const read = await b.http().get(`/api/rest/post/${created.body.data.id}`).expect(200);
      expect(read.body.data.attributes.title).toBe('written on A');
    });

    it('follows a cursor page link made by one instance on the other', async () => {
      for (let i = 0; i < 5; i += 1) await createPost(a, `page ${i}`, authorId).expect(201);
      const first = await a.http().get('/api/rest/post?page[size]=2&sort=id').expect(200);
      const next = new URL(first.body.links.next as string);
      const onB = await b.http().get(`${next.pathname}${next.search}`).expect(200);
      const onA = await a.http().get(`${next.pathname}${next.search}`).expect(200);
      expect(onB.body.data).toEqual(onA.body.data);
      expect(onB.body.data.length).toBe(2);
    });

    it('loses no update when both instances change the same row concurrently', async () => {
      const post = await db.prisma.post.create({ data: { title: 'counter', authorId, rating: 0 } });
      const increment = (instance: Instance) =>
        callRpc({ http: instance.http }, 'patch', 'post/update', {
          where: { id: post.id },
          data: { rating: { increment: 1 } },
        });
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => increment(i % 2 ? a : b)));
      expect(replies.map((reply) => reply.status)).toEqual(Array(20).fill(200));
      expect((await db.prisma.post.findUniqueOrThrow({ where: { id: post.id } })).rating).toBe(20);
    });

    it('delivers each committed change once, to the listeners of the instance that made it', async () => {
      heard.a.length = 0;
      heard.b.length = 0;
      const onA = await createPost(a, 'heard on A', authorId).expect(201);
      const onB = await createPost(b, 'heard on B', authorId).expect(201);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard.a.map((event) => event.id)).toEqual([{ id: Number(onA.body.data.id) }]);
      expect(heard.b.map((event) => event.id)).toEqual([{ id: Number(onB.body.data.id) }]);
    });
  });

  (hasPgBouncer() || process.env.REQUIRE_POSTGRES ? describe : describe.skip)(
    'through PgBouncer in transaction pooling mode',
    () => {
      let db: TestDatabase;
      let pooled: SampleDatabase;
      let bouncer: Awaited<ReturnType<typeof startPgBouncer>>;
      let instance: Instance;
      let authorId: number;

      beforeAll(async () => {
        db = await createTestDatabase('postgresql');
        const shared = new URL(db.url);
        const name = shared.pathname.slice(1);
        // PgBouncer refuses settings sent when a connection opens: the database carries the bounds.
        await withPg(db.url, `ALTER DATABASE ${name} SET lock_timeout = '500ms'`);
        bouncer = await startPgBouncer(Number(shared.port || 5432), 4);
        pooled = createSampleDatabase(bouncer.url(name));
        instance = await startInstance({
          prisma: pooled.prisma,
          modelMeta: pooled.modelMeta,
          policies: { Post: { read: true, create: true, update: true, delete: true }, User: { read: true } },
        });
        authorId = await newAuthor(db.prisma);
      });

      afterAll(async () => {
        await instance?.close();
        await pooled?.prisma.$disconnect();
        await bouncer?.stop();
        await db?.drop();
      });

      it('serves concurrent reads, policy writes and transactions with fewer server connections than requests', async () => {
        const writes = Array.from({ length: 12 }, (_, i) => createPost(instance, `pooled ${i}`, authorId));
        const transactions = Array.from({ length: 6 }, (_, i) =>
          callRpc({ http: instance.http }, 'post', '$transaction/sequential', [
            { model: 'Post', op: 'create', args: { data: { title: `tx ${i} a`, authorId } } },
            { model: 'Post', op: 'create', args: { data: { title: `tx ${i} b`, authorId } } },
          ]),
        );
        const reads = Array.from({ length: 12 }, () => instance.http().get('/api/rest/post?page[limit]=5'));
        const [written, committed, read] = await Promise.all([
          Promise.all(writes),
          Promise.all(transactions),
          Promise.all(reads),
        ]);
        expect(written.map((res) => res.status)).toEqual(Array(12).fill(201));
        expect(committed.map((reply) => reply.status)).toEqual(Array(6).fill(200));
        expect(read.map((res) => res.status)).toEqual(Array(12).fill(200));
        expect(await db.prisma.post.count({ where: { title: { startsWith: 'pooled' } } })).toBe(12);
        expect(await db.prisma.post.count({ where: { title: { startsWith: 'tx ' } } })).toBe(12);
      });

      it('bounds a wait for a locked table with the database’s own setting, the other tables answering', async () => {
        const locker = new pg.Client({ connectionString: db.url });
        await locker.connect();
        try {
          await locker.query('BEGIN');
          await locker.query('LOCK TABLE "Post" IN ACCESS EXCLUSIVE MODE');
          const [posts, users] = await Promise.all([
            instance.http().get('/api/rest/post'),
            instance.http().get('/api/rest/user'),
          ]);
          expect([posts.status, posts.body.errors[0].code]).toEqual([504, 'database-timeout']);
          expect(users.status).toBe(200);
        } finally {
          await locker.query('ROLLBACK');
          await locker.end();
        }
      });

      it('rolls an atomic request back whole through the pooler', async () => {
        const res = await instance
          .http()
          .post('/api/rest/operations')
          .set('content-type', 'application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"')
          .set('accept', 'application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"')
          .send({
            'atomic:operations': [
              {
                op: 'add',
                data: {
                  type: 'post',
                  attributes: { title: 'atomic kept?' },
                  relationships: { author: { data: { type: 'user', id: authorId } } },
                },
              },
              {
                op: 'add',
                data: {
                  type: 'post',
                  attributes: { title: 'atomic bad' },
                  relationships: { author: { data: { type: 'user', id: 999999 } } },
                },
              },
            ],
          });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(await db.prisma.post.count({ where: { title: { startsWith: 'atomic' } } })).toBe(0);
      });
    },
  );

  (canCreatePgCluster() ? describe : describe.skip)(
    'reads on a streaming replica (Prisma read-replicas extension)',
    () => {
      let primary: PgCluster;
      let replica: PgCluster;
      let onPrimary: SampleDatabase & { queries: string[] };
      let onReplica: SampleDatabase & { queries: string[] };
      let instance: Instance;
      let authorId: number;

      const withQueries = (database: SampleDatabase): SampleDatabase & { queries: string[] } => {
        const queries: string[] = [];
        (database.prisma as unknown as { $on(event: 'query', cb: (e: { query: string }) => void): void }).$on(
          'query',
          (event) => queries.push(event.query),
        );
        return { ...database, queries };
      };

      beforeAll(async () => {
        primary = await createPgCluster();
        await withPg(primary.url, 'CREATE DATABASE blog');
        await pushSchemaIfEmpty(databaseUrl(primary.url, 'blog'));
        replica = await createPgReplica(primary);
        // A commit returns once the replica has applied it: a caller reads its own write there.
        await withPg(primary.url, "ALTER SYSTEM SET synchronous_standby_names = '*'");
        await withPg(primary.url, "ALTER SYSTEM SET synchronous_commit = 'remote_apply'");
        await withPg(primary.url, 'SELECT pg_reload_conf()');
        onPrimary = withQueries(createSampleDatabase(databaseUrl(primary.url, 'blog'), { emitQueryEvents: true }));
        onReplica = withQueries(createSampleDatabase(databaseUrl(replica.url, 'blog'), { emitQueryEvents: true }));
        const prisma = onPrimary.prisma.$extends(readReplicas({ replicas: [onReplica.prisma as never] }));
        instance = await startInstance({ prisma: prisma as never, modelMeta: onPrimary.modelMeta });
        authorId = await newAuthor(onPrimary.prisma);
      }, 60_000);

      afterAll(async () => {
        await instance?.close();
        await onPrimary?.prisma.$disconnect();
        await onReplica?.prisma.$disconnect();
        await replica?.remove();
        await primary?.remove();
      });

      it('sends reads to the replica, and writes and transactions to the primary', async () => {
        onPrimary.queries.length = 0;
        onReplica.queries.length = 0;
        await instance.http().get('/api/rest/post').expect(200);
        await callRpc({ http: instance.http }, 'get', 'post/findMany', { take: 2 });
        expect(onReplica.queries.length).toBeGreaterThan(0);
        expect(onPrimary.queries).toEqual([]);

        onReplica.queries.length = 0;
        await createPost(instance, 'to the primary', authorId).expect(201);
        const tx = await callRpc({ http: instance.http }, 'post', '$transaction/sequential', [
          { model: 'Post', op: 'findMany', args: { take: 1 } },
          { model: 'Post', op: 'create', args: { data: { title: 'in a transaction', authorId } } },
        ]);
        expect(tx.status).toBe(200);
        expect(onReplica.queries).toEqual([]);
        expect(onPrimary.queries.some((sql) => sql.startsWith('INSERT'))).toBe(true);
      });

      it('lets a caller read its own write at once', async () => {
        for (let i = 0; i < 20; i += 1) {
          const created = await createPost(instance, `read back ${i}`, authorId).expect(201);
          const read = await instance.http().get(`/api/rest/post/${created.body.data.id}`);
          expect(read.status).toBe(200);
        }
      });
    },
  );
});
