import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import type { CrudApiPolicies } from '../../lib/index.js';
import { seedPolicyBlog } from '../support/policy-fixtures.js';
import { callRpc } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const violation = {
  error: {
    message: expect.any(String),
    errorCode: 'rejected-by-policy',
    rejectedByPolicy: true,
    reason: 'ACCESS_POLICY_VIOLATION',
  },
};

describe.each(testProviders())('access policies over RPC (%s)', (provider) => {
  let caller: DemoUser | undefined;
  let alice: DemoUser, bob: DemoUser;
  const ids: Record<string, number> = {};
  const rpc = (user: DemoUser | undefined, method: Parameters<typeof callRpc>[1], path: string, args?: unknown) => {
    caller = user;
    return callRpc(t, method, path, args);
  };

  const t = useTestApp(provider, {
    options: { policies: samplePolicies, context: () => ({ user: caller }) },
    seed: async () => {
      const p = t.db.prisma;
      const seeded = await seedPolicyBlog(t.db);
      ({ alice, bob } = seeded);
      Object.assign(ids, seeded.posts);
      await p.comment.create({ data: { body: 'hidden', postId: ids.bobDraft!, authorId: bob.id } });
    },
  });

  const titles = (rows: { title: string }[]) => rows.map((row) => row.title).sort();

  it('filters every read: lists, single fetches, count, aggregate, groupBy', async () => {
    expect(titles((await rpc(alice, 'get', 'post/findMany')).data)).toEqual(['alicePub', 'bobPub']);
    expect(titles((await rpc(bob, 'get', 'post/findMany')).data)).toEqual(['alicePub', 'bobDraft', 'bobPub']);
    expect((await rpc(alice, 'get', 'post/findUnique', { where: { id: ids.bobDraft } })).data).toBeNull();
    expect((await rpc(alice, 'get', 'post/findUniqueOrThrow', { where: { id: ids.bobDraft } })).status).toBe(404);
    expect((await rpc(undefined, 'get', 'post/count')).data).toBe(2);
    expect((await rpc(alice, 'get', 'comment/count')).data).toBe(0);
    expect((await rpc(alice, 'get', 'post/aggregate', { _count: { _all: true } })).data).toEqual({
      _count: { _all: 2 },
    });
    const groups = (await rpc(alice, 'get', 'post/groupBy', { by: ['published'], _count: { _all: true } })).data;
    expect(groups).toEqual([{ published: true, _count: { _all: 2 } }]);
  });

  it('filters nested include/select, relation counts and relation filters', async () => {
    const user = (
      await rpc(alice, 'get', 'user/findUnique', {
        where: { id: bob.id },
        include: { posts: { include: { comments: true } }, _count: true },
      })
    ).data;
    expect(titles(user.posts)).toEqual(['bobPub']);
    expect(user._count).toMatchObject({ posts: 1, comments: 0 });
    expect(user).not.toHaveProperty('passwordHash');
    expect(
      (await rpc(alice, 'get', 'user/findMany', { where: { posts: { some: { published: false } } } })).data,
    ).toEqual([]);
    expect((await rpc(alice, 'get', 'user/count', { where: { comments: { some: { body: 'hidden' } } } })).data).toBe(0);
  });

  it.each([
    ['select', { select: { passwordHash: true } }],
    ['where', { where: { passwordHash: { startsWith: 'hash' } } }],
    ['orderBy', { orderBy: { passwordHash: 'asc' } }],
    ['distinct', { distinct: ['passwordHash'] }],
    ['a nested include', { include: { posts: { select: { author: { select: { passwordHash: true } } } } } }],
  ])('answers a hidden field in %s with 400 as an unknown field', async (_where, args) => {
    const res = await rpc(alice, 'get', 'user/findMany', args);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('passwordHash');
    expect(res.body.error.rejectedByPolicy).toBeUndefined();
  });

  it('answers a hidden field in groupBy `by` and aggregates with 400', async () => {
    expect((await rpc(alice, 'get', 'user/groupBy', { by: ['passwordHash'] })).status).toBe(400);
    expect((await rpc(alice, 'get', 'user/aggregate', { _min: { passwordHash: true } })).status).toBe(400);
  });

  it('never returns hidden fields, nested included', async () => {
    const posts = (await rpc(alice, 'get', 'post/findMany', { include: { author: true } })).data;
    expect(posts.every((post: { author: object }) => !('passwordHash' in post.author))).toBe(true);
  });

  it('refuses a create outside the rule with 403 and writes nothing', async () => {
    const before = await t.db.prisma.post.count();
    const res = await rpc(alice, 'post', 'post/create', { data: { title: 'forged', authorId: bob.id } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(violation);
    expect(await t.db.prisma.post.count()).toBe(before);
    const own = await rpc(alice, 'post', 'post/create', { data: { title: 'mine', authorId: alice.id } });
    expect(own.status).toBe(201);
    expect(own.data).toMatchObject({ title: 'mine' });
  });

  it('refuses update/delete of rows outside the rule (403, unchanged) and hides invisible ones (404)', async () => {
    expect(
      (await rpc(alice, 'patch', 'post/update', { where: { id: ids.bobPub }, data: { title: 'x' } })).body,
    ).toEqual(violation);
    expect((await rpc(alice, 'delete', 'post/delete', { where: { id: ids.bobPub } })).status).toBe(403);
    expect(
      (await rpc(alice, 'patch', 'post/update', { where: { id: ids.bobDraft }, data: { title: 'x' } })).status,
    ).toBe(404);
    expect((await rpc(alice, 'patch', 'post/updateMany', { data: { rating: 5 } })).data).toEqual({ count: 2 });
    expect((await rpc(alice, 'delete', 'post/deleteMany', { where: { authorId: bob.id } })).data).toEqual({ count: 0 });
    expect(await t.db.prisma.post.findUnique({ where: { id: ids.bobPub } })).toMatchObject({
      title: 'bobPub',
      rating: 0,
    });
  });

  it('checks nested writes and protected fields', async () => {
    const connect = await rpc(alice, 'patch', 'user/update', {
      where: { id: alice.id },
      data: { posts: { connect: { id: ids.bobPub } } },
    });
    expect(connect.body).toEqual(violation);
    const nestedCreate = await rpc(alice, 'patch', 'user/update', {
      where: { id: alice.id },
      data: { posts: { create: { title: 'n' } } },
    });
    expect(nestedCreate.status).toBe(403);
    const role = await rpc(alice, 'patch', 'user/update', { where: { id: alice.id }, data: { role: 'ADMIN' } });
    expect(role.body).toEqual(violation);
    expect(await t.db.prisma.post.findUnique({ where: { id: ids.bobPub } })).toMatchObject({ authorId: bob.id });
  });

  describe('with a result the caller may not read', () => {
    const secretTags: CrudApiPolicies = { Tag: { read: { name: { not: { startsWith: 'secret' } } }, create: true } };
    const r = useTestApp(provider, { options: { policies: secretTags } });

    it('keeps the write and answers 403 RESULT_NOT_READABLE', async () => {
      const res = await callRpc(r, 'post', 'tag/create', { data: { name: 'secret-rpc' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: {
          message: expect.any(String),
          errorCode: 'rejected-by-policy',
          rejectedByPolicy: true,
          reason: 'RESULT_NOT_READABLE',
        },
      });
      expect(await r.db.prisma.tag.count({ where: { name: 'secret-rpc' } })).toBe(1);
    });

    it('denies models without rules (defaultPolicy deny)', async () => {
      expect((await callRpc(r, 'get', 'post/findMany')).data).toEqual([]);
      expect((await callRpc(r, 'post', 'user/create', { data: { name: 'x', email: 'x@x' } })).status).toBe(403);
    });
  });
});
