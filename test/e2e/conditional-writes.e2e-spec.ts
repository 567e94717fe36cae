import { snapshotDatabase } from '../support/db-snapshot.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
const q = (args: unknown) => encodeURIComponent(JSON.stringify(args));

describe.each(testProviders())('conditional writes with If-Match (%s)', (provider) => {
  let userId: number;
  const t = useTestApp(provider, {
    seed: async ({ db }) => {
      userId = (await db.prisma.user.create({ data: { email: 'match@example.com', name: 'Match' } })).id;
    },
  });

  const newPost = async (title = 'draft') => (await t.db.prisma.post.create({ data: { title, authorId: userId } })).id;
  const restTag = async (path: string) =>
    (await t.http().get(path).set('Accept', JSON_API).expect(200)).headers.etag as string;
  const rpcTag = async (id: number) =>
    (
      await t
        .http()
        .get(`/api/rpc/post/findUnique?q=${q({ where: { id } })}`)
        .expect(200)
    ).headers.etag as string;
  const patch = (id: number, title: string, ifMatch?: string) => {
    const req = t.http().patch(`/api/rest/post/${id}`).set('Content-Type', JSON_API);
    if (ifMatch !== undefined) req.set('If-Match', ifMatch);
    return req.send({ data: { type: 'post', id: String(id), attributes: { title } } });
  };
  const rpcUpdate = (id: number, title: string, ifMatch: string) =>
    t.http().patch('/api/rpc/post/update').set('If-Match', ifMatch).send({ where: { id }, data: { title } });
  const titleOf = async (id: number) => (await t.db.prisma.post.findUnique({ where: { id } }))?.title;

  it('REST: writes with the current tag and answers the new one, the tag a read then answers', async () => {
    const id = await newPost();
    const tag = await restTag(`/api/rest/post/${id}`);
    const res = await patch(id, 'matched', tag).expect(200);
    expect(res.headers.etag).toEqual(expect.stringMatching(/^"[0-9a-f]{16}"$/));
    expect(res.headers.etag).not.toBe(tag);
    expect(await restTag(`/api/rest/post/${id}`)).toBe(res.headers.etag);
    // The answer's tag is good for the next conditional write, and * for any existing resource.
    await patch(id, 'again', res.headers.etag).expect(200);
    await patch(id, 'star', '*').expect(200);
    expect(await titleOf(id)).toBe('star');
  });

  it('REST: 412 for a stale or weak tag, with nothing written', async () => {
    const id = await newPost('kept');
    const stale = await restTag(`/api/rest/post/${id}`);
    await t.db.prisma.post.update({ where: { id }, data: { content: 'changed by someone else' } });
    for (const condition of [stale, `W/${await restTag(`/api/rest/post/${id}`)}`, '"unknown"']) {
      const res = await patch(id, 'lost update', condition).expect(412);
      expect(res.body.errors[0].code).toBe('precondition-failed');
    }
    expect(await titleOf(id)).toBe('kept');
    const deleted = await t.http().delete(`/api/rest/post/${id}`).set('If-Match', stale).expect(412);
    expect(deleted.body.errors[0].code).toBe('precondition-failed');
    expect(await titleOf(id)).toBe('kept');
    await t
      .http()
      .delete(`/api/rest/post/${id}`)
      .set('If-Match', await restTag(`/api/rest/post/${id}`))
      .expect(204);
    expect(await titleOf(id)).toBeUndefined();
    await patch(id, 'gone', '*').expect(404);
  });

  it('REST: Prefer return=minimal answers 204 with Location and ETag, return=representation the document', async () => {
    const created = await t
      .http()
      .post('/api/rest/post')
      .set('Content-Type', JSON_API)
      .set('Prefer', 'return=minimal')
      .send({
        data: {
          type: 'post',
          attributes: { title: 'minimal' },
          relationships: { author: { data: { type: 'user', id: String(userId) } } },
        },
      })
      .expect(204);
    expect(created.text ?? '').toBe('');
    expect(created.headers['preference-applied']).toBe('return=minimal');
    const id = Number(String(created.headers.location).split('/').pop());
    expect(await titleOf(id)).toBe('minimal');
    expect(created.headers.etag).toBe(await restTag(`/api/rest/post/${id}`));
    const updated = await patch(id, 'minimal too', created.headers.etag).set('Prefer', 'return=minimal').expect(204);
    expect(updated.headers.etag).toBe(await restTag(`/api/rest/post/${id}`));
    expect(await titleOf(id)).toBe('minimal too');
    const full = await patch(id, 'in full').set('Prefer', 'return=representation').expect(200);
    expect(full.headers['preference-applied']).toBe('return=representation');
    expect(full.body.data.attributes.title).toBe('in full');
    const plain = await patch(id, 'no preference').expect(200);
    expect(plain.headers['preference-applied']).toBeUndefined();
  });

  it('REST relationships: the linkage tag guards its changes', async () => {
    const id = await newPost();
    const tag = await t.db.prisma.tag.create({ data: { name: `rel-${id}` } });
    const path = `/api/rest/post/${id}/relationships/tags`;
    const linkage = { data: [{ type: 'tag', id: String(tag.id) }] };
    const before = await restTag(path);
    const added = await t.http().post(path).set('Content-Type', JSON_API).set('If-Match', before).send(linkage);
    expect(added.status).toBe(200);
    expect(added.headers.etag).toBe(await restTag(path));
    const stale = await t.http().delete(path).set('Content-Type', JSON_API).set('If-Match', before).send(linkage);
    expect(stale.status).toBe(412);
    expect((await t.db.prisma.post.findUnique({ where: { id }, include: { tags: true } }))?.tags).toHaveLength(1);
  });

  it('RPC: update, upsert and delete check the findUnique tag', async () => {
    const id = await newPost('rpc');
    const tag = await rpcTag(id);
    const updated = await rpcUpdate(id, 'rpc matched', tag).expect(200);
    expect(updated.headers.etag).toBe(await rpcTag(id));
    const stale = await rpcUpdate(id, 'rpc lost', tag).expect(412);
    expect(stale.body.error.errorCode).toBe('precondition-failed');
    await t
      .http()
      .post('/api/rpc/post/upsert')
      .set('If-Match', tag)
      .send({ where: { id }, create: { title: 'x', authorId: userId }, update: { title: 'rpc lost' } })
      .expect(412);
    await t
      .http()
      .delete(`/api/rpc/post/delete?q=${q({ where: { id } })}`)
      .set('If-Match', tag)
      .expect(412);
    expect(await titleOf(id)).toBe('rpc matched');
    await t
      .http()
      .delete(`/api/rpc/post/delete?q=${q({ where: { id } })}`)
      .set('If-Match', await rpcTag(id))
      .expect(200);
    expect(await titleOf(id)).toBeUndefined();
  });

  it('RPC: no tag matches a missing row, * neither: an upsert answers 412, the others their own 404', async () => {
    const missing = (await newPost('gone')) + 1000;
    const before = await snapshotDatabase(t.db);
    const upsert = { where: { id: missing }, create: { title: 'created', authorId: userId }, update: { title: 'x' } };
    const rpcCall = (method: 'post' | 'patch' | 'delete', operation: string, args: unknown, ifMatch?: string) => {
      const url = `/api/rpc/post/${operation}`;
      const agent = t.http();
      const call = method === 'delete' ? agent.delete(`${url}?q=${q(args)}`) : agent[method](url).send(args as object);
      return ifMatch === undefined ? call : call.set('If-Match', ifMatch);
    };
    const writes = [
      ['patch', 'update', { where: { id: missing }, data: { title: 'x' } }],
      ['delete', 'delete', { where: { id: missing } }],
    ] as const;
    for (const condition of ['*', '"0123456789abcdef"']) {
      const res = await rpcCall('post', 'upsert', upsert, condition);
      expect({ condition, status: res.status, code: res.body.error?.errorCode }).toEqual({
        condition,
        status: 412,
        code: 'precondition-failed',
      });
      for (const [method, operation, args] of writes) {
        const conditional = await rpcCall(method, operation, args, condition);
        const plain = await rpcCall(method, operation, args);
        expect(plain.status).toBe(404);
        expect({ operation, status: conditional.status, body: conditional.body }).toEqual({
          operation,
          status: plain.status,
          body: plain.body,
        });
      }
    }
    expect(await snapshotDatabase(t.db)).toBe(before);
    // An existing row matches *.
    const id = await newPost('existing');
    await rpcCall('post', 'upsert', { ...upsert, where: { id } }, '*').expect(200);
    expect(await titleOf(id)).toBe('x');
  });

  it('refuses If-Match on writes it does not apply to, writing nothing', async () => {
    const id = await newPost('untouched');
    const before = await snapshotDatabase(t.db);
    const createPost = {
      type: 'post',
      attributes: { title: 'x' },
      relationships: { author: { data: { type: 'user', id: String(userId) } } },
    };
    const requests = [
      t.http().post('/api/rest/post').set('Content-Type', JSON_API).send({ data: createPost }),
      t
        .http()
        .post('/api/rest/operations')
        .set({ 'Content-Type': ATOMIC, Accept: ATOMIC })
        .send(JSON.stringify({ 'atomic:operations': [{ op: 'add', data: createPost }] })),
      t
        .http()
        .post('/api/rpc/post/create')
        .send({ data: { title: 'x', authorId: userId } }),
      t
        .http()
        .patch('/api/rpc/post/updateMany')
        .send({ where: { id }, data: { title: 'x' } }),
      t.http().delete(`/api/rpc/post/deleteMany?q=${q({ where: { id } })}`),
      t
        .http()
        .post('/api/rpc/$transaction/sequential')
        .send([{ model: 'Post', op: 'update', args: { where: { id }, data: { title: 'x' } } }]),
    ];
    for (const [index, request] of requests.entries()) {
      const res = await request.set('If-Match', '*');
      expect({ index, status: res.status }).toEqual({ index, status: 400 });
    }
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it.each([
    ['REST', 'rest'],
    ['RPC', 'rpc'],
  ] as const)('%s: of concurrent writers holding the same tag exactly one wins', async (_name, kind) => {
    for (let round = 0; round < 3; round++) {
      const id = await newPost('contested');
      const tag = kind === 'rest' ? await restTag(`/api/rest/post/${id}`) : await rpcTag(id);
      const writers = ['a', 'b', 'c', 'd'].map((who) =>
        kind === 'rest' ? patch(id, `by ${who}`, tag) : rpcUpdate(id, `by ${who}`, tag),
      );
      const answers = await Promise.all(writers.map((writer) => writer.then((res) => res)));
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([200, 412, 412, 412]);
      const winner = answers.find((res) => res.status === 200)!;
      const title = kind === 'rest' ? winner.body.data.attributes.title : winner.body.data.title;
      expect(await titleOf(id)).toBe(title);
    }
  });
});
