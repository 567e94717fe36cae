import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';
import type TestAgent from 'supertest/lib/agent.js';

import { createSampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import type { CrudApiRules } from '../../lib/index.js';
import { snapshotDatabase } from '../support/db-snapshot.js';
import { createAppOver, TEST_IDEMPOTENCY, type TestAppHandle, useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
const q = (args: unknown) => encodeURIComponent(JSON.stringify(args));
const newKey = () => `"${randomUUID()}"`;

/** Holds the creates of tags named `slow…` until released: a request that is still running. */
class Gate {
  private release!: () => void;
  private reached!: () => void;
  readonly open = new Promise<void>((resolve) => (this.release = resolve));
  readonly entered = new Promise<void>((resolve) => (this.reached = resolve));

  wait(): Promise<void> {
    this.reached();
    return this.open;
  }

  pass(): void {
    this.release();
  }
}

let gate: Gate | undefined;
const gatedRules: CrudApiRules = {
  Tag: {
    beforeCreate: async ({ data }) => {
      if (String(data.name).startsWith('slow') && gate) await gate.wait();
    },
  },
};

interface Ids {
  userId: number;
  postId: number;
  tagId: number;
}

/** Every kind of write of both interfaces, each a fresh request on fresh rows. */
const WRITES: Record<string, (http: () => TestAgent, ids: Ids, n: string) => ReturnType<TestAgent['post']>> = {
  'REST create': (agent, _ids, n) =>
    agent()
      .post('/api/rest/tag')
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'tag', attributes: { name: `rest ${n}` } } }),
  'REST update': (agent, { postId }, n) =>
    agent()
      .patch(`/api/rest/post/${postId}`)
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'post', id: String(postId), attributes: { title: `rest ${n}` } } }),
  'REST update, Prefer return=minimal': (agent, { postId }, n) =>
    agent()
      .patch(`/api/rest/post/${postId}`)
      .set({ 'Content-Type': JSON_API, Prefer: 'return=minimal' })
      .send({ data: { type: 'post', id: String(postId), attributes: { title: `minimal ${n}` } } }),
  'REST delete': (agent, { tagId }) => agent().delete(`/api/rest/tag/${tagId}`),
  'REST relationship add': (agent, { postId, tagId }) =>
    agent()
      .post(`/api/rest/post/${postId}/relationships/tags`)
      .set('Content-Type', JSON_API)
      .send({ data: [{ type: 'tag', id: String(tagId) }] }),
  'REST atomic operations': (agent, { postId }, n) =>
    agent()
      .post('/api/rest/operations')
      .set({ 'Content-Type': ATOMIC, Accept: ATOMIC })
      .send(
        JSON.stringify({
          'atomic:operations': [
            { op: 'add', data: { type: 'tag', attributes: { name: `atomic ${n}` } } },
            { op: 'update', data: { type: 'post', id: String(postId), attributes: { title: `atomic ${n}` } } },
          ],
        }),
      ),
  'RPC create': (agent, _ids, n) =>
    agent()
      .post('/api/rpc/tag/create')
      .send({ data: { name: `rpc ${n}` } }),
  'RPC update': (agent, { postId }, n) =>
    agent()
      .patch('/api/rpc/post/update')
      .send({ where: { id: postId }, data: { title: `rpc ${n}` } }),
  'RPC updateMany': (agent, { userId }, n) =>
    agent()
      .patch('/api/rpc/post/updateMany')
      .send({ where: { authorId: userId }, data: { content: `many ${n}` } }),
  'RPC delete': (agent, { tagId }) => agent().delete(`/api/rpc/tag/delete?q=${q({ where: { id: tagId } })}`),
  'RPC sequential transaction': (agent, { postId }, n) =>
    agent()
      .post('/api/rpc/$transaction/sequential')
      .send([
        { model: 'Tag', op: 'create', args: { data: { name: `sequential ${n}` } } },
        { model: 'Post', op: 'update', args: { where: { id: postId }, data: { title: `sequential ${n}` } } },
      ]),
};

/** What a replay must repeat of the first answer. */
const answerOf = (res: { status: number; text: string; headers: Record<string, string> }) => ({
  status: res.status,
  text: res.text,
  etag: res.headers.etag,
  location: res.headers.location,
  contentType: res.headers['content-type'],
});

describe.each(testProviders())('Idempotency-Key (%s)', (provider) => {
  let count = 0;
  const fresh = async (t: TestAppHandle): Promise<Ids> => {
    count += 1;
    const { prisma } = t.db;
    const user = await prisma.user.create({ data: { email: `key${count}@example.com`, name: 'Key' } });
    const post = await prisma.post.create({ data: { title: `post ${count}`, authorId: user.id } });
    const tag = await prisma.tag.create({ data: { name: `tag ${count}` } });
    return { userId: user.id, postId: post.id, tagId: tag.id };
  };

  describe.each([
    ['a plain client', {}],
    ['a client with rules', { rules: gatedRules }],
  ])('with %s', (_name, options) => {
    const t = useTestApp(provider, { options });

    it.each(Object.keys(WRITES))('%s: a retry gets the stored answer and writes nothing', async (name) => {
      const ids = await fresh(t);
      const send = () => WRITES[name]!(t.http, ids, String(count));
      const key = newKey();
      const first = await send().set('Idempotency-Key', key);
      expect(first.status).toBeLessThan(300);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const written = await snapshotDatabase(t.db);
      for (let retry = 0; retry < 2; retry++) {
        const again = await send().set('Idempotency-Key', key);
        expect(answerOf(again)).toEqual(answerOf(first));
        expect(again.headers['idempotent-replayed']).toBe('true');
      }
      expect(await snapshotDatabase(t.db)).toBe(written);
      // Sent without the key, or with another, the same request runs again.
      const other = await send().set('Idempotency-Key', newKey());
      expect(other.headers['idempotent-replayed']).toBeUndefined();
    });

    it('generated: over any sequence of keyed writes, retries replay and other requests with a key get 422', async () => {
      const names = Object.keys(WRITES);
      const step = fc.record({
        name: fc.constantFrom(...names),
        // Send again the write of an earlier step with its key: as it was, or as another request.
        again: fc.option(fc.record({ step: fc.nat(), same: fc.boolean(), other: fc.constantFrom(...names) }), {
          nil: undefined,
        }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
          const sent: Array<{
            send: () => ReturnType<TestAgent['post']>;
            key: string;
            answer: ReturnType<typeof answerOf>;
          }> = [];
          for (const { name, again } of steps) {
            const earlier = again && sent.length > 0 ? sent[again.step % sent.length]! : undefined;
            if (!earlier) {
              const ids = await fresh(t);
              const n = `${count} generated`;
              const send = () => WRITES[name]!(t.http, ids, n);
              const key = newKey();
              const res = await send().set('Idempotency-Key', key);
              expect(res.headers['idempotent-replayed']).toBeUndefined();
              // A failed request keeps no key: only answered writes are retried below.
              if (res.status < 300) sent.push({ send, key, answer: answerOf(res) });
              continue;
            }
            const otherIds = again!.same ? undefined : await fresh(t);
            const before = await snapshotDatabase(t.db);
            if (!otherIds) {
              const res = await earlier.send().set('Idempotency-Key', earlier.key);
              expect(answerOf(res)).toEqual(earlier.answer);
              expect(res.headers['idempotent-replayed']).toBe('true');
            } else {
              const other = await WRITES[again!.other]!(t.http, otherIds, `${count} other`).set(
                'Idempotency-Key',
                earlier.key,
              );
              expect(other.status).toBe(422);
            }
            expect(await snapshotDatabase(t.db)).toBe(before);
          }
        }),
        { seed: Number(process.env.FUZZ_SEED ?? 29), numRuns: Number(process.env.FUZZ_RUNS ?? 12), endOnFailure: true },
      );
    });

    it('the key with another body, target or method answers 422 and writes nothing', async () => {
      const ids = await fresh(t);
      const key = newKey();
      await WRITES['RPC create']!(t.http, ids, 'original').set('Idempotency-Key', key).expect(201);
      const before = await snapshotDatabase(t.db);
      const reuses = [
        WRITES['RPC create']!(t.http, ids, 'changed'),
        WRITES['REST create']!(t.http, ids, 'original'),
        WRITES['RPC update']!(t.http, ids, 'original'),
      ];
      for (const reuse of reuses) {
        const res = await reuse.set('Idempotency-Key', key).expect(422);
        expect(res.body.error?.errorCode ?? res.body.errors?.[0]?.code).toBe('idempotency-key-reused');
      }
      expect(await snapshotDatabase(t.db)).toBe(before);
    });

    it('a failed request keeps no key: its retry runs again, and may then succeed', async () => {
      const { tagId } = await fresh(t);
      const taken = (await t.db.prisma.tag.findUnique({ where: { id: tagId } }))!.name;
      const key = newKey();
      const create = (name: string) =>
        t.http().post('/api/rpc/tag/create').set('Idempotency-Key', key).send({ data: { name } });
      const failed = await create(taken);
      expect(failed.status).toBeGreaterThanOrEqual(400);
      const again = await create(taken);
      expect(again.status).toBe(failed.status);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      const created = await create(`${taken} fixed`).expect(201);
      expect((await create(`${taken} fixed`).expect(201)).text).toBe(created.text);
    });

    it('of concurrent requests with one key exactly one writes', async () => {
      const key = newKey();
      const name = `concurrent ${randomUUID()}`;
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          t
            .http()
            .post('/api/rpc/tag/create')
            .set('Idempotency-Key', key)
            .send({ data: { name } })
            .then((res) => res),
        ),
      );
      const firsts = answers.filter((res) => res.status === 201 && !res.headers['idempotent-replayed']);
      expect(firsts).toHaveLength(1);
      for (const res of answers) {
        if (res.status === 409) expect(res.body.error.errorCode).toBe('idempotency-key-in-use');
        else expect(res.text).toBe(firsts[0]!.text);
      }
      expect(await t.db.prisma.tag.count({ where: { name } })).toBe(1);
    });
  });

  describe('while the first request runs', () => {
    const t = useTestApp(provider, { options: { rules: gatedRules } });
    afterEach(() => gate?.pass());

    const slowCreate = (agent: () => TestAgent, key: string, name: string) =>
      agent().post('/api/rpc/tag/create').set('Idempotency-Key', key).send({ data: { name } });

    it('a retry answers 409, and once the first is answered, its answer', async () => {
      gate = new Gate();
      const key = newKey();
      const name = `slow ${randomUUID()}`;
      const first = slowCreate(t.http, key, name).then((res) => res);
      await gate.entered;
      const busy = await slowCreate(t.http, key, name).expect(409);
      expect(busy.body.error.errorCode).toBe('idempotency-key-in-use');
      gate.pass();
      const answered = await first;
      expect(answered.status).toBe(201);
      const replay = await slowCreate(t.http, key, name).expect(201);
      expect(replay.text).toBe(answered.text);
      expect(await t.db.prisma.tag.count({ where: { name } })).toBe(1);
    });

    it('a request whose connection dropped before its answer is written once, and its retry gets the answer', async () => {
      gate = new Gate();
      const key = newKey();
      const name = `slow dropped ${randomUUID()}`;
      const server = t.app.getHttpServer() as http.Server;
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const body = JSON.stringify({ data: { name } });
      const dropped = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/rpc/tag/create',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'Idempotency-Key': key,
        },
      });
      dropped.on('error', () => undefined);
      dropped.end(body);
      await gate.entered;
      dropped.destroy();
      gate.pass();
      let stored = 0;
      for (let attempt = 0; attempt < 100 && stored === 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        stored = await t.db.prisma.idempotencyKey.count({ where: { status: { gt: 0 } } });
        if (stored && (await t.db.prisma.tag.count({ where: { name } })) === 0) stored = 0;
      }
      const retry = await slowCreate(t.http, key, name).expect(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body.data.name).toBe(name);
      expect(await t.db.prisma.tag.count({ where: { name } })).toBe(1);
    });

    it('keys are shared by the application instances over one database', async () => {
      const second = createSampleDatabase(t.db.url);
      const other = await createAppOver(second);
      try {
        const key = newKey();
        const name = `shared ${randomUUID()}`;
        const first = await slowCreate(t.http, key, name).expect(201);
        const replay = await slowCreate(other.http, key, name).expect(201);
        expect(replay.text).toBe(first.text);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        if (provider !== 'sqlite') {
          // The other instance cannot know the first is running but by the database: 409 at once.
          gate = new Gate();
          const slowKey = newKey();
          const slowName = `slow shared ${randomUUID()}`;
          const running = slowCreate(t.http, slowKey, slowName).then((res) => res);
          await gate.entered;
          const busy = await slowCreate(other.http, slowKey, slowName).expect(409);
          expect(busy.body.error.errorCode).toBe('idempotency-key-in-use');
          gate.pass();
          expect((await running).status).toBe(201);
          expect((await slowCreate(other.http, slowKey, slowName).expect(201)).text).toBe((await running).text);
        }
        expect(await t.db.prisma.tag.count({ where: { name: { contains: 'shared' } } })).toBe(
          provider === 'sqlite' ? 1 : 2,
        );
      } finally {
        await other.close();
      }
    });
  });

  describe('scope and retention', () => {
    const t = useTestApp(provider, {
      options: {
        idempotency: { ...TEST_IDEMPOTENCY, retention: 1, scope: (request) => String(request.headers['x-caller']) },
      },
    });

    it('the same key from two callers names two requests', async () => {
      const key = newKey();
      const create = (caller: string) =>
        t
          .http()
          .post('/api/rpc/tag/create')
          .set({ 'Idempotency-Key': key, 'X-Caller': caller })
          .send({ data: { name: `scoped ${caller} ${key}` } });
      await create('ann').expect(201);
      const bob = await create('bob').expect(201);
      expect(bob.headers['idempotent-replayed']).toBeUndefined();
    });

    it('a key past its retention is free again', async () => {
      const key = newKey();
      const { userId } = await fresh(t);
      const create = () =>
        t
          .http()
          .post('/api/rpc/post/create')
          .set({ 'Idempotency-Key': key, 'X-Caller': 'ann' })
          .send({ data: { title: 'retained', authorId: userId } });
      await create().expect(201);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const again = await create().expect(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(await t.db.prisma.post.count({ where: { authorId: userId } })).toBe(3);
    });
  });

  describe('what it applies to', () => {
    const t = useTestApp(provider);

    it.each([
      ['an empty key', '""'],
      ['an overlong key', `"${'k'.repeat(256)}"`],
      ['an unterminated string', '"abc'],
      ['a key with spaces, unquoted', 'two words'],
      ['two keys', 'a, b'],
    ])('%s answers 400 and writes nothing', async (_name, key) => {
      const before = await snapshotDatabase(t.db);
      const res = await t
        .http()
        .post('/api/rpc/tag/create')
        .set('Idempotency-Key', key)
        .send({ data: { name: `bad key ${key}` } })
        .expect(400);
      expect(res.body.error.errorCode).toBe('invalid-request');
      expect(await snapshotDatabase(t.db)).toBe(before);
    });

    it('reads ignore the key', async () => {
      const key = newKey();
      for (let i = 0; i < 2; i++) {
        const res = await t.http().get('/api/rpc/tag/findMany').set('Idempotency-Key', key).expect(200);
        expect(res.headers['idempotent-replayed']).toBeUndefined();
      }
    });

    it('the OpenAPI documents give the writes the key, its replay header and the 409 and 422 answers', async () => {
      for (const [document, path, method] of [
        ['rest', '/api/rest/tag', 'post'],
        ['rpc', '/api/rpc/tag/create', 'post'],
      ] as const) {
        const { body } = await t.http().get(`/api/docs/${document}.json`).expect(200);
        const operation = body.paths[path][method];
        expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toContain('Idempotency-Key');
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['409', '422']));
        expect(operation.responses['201'].headers['Idempotent-Replayed']).toBeDefined();
        const read = body.paths[document === 'rest' ? path : '/api/rpc/tag/findMany'].get;
        expect(read.parameters.map((parameter: { name: string }) => parameter.name)).not.toContain('Idempotency-Key');
      }
    });

    it('the keys model is on neither interface', async () => {
      await t.http().get('/api/rest/idempotencyKey').set('Accept', JSON_API).expect(404);
      await t.http().get('/api/rpc/idempotencyKey/findMany').expect(404);
    });
  });
});
