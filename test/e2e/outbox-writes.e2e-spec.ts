import type TestAgent from 'supertest/lib/agent.js';

import type { CrudApiRules } from '../../lib/index.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
const q = (args: unknown) => encodeURIComponent(JSON.stringify(args));

/** The password hash is write-only: no change in the outbox carries it. */
const rules: CrudApiRules = { User: { fields: { passwordHash: 'writeOnly' } } };

const atomic = (agent: () => TestAgent, operations: unknown[]) =>
  agent()
    .post('/api/rest/operations')
    .set({ 'Content-Type': ATOMIC, Accept: ATOMIC })
    .send(JSON.stringify({ 'atomic:operations': operations }));

describe.each(testProviders())('outbox rows, written with the change (%s)', (provider) => {
  let authorId: number;
  const t = useTestApp(provider, {
    options: { outbox: { model: 'OutboxEntry', worker: false }, rules },
    seed: async ({ db }) => {
      authorId = (await db.prisma.user.create({ data: { email: 'author@x.test', name: 'Author' } })).id;
    },
  });
  const outbox = () => (t.db.prisma as any).outboxEntry;
  /** The rows written since the last test, as `operation Model key`. */
  const written = async () =>
    ((await outbox().findMany({ orderBy: { id: 'asc' } })) as any[]).map(
      (entry) => `${entry.operation} ${entry.model} ${entry.rowKey}`,
    );
  const post = async (title = 'p') => (await t.db.prisma.post.create({ data: { title, authorId } })).id;
  const tag = async (name: string) => (await t.db.prisma.tag.create({ data: { name } })).id;
  beforeEach(() => outbox().deleteMany());

  it('REST create, update and delete each write the change', async () => {
    const created = await t
      .http()
      .post('/api/rest/tag')
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'tag', attributes: { name: 'rest' } } })
      .expect(201);
    const id = Number(created.body.data.id);
    const postId = await post();
    await t
      .http()
      .patch(`/api/rest/post/${postId}`)
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'post', id: String(postId), attributes: { title: 'changed' } } })
      .expect(200);
    await t.http().delete(`/api/rest/tag/${id}`).expect(204);
    expect(await written()).toEqual([
      `create Tag {"id":${id}}`,
      `update Post {"id":${postId}}`,
      `delete Tag {"id":${id}}`,
    ]);
  });

  it('REST atomic operations write every change, and none when an operation fails', async () => {
    const postId = await post();
    const done = await atomic(t.http, [
      { op: 'add', data: { type: 'tag', attributes: { name: 'atomic' } } },
      { op: 'update', data: { type: 'post', id: String(postId), attributes: { title: 'atomic' } } },
    ]).expect(200);
    const tagId = Number(done.body['atomic:results'][0].data.id);
    expect(await written()).toEqual([`create Tag {"id":${tagId}}`, `update Post {"id":${postId}}`]);
    await outbox().deleteMany();
    const failed = await atomic(t.http, [
      { op: 'add', data: { type: 'tag', attributes: { name: 'rolled back' } } },
      { op: 'update', data: { type: 'post', id: '999999', attributes: { title: 'none' } } },
    ]);
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(await written()).toEqual([]);
    expect(await t.db.prisma.tag.count({ where: { name: 'rolled back' } })).toBe(0);
  });

  it('RPC writes, single and bulk, write one row per changed row', async () => {
    const created = await t
      .http()
      .post('/api/rpc/tag/create')
      .send({ data: { name: 'rpc' } })
      .expect(201);
    const id = created.body.data.id;
    await t
      .http()
      .patch('/api/rpc/tag/update')
      .send({ where: { id }, data: { name: 'rpc2' } })
      .expect(200);
    await t
      .http()
      .delete(`/api/rpc/tag/delete?q=${q({ where: { id } })}`)
      .expect(200);
    await t
      .http()
      .post('/api/rpc/tag/createMany')
      .send({ data: [{ name: 'm1' }, { name: 'm2' }] })
      .expect(201);
    const [m1, m2] = (
      await t.db.prisma.tag.findMany({ where: { name: { in: ['m1', 'm2'] } }, orderBy: { id: 'asc' } })
    ).map((row) => row.id);
    await t
      .http()
      .patch('/api/rpc/tag/updateMany')
      .send({ where: { name: { in: ['m1', 'm2'] } }, data: { deletedAt: null } });
    await t
      .http()
      .post('/api/rpc/tag/upsert')
      .send({ where: { id: m1 }, create: { name: 'never' }, update: { name: 'm1b' } })
      .expect(200);
    await t
      .http()
      .delete(`/api/rpc/tag/deleteMany?q=${q({ where: { id: { in: [m1, m2] } } })}`)
      .expect(200);
    const rows = await written();
    expect(rows.slice(0, 5)).toEqual([
      `create Tag {"id":${id}}`,
      `update Tag {"id":${id}}`,
      `delete Tag {"id":${id}}`,
      `create Tag {"id":${m1}}`,
      `create Tag {"id":${m2}}`,
    ]);
    expect(rows.slice(5)).toEqual([
      `update Tag {"id":${m1}}`,
      `update Tag {"id":${m2}}`,
      `update Tag {"id":${m1}}`,
      `delete Tag {"id":${m1}}`,
      `delete Tag {"id":${m2}}`,
    ]);
  });

  it('a nested write writes each row it creates, without the write-only fields', async () => {
    const res = await t
      .http()
      .post('/api/rpc/user/create')
      .send({
        data: {
          email: 'nested@x.test',
          name: 'N',
          passwordHash: 'secret',
          posts: { create: [{ title: 'n1', views: 12 }] },
        },
        include: { posts: true },
      })
      .expect(201);
    const user = res.body.data;
    const postId = user.posts[0].id;
    expect((await written()).sort()).toEqual([`create Post {"id":${postId}}`, `create User {"id":${user.id}}`].sort());
    const entries: any[] = await outbox().findMany({ orderBy: { id: 'asc' } });
    const userEntry = entries.find((entry) => entry.model === 'User');
    expect(userEntry.payload.after).not.toHaveProperty('passwordHash');
    expect(userEntry.payload).toMatchObject({ model: 'User', operation: 'create', id: { id: user.id } });
    const postEntry = entries.find((entry) => entry.model === 'Post');
    // Dates as ISO text, BigInt and Decimal as text: JSON as the webhooks get it.
    expect(postEntry.payload.after).toMatchObject({ views: '12', price: '0', title: 'n1' });
    expect(postEntry.payload.after.createdAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it('a sequential transaction writes its changes in order, and none when a later step fails', async () => {
    const postId = await post('seq');
    await t
      .http()
      .post('/api/rpc/$transaction/sequential')
      .send([
        { model: 'Post', op: 'update', args: { where: { id: postId }, data: { title: 'one' } } },
        { model: 'Post', op: 'update', args: { where: { id: postId }, data: { title: 'two' } } },
      ])
      .expect(200);
    const entries: any[] = await outbox().findMany({ orderBy: { id: 'asc' } });
    expect(entries.map((entry) => entry.payload.after.title)).toEqual(['one', 'two']);
    await outbox().deleteMany();
    const tagId = await tag('kept');
    const failed = await t
      .http()
      .post('/api/rpc/$transaction/sequential')
      .send([
        { model: 'Tag', op: 'update', args: { where: { id: tagId }, data: { name: 'renamed' } } },
        { model: 'Post', op: 'update', args: { where: { id: 999999 }, data: { title: 'none' } } },
      ]);
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(await written()).toEqual([]);
    expect((await t.db.prisma.tag.findUnique({ where: { id: tagId } }))?.name).toBe('kept');
  });

  it('an idempotent write writes its change once: the replay writes none', async () => {
    const send = () =>
      t
        .http()
        .post('/api/rpc/tag/create')
        .set('Idempotency-Key', '"outbox-once"')
        .send({ data: { name: 'once' } })
        .expect(201);
    const { body } = await send();
    await send();
    expect(await written()).toEqual([`create Tag {"id":${body.data.id}}`]);
  });

  it('keeps the outbox model to itself', async () => {
    await t.http().get('/api/rpc/outboxEntry/findMany').expect(404);
  });
});
