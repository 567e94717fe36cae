/**
 * Rules that follow relations to soft-deleted models (a like readable when its post is readable):
 * a deleted row does not exist for them either, at any depth, on every read and write shape of
 * both interfaces.
 *
 * The oracle is a second application over a second database, seeded alike, in which the rows the
 * first one soft-deletes (through the API) were removed for good instead: the database's
 * referential actions took what hung off them, as if they had never existed. Generated rules
 * (seeded: to-one and to-many relations, `is`/`isNot`/`some`/`every`/`none`, to depth two below the
 * rule's own) and generated operations, sent to both as the same caller, must get the same answers,
 * and after a write both databases must hold the same rows, the first one's rows hanging off
 * deleted rows untouched.
 */
import fc from 'fast-check';

import { type DemoUser, type SampleContext, samplePolicies } from '../../fixtures/blog/policies.js';
import {
  type CrudApiPolicies,
  type CrudApiRules,
  type PolicyRule,
  type PolicyWhere,
  RuleError,
} from '../../lib/index.js';
import {
  type SoftDeleteApp,
  softDeletePolicies,
  softDeleteRules,
  type SoftDeleteUsers,
  thread,
  useSoftDeleteApp,
} from '../support/soft-delete-fixtures.js';
import { testProviders } from '../support/test-database.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

type Model = 'Like' | 'Post' | 'Comment' | 'Tag' | 'User';
type Generated = Partial<Record<Model, PolicyWhere>>;

/** The rules of the case under way, joined to the sample's read rules of these models (both applications read it). */
let generated: Generated = {};

/** `base AND the generated rule of model`, for the context of a request. */
const withGenerated =
  (model: Model, base: PolicyRule<PolicyWhere, SampleContext>) =>
  (ctx: SampleContext): boolean | PolicyWhere => {
    const own = typeof base === 'function' ? base(ctx) : base;
    const extra = generated[model];
    if (extra === undefined || own === false) return own;
    return own === true ? extra : { AND: [own, extra] };
  };

const owns =
  (field: string) =>
  ({ user }: SampleContext): PolicyWhere | false =>
    user ? { [field]: user.id } : false;

const policies: CrudApiPolicies = {
  ...softDeletePolicies,
  Post: { ...softDeletePolicies.Post, read: withGenerated('Post', samplePolicies.Post!.read!) },
  Comment: { ...softDeletePolicies.Comment, read: withGenerated('Comment', samplePolicies.Comment!.read!) },
  Tag: { ...softDeletePolicies.Tag, read: withGenerated('Tag', true) },
  // The sample's like rule (its post readable), and updates of one's own likes, so that every write shape applies.
  Like: {
    ...samplePolicies.Like,
    read: withGenerated('Like', samplePolicies.Like!.read!),
    update: owns('userId'),
  },
};

/** The relations a generated rule follows: name, related model, to-many, optional. */
const RELATIONS: Record<Model, [string, Model, boolean, boolean][]> = {
  Like: [
    ['post', 'Post', false, false],
    ['user', 'User', false, false],
  ],
  Post: [
    ['tags', 'Tag', true, false],
    ['comments', 'Comment', true, false],
    ['author', 'User', false, false],
    ['likes', 'Like', true, false],
  ],
  Comment: [
    ['post', 'Post', false, false],
    ['parent', 'Comment', false, true],
    ['replies', 'Comment', true, false],
  ],
  Tag: [['posts', 'Post', true, false]],
  User: [
    ['posts', 'Post', true, false],
    ['comments', 'Comment', true, false],
  ],
};

/** Conditions on a model's own columns, which end a generated rule. */
const LEAVES: Record<Model, PolicyWhere[]> = {
  Like: [{}, { userId: { in: [1, 2] } }],
  Post: [{}, { published: true }, { title: { endsWith: '1' } }, { published: false }],
  Comment: [{}, { body: { contains: '-0' } }, { parentId: null }],
  Tag: [{}, { name: 'red' }, { name: { in: ['red', 'blue'] } }],
  User: [{}, { name: 'bob' }, { name: { in: ['alice', 'carol'] } }],
};

const pick = <T>(list: readonly T[], index: number): T => list[index % list.length]!;

/** A generated `where` of `model` following relations to `depth`, read from a stream of choices. */
function ruleOf(model: Model, depth: number, next: () => number): PolicyWhere {
  const choice = depth > 0 ? next() % 6 : 0;
  if (choice <= 1) return pick(LEAVES[model], next());
  if (choice === 2) {
    const op = pick(['AND', 'OR', 'NOT'], next());
    return { [op]: [ruleOf(model, depth - 1, next), ruleOf(model, depth - 1, next)] };
  }
  const [name, target, many, optional] = pick(RELATIONS[model], next());
  const inner = ruleOf(target, depth - 1, next);
  if (many) return { [name]: { [pick(['some', 'every', 'none'], next())]: inner } };
  const forms: PolicyWhere[] = [{ [name]: inner }, { [name]: { is: inner } }, { [name]: { isNot: inner } }];
  if (optional) forms.push({ [name]: null }, { [name]: { isNot: null } }, { [name]: { is: null } });
  return pick(forms, next());
}

/** The generated rules of a case: each model's may be absent. */
function rulesOf(choices: number[]): Generated {
  let at = 0;
  const next = () => choices[at++ % choices.length]!;
  const rules: Generated = {};
  for (const model of ['Like', 'Post', 'Comment', 'Tag'] as const) {
    if (next() % 2 === 0) rules[model] = ruleOf(model, 3, next);
  }
  return rules;
}

type Caller = keyof SoftDeleteUsers | 'anonymous';
const CALLERS: Caller[] = ['alice', 'bob', 'carol', 'admin', 'anonymous'];
const POSTS = 9;
const DELETED_POSTS = [0, 4, 8];

/** An answer as compared between the two applications: times (never the same twice) left out. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value === 'bigint') return String(value);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  if (typeof (value as { toFixed?: unknown }).toFixed === 'function') return String(value);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.endsWith('At'))
      .map(([key, item]) => [key, comparable(item)]),
  );
}

describe.each(testProviders())('rules through soft-deleted relations (%s)', (provider) => {
  /** The same blog twice: in `soft` some rows are soft-deleted, in `hard` they never existed. */
  const soft = useSoftDeleteApp(provider, { options: { policies }, seed: (t, users) => seedBlog(t.db.prisma, users) });
  const hard = useSoftDeleteApp(provider, { options: { policies }, seed: (t, users) => seedBlog(t.db.prisma, users) });
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, n));

  async function seedBlog(p: any, users: SoftDeleteUsers) {
    const authors = [users.alice, users.bob, users.carol];
    const likers = [users.alice, users.bob, users.carol, users.admin];
    for (const name of ['red', 'blue', 'green', 'gray']) await p.tag.create({ data: { name } });
    for (let i = 0; i < POSTS; i++) {
      await p.post.create({
        data: {
          id: i + 1,
          title: `P${i}`,
          published: i % 3 !== 1,
          authorId: authors[i % 3]!.id,
          createdAt: at(i),
          updatedAt: at(i),
          tags: { connect: [{ id: (i % 4) + 1 }, { id: ((i + 1) % 4) + 1 }] },
        },
      });
      for (let c = 0; c < 2; c++) {
        await p.comment.create({
          data: {
            id: `c${i}-${c}`,
            body: `c${i}-${c}`,
            postId: i + 1,
            authorId: authors[(i + c) % 3]!.id,
            createdAt: at(c),
          },
        });
      }
      await p.comment.create({
        data: {
          id: `c${i}-r`,
          body: `c${i}-r`,
          postId: i + 1,
          parentId: `c${i}-0`,
          authorId: authors[i % 3]!.id,
          createdAt: at(3),
        },
      });
      for (let l = 0; l < 2; l++)
        await p.like.create({ data: { userId: likers[(i + l) % 4]!.id, postId: i + 1, createdAt: at(l) } });
    }
  }

  /** Rows of the soft application hanging off deleted rows: its likes of deleted posts, and the deleted rows. */
  let hanging: unknown;
  const hangingRows = async () => {
    const p = soft.t.db.prisma as any;
    const deleted = { deletedAt: { not: null } };
    return comparable({
      likes: await p.like.findMany({ where: { post: deleted }, orderBy: [{ userId: 'asc' }, { postId: 'asc' }] }),
      posts: await p.post.findMany({ where: deleted, orderBy: { id: 'asc' } }),
      comments: await p.comment.findMany({ where: deleted, orderBy: { id: 'asc' } }),
      tags: await p.tag.findMany({ where: deleted, orderBy: { id: 'asc' } }),
    });
  };
  /** The rows of an application that exist: live ones, likes of live posts. */
  const existingRows = async (app: SoftDeleteApp) => {
    const p = app.t.db.prisma as any;
    const live = { deletedAt: null };
    return comparable({
      likes: await p.like.findMany({ where: { post: live }, orderBy: [{ userId: 'asc' }, { postId: 'asc' }] }),
      posts: await p.post.findMany({ where: live, orderBy: { id: 'asc' }, include: { tags: { where: live } } }),
      comments: await p.comment.findMany({ where: live, orderBy: { id: 'asc' } }),
      tags: await p.tag.findMany({ where: live, orderBy: { id: 'asc' } }),
    });
  };

  beforeAll(async () => {
    expect(hard.users).toEqual(soft.users);
    const { users } = soft;
    const authors = [users.alice, users.bob, users.carol];
    // Deleted through the API as their owners would (posts take their comments), removed for good in the oracle.
    for (const i of DELETED_POSTS)
      await soft
        .as(authors[i % 3])
        .delete(`/api/rest/post/${i + 1}`)
        .expect(204);
    await soft
      .as(authors[(2 + 0) % 3])
      .delete('/api/rest/comment/c2-0')
      .expect(204);
    await soft.as(users.admin).delete('/api/rest/tag/1').expect(204);
    const p = hard.t.db.prisma as any;
    await p.post.deleteMany({ where: { id: { in: DELETED_POSTS.map((i) => i + 1) } } });
    await p.comment.delete({ where: { id: 'c2-0' } });
    await p.tag.delete({ where: { id: 1 } });
    expect(await existingRows(soft)).toEqual(await existingRows(hard));
    hanging = await hangingRows();
    expect((hanging as { likes: unknown[] }).likes).toHaveLength(DELETED_POSTS.length * 2);
  });

  afterEach(() => {
    generated = {};
  });

  const user = (caller: Caller): DemoUser | undefined => (caller === 'anonymous' ? undefined : soft.users[caller]);
  /** A like's key: one of the seeded likes (some of deleted posts), or one that never existed. */
  const likeKey = (n: number) => {
    const post = n % (POSTS + 1);
    return { userId: (n % 4) + 1, postId: post === POSTS ? 99 : post + 1 };
  };

  interface Call {
    rest?: { method: 'get' | 'patch' | 'delete'; url: string; body?: unknown };
    rpc?: { method: 'get' | 'patch' | 'delete'; path: string; args: unknown };
    writes?: boolean;
  }

  /** The generated operations: reads and writes of either interface, on likes and on what reaches them. */
  function callOf(kind: number, n: number, m: number): Call {
    const key = likeKey(n);
    const id = `${key.userId}_${key.postId}`;
    const post = (m % (POSTS + 1)) + 1;
    const userId = (m % 4) + 1;
    const unique = { userId_postId: key };
    const calls: Call[] = [
      { rest: { method: 'get', url: '/api/rest/like?include=post,user&page[limit]=100' } },
      { rest: { method: 'get', url: `/api/rest/like?filter[postId]=${post}` } },
      { rest: { method: 'get', url: `/api/rest/like/${id}?include=post` } },
      { rest: { method: 'get', url: `/api/rest/post/${post}/likes` } },
      { rest: { method: 'get', url: `/api/rest/post/${post}/relationships/likes` } },
      { rest: { method: 'get', url: `/api/rest/user/${userId}/likes?include=post` } },
      { rest: { method: 'get', url: `/api/rest/user/${userId}?include=likes.post,comments,posts.tags` } },
      { rest: { method: 'get', url: '/api/rest/post?include=likes,tags,comments.replies&page[limit]=100' } },
      { rest: { method: 'get', url: '/api/rest/tag?include=posts&filter[posts][likes][userId]=2' } },
      { rest: { method: 'get', url: '/api/rest/comment?include=post,parent,replies&page[limit]=100' } },
      { rpc: { method: 'get', path: 'like/findMany', args: { include: { post: true }, where: { postId: post } } } },
      { rpc: { method: 'get', path: 'like/findUnique', args: { where: unique } } },
      { rpc: { method: 'get', path: 'like/count', args: { where: { postId: post } } } },
      { rpc: { method: 'get', path: 'like/count', args: { where: { userId } } } },
      {
        rpc: {
          method: 'get',
          path: 'like/aggregate',
          args: { where: { userId }, _count: { _all: true }, _min: { postId: true } },
        },
      },
      {
        rpc: {
          method: 'get',
          path: 'like/groupBy',
          args: { by: ['userId'], _count: { _all: true }, orderBy: { userId: 'asc' } },
        },
      },
      {
        rpc: {
          method: 'get',
          path: 'user/findMany',
          args: {
            include: { likes: { include: { post: { include: { tags: true } } } }, _count: true },
            orderBy: { id: 'asc' },
          },
        },
      },
      {
        rpc: {
          method: 'get',
          path: 'post/findMany',
          args: {
            include: { _count: true, likes: true, tags: true, comments: { include: { parent: true } } },
            orderBy: { id: 'asc' },
          },
        },
      },
      {
        rpc: {
          method: 'get',
          path: 'tag/findMany',
          args: { include: { posts: true, _count: true }, orderBy: { id: 'asc' } },
        },
      },
      { rpc: { method: 'get', path: 'user/count', args: { where: { likes: { some: { postId: post } } } } } },
      { rpc: { method: 'get', path: 'post/count', args: { where: { likes: { every: { userId } } } } } },
      // Writes.
      {
        writes: true,
        rpc: { method: 'patch', path: 'like/update', args: { where: unique, data: { createdAt: at(40 + m) } } },
      },
      { writes: true, rpc: { method: 'delete', path: 'like/delete', args: { where: unique } } },
      {
        writes: true,
        rpc: {
          method: 'patch',
          path: 'like/updateMany',
          args: { where: { postId: post }, data: { createdAt: at(50 + n) } },
        },
      },
      { writes: true, rpc: { method: 'delete', path: 'like/deleteMany', args: { where: { postId: post } } } },
      { writes: true, rpc: { method: 'delete', path: 'like/deleteMany', args: { where: { userId } } } },
      {
        writes: true,
        rest: {
          method: 'patch',
          url: `/api/rest/like/${id}`,
          body: { data: { type: 'like', id, attributes: { createdAt: at(60 + m).toISOString() } } },
        },
      },
      { writes: true, rest: { method: 'delete', url: `/api/rest/like/${id}` } },
      {
        writes: true,
        rpc: {
          method: 'patch',
          path: 'post/updateMany',
          args: { where: { likes: { some: {} } }, data: { rating: m } },
        },
      },
      {
        writes: true,
        rpc: {
          method: 'delete',
          path: 'comment/deleteMany',
          args: { where: { post: { likes: { some: { userId } } } } },
        },
      },
      // Nested writes, through the liker.
      {
        writes: true,
        rpc: {
          method: 'patch',
          path: 'user/update',
          args: {
            where: { id: key.userId },
            data: { likes: { update: { where: { userId_postId: key }, data: { createdAt: at(70 + m) } } } },
          },
        },
      },
      {
        writes: true,
        rpc: {
          method: 'patch',
          path: 'user/update',
          args: { where: { id: userId }, data: { likes: { deleteMany: { postId: post } } } },
        },
      },
    ];
    return pick(calls, kind);
  }

  /** The answer of a call to one application, as compared. */
  async function answer(app: SoftDeleteApp, caller: Caller, call: Call) {
    if (call.rest) {
      const { method, url, body } = call.rest;
      const request = app.as(user(caller))[method](url);
      const res = await (body === undefined
        ? request
        : request.set('Content-Type', 'application/vnd.api+json').send(body as object));
      const errors = res.body?.errors?.map((error: { code: string }) => error.code);
      return { status: res.status, body: errors ?? comparable(res.body) };
    }
    const { method, path, args } = call.rpc!;
    const reply = await app.rpc(user(caller), method, path, args);
    return { status: reply.status, body: reply.body?.error?.errorCode ?? comparable(reply.data) };
  }

  const cases = fc.record({
    rules: fc.array(fc.nat(), { minLength: 24, maxLength: 24 }),
    caller: fc.constantFrom(...CALLERS),
    kind: fc.nat(),
    n: fc.nat(),
    m: fc.nat(),
  });

  it('answers every generated operation as if the deleted rows never existed, and leaves what hangs off them', async () => {
    let rows = 0;
    for (const { rules, caller, kind, n, m } of fc.sample(cases, { seed: SEED, numRuns: RUNS })) {
      generated = rulesOf(rules);
      const call = callOf(kind, n, m);
      const [got, expected] = [await answer(soft, caller, call), await answer(hard, caller, call)];
      const context = `${caller} ${JSON.stringify(call)} under ${JSON.stringify(generated)}`;
      expect([context, got]).toEqual([context, expected]);
      if (got.status < 300 && !call.writes) rows += JSON.stringify(got.body).length > 40 ? 1 : 0;
      if (call.writes) {
        expect([context, await existingRows(soft)]).toEqual([context, await existingRows(hard)]);
        // Writes may delete further rows; those hanging off the first deleted ones stay as they were.
        const now = (await hangingRows()) as Record<string, unknown[]>;
        for (const [list, rows] of Object.entries(hanging as Record<string, unknown[]>))
          expect([context, list, now[list]]).toEqual([context, list, expect.arrayContaining(rows)]);
      }
    }
    // The answers are not all empty or refused: the comparison compares something.
    expect(rows).toBeGreaterThan(RUNS / 5);
    // Two applications and a few hundred requests, on a machine the suites share.
  }, 300_000);
});

describe.each(testProviders())('rows hanging off a deleted post, by example (%s)', (provider) => {
  const app = useSoftDeleteApp(provider);
  const { as, rpc, users } = app;
  let serial = 0;
  const newThread = () => thread(app.t.db, users, `hanging-${++serial}`);
  const likeOf = async (liker: DemoUser, postId: number) =>
    app.t.db.prisma.like.create({ data: { userId: liker.id, postId } });

  it('hides, counts out and refuses to write the likes of a deleted post, as for a post that never existed', async () => {
    const { post } = await newThread();
    await likeOf(users.bob, post.id);
    await as(users.alice).delete(`/api/rest/post/${post.id}`).expect(204);
    const missing = 999_999;
    for (const postId of [post.id, missing]) {
      const id = `${users.bob.id}_${postId}`;
      const rest = as(users.bob);
      expect((await rest.get(`/api/rest/like?filter[postId]=${postId}`).expect(200)).body.meta.total).toBe(0);
      await as(users.bob).get(`/api/rest/like/${id}`).expect(404);
      await as(users.bob).delete(`/api/rest/like/${id}`).expect(404);
      const unique = { where: { userId_postId: { userId: users.bob.id, postId } } };
      expect((await rpc(users.bob, 'get', 'like/count', { where: { postId } })).data).toBe(0);
      expect((await rpc(users.bob, 'get', 'like/findUnique', unique)).data).toBeNull();
      expect((await rpc(users.bob, 'delete', 'like/delete', unique)).status).toBe(404);
      expect((await rpc(users.bob, 'delete', 'like/deleteMany', { where: { postId } })).data).toEqual({ count: 0 });
    }
    const counted = await rpc(users.bob, 'get', 'user/findUnique', {
      where: { id: users.bob.id },
      select: { _count: { select: { likes: true } }, likes: true },
    });
    expect(counted.data._count.likes).toBe(counted.data.likes.length);
    expect(counted.data.likes).not.toContainEqual(expect.objectContaining({ postId: post.id }));
    expect(await app.t.db.prisma.like.count({ where: { postId: post.id } })).toBe(1);
  });

  it('shows them to an admin who reads deleted rows (withDeleted=true), and to no one else', async () => {
    const { post } = await newThread();
    await likeOf(users.bob, post.id);
    await as(users.alice).delete(`/api/rest/post/${post.id}`).expect(204);
    const url = `/api/rest/like?filter[postId]=${post.id}&withDeleted=true`;
    const read = { where: { postId: post.id } };
    const withDeleted = { query: { withDeleted: 'true' } };
    expect((await as(users.admin).get(url).expect(200)).body.meta.total).toBe(1);
    expect((await rpc(users.admin, 'get', 'like/count', read, withDeleted)).data).toBe(1);
    expect((await as(users.bob).get(url).expect(200)).body.meta.total).toBe(0);
    expect((await rpc(users.bob, 'get', 'like/count', read, withDeleted)).data).toBe(0);
    expect((await as(users.admin).get(`/api/rest/like?filter[postId]=${post.id}`).expect(200)).body.meta.total).toBe(0);
  });

  // The decision: a cascade belongs to the delete of its row, as the database's own `onDelete: Cascade`
  // does; the dependants' delete rules are not asked (their beforeDelete hooks are).
  it.each([
    ['REST', (id: number) => as(users.alice).delete(`/api/rest/post/${id}`).expect(204)],
    ['RPC', (id: number) => rpc(users.alice, 'delete', 'post/delete', { where: { id } })],
  ])('takes with a post deleted over %s the comments its author may not delete', async (_, remove) => {
    const { post, comments } = await newThread();
    const bobs = comments.filter((comment) => comment.authorId === users.bob.id);
    await as(users.alice).delete(`/api/rest/comment/${bobs[0]!.id}`).expect(403);
    const refused = await rpc(users.alice, 'delete', 'comment/deleteMany', { where: { id: bobs[1]!.id } });
    expect(refused.data).toEqual({ count: 0 });
    expect(await app.t.db.prisma.comment.count({ where: { postId: post.id, deletedAt: { not: null } } })).toBe(0);
    await remove(post.id);
    const stored = await app.t.db.prisma.post.findUniqueOrThrow({
      where: { id: post.id },
      include: { comments: true },
    });
    expect(stored.deletedAt).toBeInstanceOf(Date);
    expect(stored.comments.map((comment) => comment.deletedAt)).toEqual(comments.map(() => stored.deletedAt));
  });
});

describe.each(testProviders())('a cascade refused by a dependant’s beforeDelete hook (%s)', (provider) => {
  // How an application judges the dependants of a cascade: its hook refuses, the whole delete rolls back.
  const rules: CrudApiRules = {
    ...softDeleteRules,
    Comment: {
      ...softDeleteRules.Comment,
      beforeDelete: ({ rows, context }) => {
        const user = (context as SampleContext).user;
        if (rows.some((row) => row.authorId !== user?.id && user?.role !== 'ADMIN'))
          throw new RuleError('Comments of others stay.', [], 'kept');
      },
    },
  };
  const app = useSoftDeleteApp(provider, { options: { rules } });
  const { as, rpc, users } = app;

  it('leaves the post and every comment as they were, on both interfaces', async () => {
    const { post } = await thread(app.t.db, users, 'kept');
    const rest = await as(users.alice).delete(`/api/rest/post/${post.id}`);
    const viaRpc = await rpc(users.alice, 'delete', 'post/delete', { where: { id: post.id } });
    expect([rest.status, viaRpc.status]).toEqual([400, 400]);
    expect(await app.t.db.prisma.comment.count({ where: { postId: post.id, deletedAt: null } })).toBe(3);
    expect((await app.t.db.prisma.post.findUniqueOrThrow({ where: { id: post.id } })).deletedAt).toBeNull();
  });
});
