import { randomUUID } from 'node:crypto';

import type { Test } from 'supertest';

import type { DemoUser } from '../../fixtures/blog/policies.js';
import { samplePolicies } from '../../fixtures/blog/policies.js';
import { resourceKeys, softDeletePolicies, thread, useSoftDeleteApp } from '../support/soft-delete-fixtures.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

type Thread = Awaited<ReturnType<typeof thread>>;

/** A refusal of a query parameter, on REST (`source.parameter`) or RPC (`errorCode`). */
const restRefusal = (parameter: string) => ({
  errors: [expect.objectContaining({ status: '400', code: 'invalid-query-parameter', source: { parameter } })],
});
const rpcRefusal = (errorCode: string) => ({ error: expect.objectContaining({ errorCode }) });

describe.each(testProviders())('soft delete over HTTP (%s)', (provider) => {
  const app = useSoftDeleteApp(provider);
  const { as, rpc, users } = app;
  const db = () => app.t.db;
  let serial = 0;
  /** A fresh thread with a title of its own. */
  const newThread = (name: string) => thread(db(), users, `${name}-${++serial}`);

  /** The deletion times of a thread's post and comments, as stored. */
  const stamps = async ({ post, comments }: Thread) => ({
    post: (await db().prisma.post.findUnique({ where: { id: post.id } }))?.deletedAt ?? null,
    comments: await Promise.all(
      comments.map(async (c) => (await db().prisma.comment.findUnique({ where: { id: c.id } }))?.deletedAt ?? null),
    ),
  });

  const keysOf = ({ post, comments }: Thread) => [`post:${post.id}`, ...comments.map((c) => `comment:${c.id}`)];

  /** Every REST read of the thread, as `user`: the post and its comments are nowhere. */
  async function expectGoneOnRest(user: DemoUser, gone: Thread) {
    const { post, comments } = gone;
    const { alice, bob } = users;
    const read = async (url: string, status = 200) => (await as(user).get(url).expect(status)).body;
    const hidden = (body: unknown) =>
      expect([...resourceKeys(body)].filter((key) => keysOf(gone).includes(key))).toEqual([]);
    await read(`/api/rest/post/${post.id}`, 404);
    await read(`/api/rest/post/${post.id}/comments`, 404);
    await read(`/api/rest/post/${post.id}/relationships/comments`, 404);
    await read(`/api/rest/post/${post.id}/author`, 404);
    const listed = await read(`/api/rest/post?filter[title]=${post.title}`);
    expect(listed.data).toEqual([]);
    expect(listed.meta.total).toBe(0);
    for (const comment of comments) {
      await read(`/api/rest/comment/${comment.id}`, 404);
      await read(`/api/rest/comment/${comment.id}/post`, 404);
    }
    const related = await read(`/api/rest/user/${alice.id}/posts?include=comments`);
    hidden(related);
    expect(related.meta.total).toBe(related.data.length);
    hidden(await read(`/api/rest/user/${alice.id}?include=posts.comments,comments`));
    hidden(await read(`/api/rest/user/${alice.id}/relationships/posts`));
    hidden(await read(`/api/rest/user/${bob.id}/comments?include=post,parent`));
    hidden(await read(`/api/rest/comment?include=post,replies&page[limit]=100`));
    expect((await read(`/api/rest/comment?filter[post][title]=${post.title}`)).data).toEqual([]);
    expect((await read(`/api/rest/user?filter[posts][title]=${post.title}`)).data).toEqual([]);
    expect((await read(`/api/rest/user?filter[comments][body$startsWith]=${post.title}`)).data).toEqual([]);
  }

  /** Every RPC read of the thread, as `user`: the post and its comments are nowhere. */
  async function expectGoneOnRpc(user: DemoUser, { post, comments }: Thread) {
    const { alice } = users;
    const read = async (path: string, args: unknown) => {
      const reply = await rpc(user, 'get', path, args);
      expect(reply.status).toBe(200);
      return reply.data;
    };
    const byTitle = { where: { title: post.title } };
    expect(await read('post/findUnique', { where: { id: post.id } })).toBeNull();
    expect((await rpc(user, 'get', 'post/findUniqueOrThrow', { where: { id: post.id } })).status).toBe(404);
    expect(await read('post/findFirst', byTitle)).toBeNull();
    expect(await read('post/findMany', byTitle)).toEqual([]);
    expect(await read('post/count', byTitle)).toBe(0);
    expect(await read('post/aggregate', { ...byTitle, _count: { _all: true } })).toEqual({ _count: { _all: 0 } });
    expect(await read('post/groupBy', { ...byTitle, by: ['title'] })).toEqual([]);
    expect(await read('comment/findMany', { where: { postId: post.id } })).toEqual([]);
    expect(await read('comment/findUnique', { where: { id: comments[0]!.id } })).toBeNull();
    expect(await read('comment/count', { where: { post: { is: { title: post.title } } } })).toBe(0);
    expect(await read('user/count', { where: { id: alice.id, posts: { some: { title: post.title } } } })).toBe(0);
    const author = await read('user/findUnique', {
      where: { id: alice.id },
      include: { posts: { include: { comments: true } }, comments: true, _count: true },
    });
    expect(author.posts.map((row: { id: number }) => row.id)).not.toContain(post.id);
    expect(author.comments.map((row: { id: string }) => row.id)).not.toContain(comments[1]!.id);
    expect(author._count.posts).toBe(author.posts.length);
  }

  const deletes: [string, (gone: Thread) => Promise<unknown>][] = [
    ['a REST DELETE', ({ post }) => as(users.alice).delete(`/api/rest/post/${post.id}`).expect(204)],
    [
      'an atomic remove',
      ({ post }) =>
        as(users.alice)
          .post('/api/rest/operations')
          .set({ 'Content-Type': ATOMIC, Accept: ATOMIC })
          .send({ 'atomic:operations': [{ op: 'remove', ref: { type: 'post', id: String(post.id) } }] })
          .expect(200),
    ],
    ['an RPC delete', ({ post }) => rpc(users.alice, 'delete', 'post/delete', { where: { id: post.id } })],
    [
      'an RPC deleteMany',
      async ({ post }) =>
        expect((await rpc(users.alice, 'delete', 'post/deleteMany', { where: { title: post.title } })).data).toEqual({
          count: 1,
        }),
    ],
    [
      'a nested delete through RPC user/update',
      ({ post }) =>
        rpc(users.alice, 'patch', 'user/update', {
          where: { id: users.alice.id },
          data: { posts: { delete: { id: post.id } } },
        }),
    ],
  ];

  it.each(deletes)(
    'hides a post deleted by %s and its comments from every read of both interfaces',
    async (_, remove) => {
      const gone = await newThread('gone');
      await remove(gone);
      const { post, comments } = await stamps(gone);
      expect(post).toBeInstanceOf(Date);
      expect(comments).toEqual([post, post, post]);
      for (const user of [users.alice, users.bob, users.admin]) {
        await expectGoneOnRest(user, gone);
        await expectGoneOnRpc(user, gone);
      }
    },
  );

  describe('restore', () => {
    /** A thread whose third comment bob deleted on its own before alice deleted the post. */
    async function deletedThread(name: string) {
      const deleted = await newThread(name);
      await as(users.bob).delete(`/api/rest/comment/${deleted.comments[2]!.id}`).expect(204);
      const earlier = (await stamps(deleted)).comments[2];
      await new Promise((resolve) => setTimeout(resolve, 5));
      await as(users.alice).delete(`/api/rest/post/${deleted.post.id}`).expect(204);
      return { ...deleted, earlier };
    }

    it('brings back a post with exactly the comments deleted with it over REST, answering its document', async () => {
      const deleted = await deletedThread('rest-restore');
      const { post, comments } = deleted;
      await as(users.bob).post(`/api/rest/post/${post.id}/restore`).expect(404);
      const res = await as(users.alice)
        .post(`/api/rest/post/${post.id}/restore?include=comments&fields[comment]=body`)
        .expect(200);
      expect(res.body.data).toMatchObject({ type: 'post', id: post.id, attributes: { deletedAt: null } });
      expect(res.body.links.self).toMatch(new RegExp(`/post/${post.id}\\?include=comments`));
      expect(res.body.included.map((c: { id: string }) => c.id).sort()).toEqual(
        [comments[0]!.id, comments[1]!.id].sort(),
      );
      expect(await stamps(deleted)).toEqual({ post: null, comments: [null, null, deleted.earlier] });
      const fetched = await as(users.alice).get(`/api/rest/post/${post.id}`).expect(200);
      expect(fetched.body.data.id).toBe(post.id);
      await as(users.alice).get(`/api/rest/comment/${comments[2]!.id}`).expect(404);
      // A live row is not deleted: nothing to restore.
      await as(users.alice).post(`/api/rest/post/${post.id}/restore`).expect(404);
    });

    it('brings back a post with exactly the comments deleted with it over RPC, answering the row', async () => {
      const deleted = await deletedThread('rpc-restore');
      const { post } = deleted;
      const args = { where: { id: post.id }, include: { comments: { select: { id: true } } } };
      expect((await rpc(users.bob, 'post', 'post/restore', args)).status).toBe(404);
      const restored = await rpc(users.alice, 'post', 'post/restore', args);
      expect(restored.status).toBe(200);
      expect(restored.data).toMatchObject({ id: post.id, deletedAt: null });
      expect(restored.data.comments).toHaveLength(2);
      expect(await stamps(deleted)).toEqual({ post: null, comments: [null, null, deleted.earlier] });
      expect((await rpc(users.alice, 'post', 'post/restore', { where: { id: post.id } })).status).toBe(404);
    });

    it('restores inside a sequential transaction', async () => {
      const deleted = await deletedThread('sequential');
      const res = await as(users.admin)
        .post('/api/rpc/$transaction/sequential')
        .send([
          { model: 'Post', op: 'restore', args: { where: { id: deleted.post.id }, select: { id: true } } },
          { model: 'Post', op: 'count', args: { where: { id: deleted.post.id } } },
        ])
        .expect(200);
      expect(res.body.data).toEqual([{ id: deleted.post.id }, 1]);
    });

    it('takes no document: an empty body passes, one with content is 400', async () => {
      const { post } = await deletedThread('body');
      const restore = () => as(users.alice).post(`/api/rest/post/${post.id}/restore`);
      const refused = await restore().set('Content-Type', JSON_API).send({ data: null }).expect(400);
      expect(refused.body.errors[0]).toMatchObject({ code: 'invalid-payload', source: { pointer: '' } });
      expect((await stamps({ post, comments: [] })).post).toBeInstanceOf(Date);
      await restore().set('Content-Type', JSON_API).send('').expect(200);
    });

    it('honours Prefer, If-Match (the tag of GET ?withDeleted=true) and Idempotency-Key', async () => {
      const { post } = await deletedThread('conditions');
      const url = `/api/rest/post/${post.id}`;
      const tag = (await as(users.admin).get(`${url}?withDeleted=true`).expect(200)).headers.etag;
      expect(tag).toBeDefined();
      await as(users.admin).post(`${url}/restore`).set('If-Match', '"stale"').expect(412);
      const minimal = await as(users.admin)
        .post(`${url}/restore`)
        .set({ 'If-Match': tag, Prefer: 'return=minimal' })
        .expect(204);
      expect(minimal.headers['preference-applied']).toBe('return=minimal');
      // The tag of a restore's answer is the one a read of the restored resource answers.
      expect(minimal.headers.etag).toBe((await as(users.admin).get(url).expect(200)).headers.etag);

      await as(users.alice).delete(url).set('If-Match', minimal.headers.etag).expect(204);
      const key = `"${randomUUID()}"`;
      const first = await as(users.alice).post(`${url}/restore`).set('Idempotency-Key', key).expect(200);
      const again = await as(users.alice).post(`${url}/restore`).set('Idempotency-Key', key).expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      // A retried soft delete answers as the first did, where a new one would find nothing to delete.
      const deleteKey = `"${randomUUID()}"`;
      await as(users.alice).delete(url).set('Idempotency-Key', deleteKey).expect(204);
      const retried = await as(users.alice).delete(url).set('Idempotency-Key', deleteKey).expect(204);
      expect(retried.headers['idempotent-replayed']).toBe('true');
      await as(users.alice).delete(url).expect(404);
    });

    it('honours If-Match on RPC restore with the tag of findUnique ?withDeleted=true', async () => {
      const { post } = await deletedThread('rpc-conditions');
      const where = { where: { id: post.id } };
      const read = await rpc(users.admin, 'get', 'post/findUnique', where, { query: { withDeleted: 'true' } });
      const stale = await rpc(users.admin, 'post', 'post/restore', where, { headers: { 'If-Match': '"stale"' } });
      expect(stale.status).toBe(412);
      const restored = await rpc(users.admin, 'post', 'post/restore', where, {
        headers: { 'If-Match': read.headers.etag! },
      });
      expect(restored.status).toBe(200);
      expect(restored.headers.etag).toBe((await rpc(users.admin, 'get', 'post/findUnique', where)).headers.etag);
    });

    it('answers 404 for a type that is not soft-deleted, and the RPC operation is unknown there', async () => {
      await as(users.admin).post(`/api/rest/user/${users.alice.id}/restore`).expect(404);
      const reply = await rpc(users.admin, 'post', 'user/restore', { where: { id: users.alice.id } });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual(rpcRefusal('unknown-operation'));
      const hard = await rpc(users.admin, 'delete', 'user/hardDelete', { where: { id: users.alice.id } });
      expect(hard.body).toEqual(rpcRefusal('unknown-operation'));
      expect((await rpc(users.admin, 'post', 'user/unknownOperation', {})).body).toEqual(
        rpcRefusal('unknown-operation'),
      );
    });
  });

  describe('reading deleted rows', () => {
    let deleted: Thread;
    let live: Thread;
    beforeAll(async () => {
      deleted = await newThread('audit');
      live = await newThread('audit');
      await as(users.alice).delete(`/api/rest/post/${deleted.post.id}`).expect(204);
    });

    it('shows an admin the deleted posts with withDeleted=true, and only those with filter[deletedAt$null]=false', async () => {
      const all = await as(users.admin).get('/api/rest/post?withDeleted=true&page[limit]=100').expect(200);
      const ids = all.body.data.map((row: { id: number }) => row.id);
      expect(ids).toEqual(expect.arrayContaining([deleted.post.id, live.post.id]));
      expect(all.body.meta.total).toBe(all.body.data.length);
      const onlyDeleted = await as(users.admin)
        .get('/api/rest/post?withDeleted=true&filter[deletedAt$null]=false&page[limit]=100')
        .expect(200);
      expect(onlyDeleted.body.data.map((row: { id: number }) => row.id)).toContain(deleted.post.id);
      expect(
        onlyDeleted.body.data.every((row: { attributes: { deletedAt: unknown } }) => row.attributes.deletedAt),
      ).toBe(true);
      const fetched = await as(users.admin).get(`/api/rest/post/${deleted.post.id}?withDeleted=true&include=comments`);
      expect(fetched.status).toBe(200);
      expect(fetched.body.included).toHaveLength(3);
      const related = await as(users.admin)
        .get(`/api/rest/post/${deleted.post.id}/comments?withDeleted=true`)
        .expect(200);
      expect(related.body.data).toHaveLength(3);
      const linkage = await as(users.admin)
        .get(`/api/rest/post/${deleted.post.id}/relationships/comments?withDeleted=true`)
        .expect(200);
      expect(linkage.body.data).toHaveLength(3);
      const toOne = await as(users.admin).get(`/api/rest/comment/${deleted.comments[0]!.id}/post?withDeleted=true`);
      expect(toOne.body.data).toMatchObject({ id: deleted.post.id });
    });

    it('shows a caller without readDeleted the live rows only', async () => {
      for (const user of [users.alice, users.bob, undefined]) {
        const res = await as(user).get(`/api/rest/post?withDeleted=true&filter[title]=${deleted.post.title}`);
        expect(res.body.data.map((row: { id: number }) => row.id)).toEqual([]);
        await as(user).get(`/api/rest/post/${deleted.post.id}?withDeleted=true`).expect(404);
        const rpcRows = await rpc(
          user,
          'get',
          'post/findMany',
          { where: { title: deleted.post.title } },
          { query: { withDeleted: 'true' } },
        );
        expect(rpcRows.data).toEqual([]);
      }
    });

    it('keeps withDeleted=true in pagination links, and validates answers with it', async () => {
      const first = await as(users.admin).get('/api/rest/post?withDeleted=true&page[limit]=1').expect(200);
      expect(first.body.links.next).toContain('withDeleted=true');
      const next = await as(users.admin).get(first.body.links.next.replace('http://localhost', '')).expect(200);
      expect(next.body.links.prev).toContain('withDeleted=true');
      const cursor = await as(users.admin).get('/api/rest/post?withDeleted=true&page[size]=1').expect(200);
      expect(cursor.body.links.next).toContain('withDeleted=true');
      const url = `/api/rest/post/${deleted.post.id}?withDeleted=true`;
      const tagged = await as(users.admin).get(url).expect(200);
      expect(tagged.headers.vary).toContain('Accept');
      const unchanged = await as(users.admin).get(url).set('If-None-Match', tagged.headers.etag).expect(304);
      expect(unchanged.headers.etag).toBe(tagged.headers.etag);
    });

    it('reads deleted rows on every RPC read operation for an admin', async () => {
      const withDeleted = { query: { withDeleted: 'true' } };
      const read = async (path: string, args: unknown) => {
        const reply = await rpc(users.admin, 'get', path, args, withDeleted);
        expect(reply.status).toBe(200);
        return reply.data;
      };
      const where = { where: { id: deleted.post.id } };
      expect(await read('post/findUnique', where)).toMatchObject({ id: deleted.post.id });
      expect(await read('post/findUniqueOrThrow', where)).toMatchObject({ id: deleted.post.id });
      expect(await read('post/findFirst', where)).toMatchObject({ id: deleted.post.id });
      expect(await read('post/findFirstOrThrow', where)).toMatchObject({ id: deleted.post.id });
      const onlyDeleted = await read('post/findMany', {
        where: { deletedAt: { not: null } },
        include: { comments: true },
      });
      expect(onlyDeleted.map((row: { id: number }) => row.id)).toContain(deleted.post.id);
      expect(onlyDeleted.find((row: { id: number }) => row.id === deleted.post.id).comments).toHaveLength(3);
      const both = { where: { title: { in: [deleted.post.title, live.post.title] } } };
      expect(await read('post/count', both)).toBe(2);
      expect(await read('post/aggregate', { ...both, _count: { _all: true } })).toEqual({ _count: { _all: 2 } });
      expect(await read('post/groupBy', { ...both, by: ['published'], _count: { _all: true } })).toEqual([
        { published: true, _count: { _all: 2 } },
      ]);
      expect(await read('comment/count', { where: { postId: deleted.post.id } })).toBe(3);
    });
  });

  describe('tags: a deleted name can be taken again', () => {
    it('refuses restoring a tag whose name a live tag took, until that one is deleted', async () => {
      const created = await as(users.alice)
        .post('/api/rest/tag')
        .set('Content-Type', JSON_API)
        .send({ data: { type: 'tag', attributes: { name: 'reused' } } })
        .expect(201);
      const old = created.body.data.id;
      await as(users.admin).delete(`/api/rest/tag/${old}`).expect(204);
      const again = await as(users.alice)
        .post('/api/rest/tag')
        .set('Content-Type', JSON_API)
        .send({ data: { type: 'tag', attributes: { name: 'reused' } } })
        .expect(201);
      expect(again.body.data.id).not.toBe(old);
      // The row's own value was taken meanwhile: a conflict, not malformed input.
      const conflict = await as(users.admin).post(`/api/rest/tag/${old}/restore`).expect(409);
      expect(conflict.body.errors[0].code).toBe('conflict');
      const rpcConflict = await rpc(users.admin, 'post', 'tag/restore', { where: { id: old } });
      expect(rpcConflict.status).toBe(409);
      expect(rpcConflict.body.error).toMatchObject({ errorCode: 'conflict' });
      // Restoring is the admin's: alice is told the tag is not there.
      await as(users.alice).post(`/api/rest/tag/${old}/restore`).expect(404);
      await as(users.admin).delete(`/api/rest/tag/${again.body.data.id}`).expect(204);
      const restored = await as(users.admin).post(`/api/rest/tag/${old}/restore`).expect(200);
      expect(restored.body.data).toMatchObject({ id: old, attributes: { name: 'reused', deletedAt: null } });
    });
  });

  describe('hard delete', () => {
    it('removes a post for good for an admin only, on REST', async () => {
      const { post } = await newThread('purge-rest');
      const refused = await as(users.alice).delete(`/api/rest/post/${post.id}?hardDelete=true`).expect(403);
      expect(refused.body.errors[0].code).toBe('rejected-by-policy');
      await as(users.admin).delete(`/api/rest/post/${post.id}?hardDelete=true`).expect(204);
      expect(await db().prisma.post.count({ where: { id: post.id } })).toBe(0);
      expect(await db().prisma.comment.count({ where: { postId: post.id } })).toBe(0);
    });

    it('purges a deleted post with withDeleted=true&hardDelete=true', async () => {
      const { post } = await newThread('purge-deleted');
      await as(users.alice).delete(`/api/rest/post/${post.id}`).expect(204);
      await as(users.admin).delete(`/api/rest/post/${post.id}?hardDelete=true`).expect(404);
      const url = `/api/rest/post/${post.id}?withDeleted=true&hardDelete=true`;
      const tag = (await as(users.admin).get(`/api/rest/post/${post.id}?withDeleted=true`).expect(200)).headers.etag;
      await as(users.admin).delete(url).set('If-Match', '"stale"').expect(412);
      await as(users.admin).delete(url).set('If-Match', tag).expect(204);
      expect(await db().prisma.post.count({ where: { id: post.id } })).toBe(0);
    });

    it('removes a post for good for an admin only, on RPC, deleted ones with withDeleted=true', async () => {
      const { post } = await newThread('purge-rpc');
      const where = { where: { id: post.id } };
      const refused = await rpc(users.alice, 'delete', 'post/hardDelete', where);
      expect(refused.status).toBe(403);
      expect(refused.body.error.errorCode).toBe('rejected-by-policy');
      const removed = await rpc(users.admin, 'delete', 'post/hardDelete', { ...where, select: { id: true } });
      expect(removed).toMatchObject({ status: 200, data: { id: post.id } });
      expect(await db().prisma.post.count({ where: { id: post.id } })).toBe(0);

      const other = await newThread('purge-rpc-deleted');
      await rpc(users.alice, 'delete', 'post/delete', { where: { id: other.post.id } });
      expect((await rpc(users.admin, 'delete', 'post/hardDelete', { where: { id: other.post.id } })).status).toBe(404);
      const purged = await rpc(
        users.admin,
        'delete',
        'post/hardDelete',
        { where: { id: other.post.id } },
        {
          query: { withDeleted: 'true' },
        },
      );
      expect(purged.status).toBe(200);
      expect(await db().prisma.post.count({ where: { id: other.post.id } })).toBe(0);
    });
  });

  describe('refusals', () => {
    const document = (id?: number) => ({
      data: { type: 'post', ...(id && { id: String(id) }), attributes: { title: 'x' } },
    });
    const withDocument = (request: Test, body: unknown, type = JSON_API) =>
      request.set('Content-Type', type).send(body as object);
    const restRefusals: [string, string, (id: number) => Test][] = [
      ['GET withDeleted=yes', 'withDeleted', () => as(users.admin).get('/api/rest/post?withDeleted=yes')],
      [
        'GET withDeleted twice',
        'withDeleted',
        () => as(users.admin).get('/api/rest/post?withDeleted=true&withDeleted=true'),
      ],
      ['GET hardDelete=true', 'hardDelete', (id) => as(users.admin).get(`/api/rest/post/${id}?hardDelete=true`)],
      [
        'POST withDeleted',
        'withDeleted',
        () => withDocument(as(users.admin).post('/api/rest/post?withDeleted=true'), document()),
      ],
      [
        'PATCH withDeleted',
        'withDeleted',
        (id) => withDocument(as(users.admin).patch(`/api/rest/post/${id}?withDeleted=true`), document(id)),
      ],
      [
        'PATCH hardDelete',
        'hardDelete',
        (id) => withDocument(as(users.admin).patch(`/api/rest/post/${id}?hardDelete=true`), document(id)),
      ],
      [
        'DELETE withDeleted alone',
        'withDeleted',
        (id) => as(users.admin).delete(`/api/rest/post/${id}?withDeleted=true`),
      ],
      ['DELETE hardDelete=yes', 'hardDelete', (id) => as(users.admin).delete(`/api/rest/post/${id}?hardDelete=yes`)],
      [
        'DELETE hardDelete of a type not soft-deleted',
        'hardDelete',
        () => as(users.admin).delete(`/api/rest/user/${users.carol.id}?hardDelete=true`),
      ],
      [
        'restore withDeleted',
        'withDeleted',
        (id) => as(users.admin).post(`/api/rest/post/${id}/restore?withDeleted=true`),
      ],
      [
        'a relationship change withDeleted',
        'withDeleted',
        (id) =>
          withDocument(as(users.admin).post(`/api/rest/post/${id}/relationships/tags?withDeleted=true`), { data: [] }),
      ],
      [
        'atomic operations withDeleted',
        'withDeleted',
        (id) =>
          withDocument(
            as(users.admin).post('/api/rest/operations?withDeleted=true'),
            { 'atomic:operations': [{ op: 'remove', ref: { type: 'post', id: String(id) } }] },
            ATOMIC,
          ),
      ],
    ];

    it.each(restRefusals)('refuses %s with 400 naming %s, writing nothing', async (_, parameter, send) => {
      const { post } = await newThread('refusals');
      const res = await send(post.id).expect(400);
      expect(res.body).toEqual(expect.objectContaining(restRefusal(parameter)));
      expect(await db().prisma.post.findUnique({ where: { id: post.id } })).toMatchObject({
        title: post.title,
        deletedAt: null,
      });
      expect(await db().prisma.user.count({ where: { id: users.carol.id } })).toBe(1);
    });

    it.each([
      ['get', 'post/findMany', { withDeleted: 'yes' }],
      ['get', 'post/count', { withDeleted: 'false' }],
      ['patch', 'post/update', { withDeleted: 'true' }],
      ['post', 'post/create', { withDeleted: 'true' }],
      ['delete', 'post/delete', { withDeleted: 'true' }],
      ['post', 'post/restore', { withDeleted: 'true' }],
    ] as const)('refuses RPC %s %s with %j with 400', async (method, path, query) => {
      const { post } = await newThread('rpc-refusals');
      const args =
        method === 'get'
          ? { where: { id: post.id } }
          : method === 'post' && path === 'post/create'
            ? { data: { title: 'x', authorId: users.admin.id } }
            : method === 'patch'
              ? { where: { id: post.id }, data: { title: 'x' } }
              : { where: { id: post.id } };
      const reply = await rpc(users.admin, method, path, args, { query });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual(rpcRefusal('invalid-query-parameter'));
      expect(await db().prisma.post.findUnique({ where: { id: post.id } })).toMatchObject({
        title: post.title,
        deletedAt: null,
      });
    });

    it('refuses withDeleted on a sequential transaction', async () => {
      const res = await as(users.admin)
        .post('/api/rpc/$transaction/sequential?withDeleted=true')
        .send([{ model: 'Post', op: 'count', args: {} }])
        .expect(400);
      expect(res.body).toEqual(rpcRefusal('invalid-query-parameter'));
    });
  });
});

describe.each(testProviders())('restore of a row the caller cannot read (%s)', (provider) => {
  // Any signed-in user may restore any post, but reads only the published ones and their own drafts.
  const { as, rpc, users, t } = useSoftDeleteApp(provider, {
    options: {
      policies: {
        ...softDeletePolicies,
        Post: { ...softDeletePolicies.Post, restore: ({ user }: { user?: DemoUser }) => Boolean(user) },
      },
    },
  });
  /** An answer with the id it names left out: a missing id and an unreadable one must answer alike. */
  const answer = (res: { status: number; body: unknown }, id: number) => ({
    status: res.status,
    body: JSON.parse(JSON.stringify(res.body).replaceAll(String(id), '<id>')),
  });
  const deletedPost = async (published: boolean) =>
    (
      await t.db.prisma.post.create({
        data: { title: `restore-${published}`, published, authorId: users.alice.id, deletedAt: new Date() },
      })
    ).id;

  it('answers an unreadable deleted row exactly as a missing id, on REST and RPC, and restores nothing', async () => {
    const draft = await deletedPost(false);
    const missing = draft + 1000;
    const restRestore = (id: number) => as(users.carol).post(`/api/rest/post/${id}/restore`);
    const rpcRestoreAs = (user: DemoUser, id: number, headers: Record<string, string> = {}) =>
      rpc(user, 'post', 'post/restore', { where: { id } }, { headers });
    const rpcRestore = (id: number) => rpcRestoreAs(users.carol, id);
    expect(answer(await restRestore(draft), draft)).toEqual(answer(await restRestore(missing), missing));
    expect((await restRestore(missing)).status).toBe(404);
    expect(answer(await rpcRestore(draft), draft)).toEqual(answer(await rpcRestore(missing), missing));
    expect((await rpcRestore(missing)).status).toBe(404);
    expect((await t.db.prisma.post.findUnique({ where: { id: draft } }))?.deletedAt).toBeInstanceOf(Date);
    // The restore rule alone decides for a row the caller reads once restored.
    const published = await deletedPost(true);
    await as(users.carol).post(`/api/rest/post/${published}/restore`).expect(200);
    // Its author restores it, but reads no deleted representation of it: If-Match, even *, fails.
    const conditional = await rpcRestoreAs(users.alice, draft, { 'If-Match': '*' });
    expect(conditional.body.error?.errorCode).toBe('precondition-failed');
    expect((await t.db.prisma.post.findUnique({ where: { id: draft } }))?.deletedAt).toBeInstanceOf(Date);
    await as(users.alice).post(`/api/rest/post/${draft}/restore`).expect(200);
  });
});

describe.each(testProviders())('soft delete with the operations option (%s)', (provider) => {
  const { as, rpc, users, t } = useSoftDeleteApp(provider, {
    options: { operations: { Post: { exclude: ['restore', 'hardDelete'] } } },
  });

  it('refuses an excluded restore or hardDelete as any excluded operation', async () => {
    const { post } = await thread(t.db, users, 'excluded');
    await as(users.alice).delete(`/api/rest/post/${post.id}`).expect(204);
    const restore = await as(users.admin).post(`/api/rest/post/${post.id}/restore`).expect(403);
    expect(restore.body.errors[0].code).toBe('forbidden');
    await as(users.admin).delete(`/api/rest/post/${post.id}?withDeleted=true&hardDelete=true`).expect(403);
    for (const [method, operation] of [
      ['post', 'restore'],
      ['delete', 'hardDelete'],
    ] as const) {
      const reply = await rpc(users.admin, method, `post/${operation}`, { where: { id: post.id } });
      expect(reply.body).toEqual(rpcRefusal('unknown-operation'));
    }
    expect((await t.db.prisma.post.findUnique({ where: { id: post.id } }))?.deletedAt).toBeInstanceOf(Date);
    // Tags keep both.
    const tag = await t.db.prisma.tag.create({ data: { name: 'kept', deletedAt: new Date() } });
    await as(users.admin).post(`/api/rest/tag/${tag.id}/restore`).expect(200);
  });
});

describe.each(testProviders())('withDeleted without soft-deleted models (%s)', (provider) => {
  describe.each([
    ['with policies', { policies: samplePolicies }],
    ['without policies or rules', {}],
  ])('%s', (_, options) => {
    const t = useTestApp(provider, { options: { ...options, openapi: false } });

    it('refuses the parameter on both interfaces with 400: it would change nothing', async () => {
      const rest = await t.http().get('/api/rest/post?withDeleted=true').expect(400);
      expect(rest.body).toEqual(expect.objectContaining(restRefusal('withDeleted')));
      const rpcReply = await t.http().get('/api/rpc/post/findMany').query({ withDeleted: 'true' }).expect(400);
      expect(rpcReply.body).toEqual(rpcRefusal('invalid-query-parameter'));
      await t.http().get('/api/rest/post').expect(200);
      await t.http().post('/api/rest/post/1/restore').expect(404);
      expect(
        (
          await t
            .http()
            .post('/api/rpc/post/restore')
            .send({ where: { id: 1 } })
        ).body,
      ).toEqual(rpcRefusal('unknown-operation'));
    });
  });
});
