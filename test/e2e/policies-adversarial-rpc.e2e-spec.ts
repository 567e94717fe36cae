/**
 * Issue #11, RPC side: the sample app's policies tried as an attacker would (anonymous, an ADMIN,
 * two USERs, rows each cannot read). Every probe compares two answers, or the database before and
 * after; none relies on a message text alone.
 */
import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import {
  isClientError,
  normalizeAnswer,
  probeState,
  PROTOTYPE_KEYS,
  resetAdversarialWorld,
  seedAdversarialWorld,
  WORLD,
} from '../support/adversarial-fixtures.js';
import { rawRpc, rpcReason } from '../support/adversarial-http.js';
import { callRpc } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

type Caller = 'anon' | 'admin' | 'alice' | 'bob';
type Method = 'get' | 'post' | 'patch' | 'delete';

const { alice, bob, admin, posts: P, comments: C, tags: T, missing: M } = WORLD;
const USERS: Record<Caller, DemoUser | undefined> = { anon: undefined, admin, alice, bob };

/** Prototype-key probes: `$KEY` marks where the key goes; the JSON text is sent as is. */
const PROTOTYPE_PROBES: [label: string, caller: Caller, method: Method, path: string, json: string][] = [
  [
    'update data (role)',
    'alice',
    'patch',
    'user/update',
    `{"where":{"id":${alice.id}},"data":{"$KEY":{"role":"ADMIN"}}}`,
  ],
  [
    'update data (protected passwordHash)',
    'alice',
    'patch',
    'user/update',
    `{"where":{"id":${alice.id}},"data":{"$KEY":{"passwordHash":"pwned"}}}`,
  ],
  [
    'updateMany data',
    'alice',
    'patch',
    'user/updateMany',
    `{"where":{"id":${alice.id}},"data":{"$KEY":{"role":"ADMIN"}}}`,
  ],
  [
    'updateManyAndReturn data',
    'alice',
    'patch',
    'user/updateManyAndReturn',
    `{"where":{"id":${alice.id}},"data":{"$KEY":{"role":"ADMIN"}}}`,
  ],
  [
    'upsert update',
    'alice',
    'post',
    'user/upsert',
    `{"where":{"id":${alice.id}},"create":{"name":"x","email":"x@x"},"update":{"$KEY":{"role":"ADMIN"}}}`,
  ],
  [
    'create data (foreign author)',
    'alice',
    'post',
    'post/create',
    `{"data":{"title":"forged","$KEY":{"authorId":${bob.id}}}}`,
  ],
  [
    'createMany data row',
    'alice',
    'post',
    'post/createMany',
    `{"data":[{"title":"forged","authorId":${alice.id},"$KEY":{"authorId":${bob.id}}}]}`,
  ],
  [
    'nested author.update',
    'alice',
    'patch',
    'post/update',
    `{"where":{"id":${P.alicePub}},"data":{"author":{"update":{"$KEY":{"role":"ADMIN"}}}}}`,
  ],
  [
    'data holding nested comments.update',
    'alice',
    'patch',
    'post/update',
    `{"where":{"id":${P.alicePub}},"data":{"$KEY":{"comments":{"update":{"where":{"id":"${C.bobOnAlicePub}"},"data":{"body":"pwned"}}}}}}`,
  ],
  [
    'data holding nested likes.create',
    'alice',
    'patch',
    'post/update',
    `{"where":{"id":${P.alicePub}},"data":{"$KEY":{"likes":{"create":{"userId":${bob.id}}}}}}`,
  ],
  [
    'a relation field holding deleteMany',
    'alice',
    'patch',
    'post/update',
    `{"where":{"id":${P.alicePub}},"data":{"comments":{"$KEY":{"deleteMany":{}}}}}`,
  ],
  [
    'nested deleteMany where',
    'alice',
    'patch',
    'post/update',
    `{"where":{"id":${P.alicePub}},"data":{"comments":{"deleteMany":{"$KEY":{"authorId":${bob.id}}}}}}`,
  ],
  [
    'nested create data',
    'alice',
    'patch',
    'post/update',
    `{"where":{"id":${P.alicePub}},"data":{"comments":{"create":{"body":"x","$KEY":{"authorId":${bob.id}}}}}}`,
  ],
  [
    'Json value',
    'alice',
    'patch',
    'post/update',
    `{"where":{"id":${P.alicePub}},"data":{"metadata":{"$KEY":{"polluted":true}}}}`,
  ],
  [
    'connect selector',
    'alice',
    'patch',
    'comment/update',
    `{"where":{"id":"${C.aliceOnAlicePub}"},"data":{"post":{"connect":{"id":${P.alicePub},"$KEY":{"published":false}}}}}`,
  ],
  [
    'update where',
    'alice',
    'patch',
    'post/update',
    `{"where":{"id":${P.alicePub},"$KEY":{"title":"x"}},"data":{"title":"changed"}}`,
  ],
  ['deleteMany where', 'alice', 'delete', 'post/deleteMany', `{"where":{"$KEY":{"id":{"gt":0}}}}`],
  [
    'updateMany where',
    'alice',
    'patch',
    'post/updateMany',
    `{"where":{"$KEY":{"authorId":${bob.id}}},"data":{"rating":9}}`,
  ],
  [
    'findMany where (hidden field)',
    'anon',
    'get',
    'user/findMany',
    `{"where":{"$KEY":{"passwordHash":{"startsWith":"hash-a"}},"id":${alice.id}}}`,
  ],
  [
    'to-one relation filter',
    'anon',
    'get',
    'post/findMany',
    `{"where":{"author":{"$KEY":{"passwordHash":{"startsWith":"hash-a"}}}}}`,
  ],
  ['some filter', 'alice', 'get', 'user/findMany', `{"where":{"posts":{"some":{"$KEY":{"published":false}}}}}`],
  ['none filter', 'alice', 'get', 'user/findMany', `{"where":{"posts":{"none":{"$KEY":{"published":false}}}}}`],
  ['every filter', 'alice', 'get', 'user/findMany', `{"where":{"posts":{"every":{"$KEY":{"published":true}}}}}`],
  ['AND', 'anon', 'get', 'user/findMany', `{"where":{"AND":[{"$KEY":{"passwordHash":{"startsWith":"hash"}}}]}}`],
  ['OR', 'anon', 'get', 'user/findMany', `{"where":{"OR":[{"$KEY":{"passwordHash":{"startsWith":"hash"}}}]}}`],
  ['NOT', 'anon', 'get', 'user/findMany', `{"where":{"NOT":{"$KEY":{"passwordHash":{"startsWith":"hash"}}}}}`],
  ['field filter object', 'anon', 'get', 'user/findMany', `{"where":{"name":{"$KEY":{"equals":"alice"}}}}`],
  ['count where', 'anon', 'get', 'user/count', `{"where":{"$KEY":{"passwordHash":{"startsWith":"hash"}}}}`],
  [
    'groupBy having',
    'anon',
    'get',
    'user/groupBy',
    `{"by":["role"],"having":{"$KEY":{"passwordHash":{"_max":{"gt":"a"}}}}}`,
  ],
  ['orderBy', 'anon', 'get', 'user/findMany', `{"orderBy":{"$KEY":{"passwordHash":"asc"}}}`],
  ['select', 'anon', 'get', 'user/findMany', `{"select":{"$KEY":{"passwordHash":true}}}`],
  ['include', 'anon', 'get', 'user/findMany', `{"include":{"$KEY":{"posts":true}}}`],
  [
    'nested include args',
    'anon',
    'get',
    'user/findMany',
    `{"include":{"posts":{"where":{"$KEY":{"published":false}}}}}`,
  ],
  ['aggregate _max', 'anon', 'get', 'user/aggregate', `{"_max":{"$KEY":{"passwordHash":true}}}`],
  ['cursor', 'anon', 'get', 'post/findMany', `{"cursor":{"id":${P.bobDraft},"$KEY":{"published":true}}}`],
  [
    'the arguments themselves',
    'anon',
    'get',
    'user/findMany',
    `{"$KEY":{"where":{"passwordHash":{"startsWith":"hash"}}}}`,
  ],
];

describe.each(testProviders())('adversarial access policies over RPC (%s)', (provider) => {
  let caller: DemoUser | undefined;
  const rpc = (who: Caller, method: Method, path: string, args?: unknown) => {
    caller = USERS[who];
    return callRpc(t, method, path, args);
  };
  const raw = (who: Caller, method: Method, path: string, json: string) => {
    caller = USERS[who];
    return rawRpc(t, method, path, json);
  };
  const norm = (res: { status: number; body: unknown }, replace: readonly (string | number)[] = []) =>
    normalizeAnswer(res.status, res.body, replace);

  const t = useTestApp(provider, {
    options: { policies: samplePolicies, context: () => ({ user: caller }) },
    seed: ({ db }) => seedAdversarialWorld(db),
  });

  describe('prototype keys in any position are refused (4xx) and change nothing', () => {
    const table = PROTOTYPE_PROBES.flatMap(([label, who, method, path, json]) =>
      PROTOTYPE_KEYS.map((key) => [key, label, who, method, path, json.replaceAll('$KEY', key)] as const),
    );
    it.each(table)('%s in %s (%s %s %s)', async (_key, _label, who, method, path, json) => {
      const { result, before, after } = await probeState(t.db, () => raw(who, method, path, json));
      expect({ status: result.status, clientError: isClientError(result.status) }).toEqual({
        status: result.status,
        clientError: true,
      });
      expect(after).toBe(before);
    });
  });

  describe('updates are checked again on the row after the change (403, row unchanged)', () => {
    const table: [string, Caller, Method, string, unknown][] = [
      [
        'post authorId to another user',
        'alice',
        'patch',
        'post/update',
        { where: { id: P.alicePub }, data: { authorId: bob.id } },
      ],
      [
        'draft authorId to another user',
        'alice',
        'patch',
        'post/update',
        { where: { id: P.aliceDraft }, data: { authorId: bob.id } },
      ],
      [
        'post author.connect another user',
        'alice',
        'patch',
        'post/update',
        { where: { id: P.alicePub }, data: { author: { connect: { id: bob.id } } } },
      ],
      [
        'updateMany authorId',
        'alice',
        'patch',
        'post/updateMany',
        { where: { id: P.alicePub }, data: { authorId: bob.id } },
      ],
      [
        'updateManyAndReturn authorId',
        'alice',
        'patch',
        'post/updateManyAndReturn',
        { where: { id: P.alicePub }, data: { authorId: bob.id } },
      ],
      [
        "upsert's update authorId",
        'alice',
        'post',
        'post/upsert',
        { where: { id: P.alicePub }, create: { title: 'x', authorId: alice.id }, update: { authorId: bob.id } },
      ],
      [
        'profile userId to another user',
        'alice',
        'patch',
        'profile/update',
        { where: { id: WORLD.aliceProfile }, data: { userId: bob.id } },
      ],
      [
        'profile user.connect another user',
        'alice',
        'patch',
        'profile/update',
        { where: { id: WORLD.aliceProfile }, data: { user: { connect: { id: bob.id } } } },
      ],
      [
        'comment authorId to another user',
        'alice',
        'patch',
        'comment/update',
        { where: { id: C.aliceOnAlicePub }, data: { authorId: bob.id } },
      ],
    ];
    it.each(table)('%s', async (_label, who, method, path, args) => {
      const { result, before, after } = await probeState(t.db, () => rpc(who, method, path, args));
      // MySQL has no updateManyAndReturn: the RPC refuses it (400) before any policy runs.
      const refusal =
        provider === 'mysql' && path.endsWith('AndReturn')
          ? { status: 400, reason: undefined }
          : { status: 403, reason: 'ACCESS_POLICY_VIOLATION' };
      expect({ status: result.status, reason: rpcReason(result.body) }).toEqual(refusal);
      expect(after).toBe(before);
    });

    it('still lets an author change their own post, and keep it theirs', async () => {
      const res = await rpc('alice', 'patch', 'post/update', {
        where: { id: P.alicePub },
        data: { authorId: alice.id, rating: 2 },
      });
      expect(res.status).toBe(200);
      expect(await t.db.prisma.post.findUnique({ where: { id: P.alicePub } })).toMatchObject({
        authorId: alice.id,
        rating: 2,
      });
      await t.db.prisma.post.update({ where: { id: P.alicePub }, data: { rating: 0 } });
    });
  });

  describe('foreign keys are relations: an unreadable target answers exactly like a missing one', () => {
    // [label, caller, method, path, args for a target id, the hidden target, the missing target]
    const table: [string, Caller, Method, string, (id: any) => unknown, string | number, string | number][] = [
      [
        'comment.create postId',
        'alice',
        'post',
        'comment/create',
        (id) => ({ data: { body: 'x', postId: id, authorId: alice.id } }),
        P.bobDraft,
        M.post,
      ],
      [
        'comment.create post.connect',
        'alice',
        'post',
        'comment/create',
        (id) => ({ data: { body: 'x', post: { connect: { id } }, author: { connect: { id: alice.id } } } }),
        P.bobDraft,
        M.post,
      ],
      [
        'comment.createMany postId',
        'alice',
        'post',
        'comment/createMany',
        (id) => ({ data: [{ body: 'x', postId: id, authorId: alice.id }] }),
        P.bobDraft,
        M.post,
      ],
      [
        'comment.createManyAndReturn postId',
        'alice',
        'post',
        'comment/createManyAndReturn',
        (id) => ({ data: [{ body: 'x', postId: id, authorId: alice.id }] }),
        P.bobDraft,
        M.post,
      ],
      [
        'comment.create parentId',
        'alice',
        'post',
        'comment/create',
        (id) => ({ data: { body: 'x', postId: P.alicePub, authorId: alice.id, parentId: id } }),
        C.onBobDraft,
        M.comment,
      ],
      [
        'comment.update postId (moved into a hidden draft)',
        'alice',
        'patch',
        'comment/update',
        (id) => ({ where: { id: C.aliceOnAlicePub }, data: { postId: id } }),
        P.bobDraft,
        M.post,
      ],
      [
        'comment.update post.connect',
        'alice',
        'patch',
        'comment/update',
        (id) => ({ where: { id: C.aliceOnAlicePub }, data: { post: { connect: { id } } } }),
        P.bobDraft,
        M.post,
      ],
      [
        'comment.update parentId (reply to a hidden comment)',
        'alice',
        'patch',
        'comment/update',
        (id) => ({ where: { id: C.aliceOnAlicePub }, data: { parentId: id } }),
        C.onBobDraft,
        M.comment,
      ],
      [
        'comment.update parent.connect',
        'alice',
        'patch',
        'comment/update',
        (id) => ({ where: { id: C.aliceOnAlicePub }, data: { parent: { connect: { id } } } }),
        C.onBobDraft,
        M.comment,
      ],
      [
        'comment.updateMany postId',
        'alice',
        'patch',
        'comment/updateMany',
        (id) => ({ where: { id: C.aliceOnAlicePub }, data: { postId: id } }),
        P.bobDraft,
        M.post,
      ],
      [
        'like.create postId',
        'alice',
        'post',
        'like/create',
        (id) => ({ data: { userId: alice.id, postId: id } }),
        P.bobDraft,
        M.post,
      ],
      [
        'like.createMany postId',
        'alice',
        'post',
        'like/createMany',
        (id) => ({ data: [{ userId: alice.id, postId: id }] }),
        P.bobDraft,
        M.post,
      ],
      [
        'post.update comments.connect',
        'alice',
        'patch',
        'post/update',
        (id) => ({ where: { id: P.alicePub }, data: { comments: { connect: { id } } } }),
        C.onBobDraft,
        M.comment,
      ],
      [
        'user.update comments.connect',
        'alice',
        'patch',
        'user/update',
        (id) => ({ where: { id: alice.id }, data: { comments: { connect: { id } } } }),
        C.onBobDraft,
        M.comment,
      ],
      [
        'post.update likes.connect',
        'alice',
        'patch',
        'post/update',
        (id) => ({
          where: { id: P.alicePub },
          data: { likes: { connect: { userId_postId: { userId: bob.id, postId: id } } } },
        }),
        P.bobDraft,
        M.post,
      ],
      [
        'comment.upsert create postId',
        'alice',
        'post',
        'comment/upsert',
        (id) => ({ where: { id: 'cmt-new' }, create: { body: 'x', postId: id, authorId: alice.id }, update: {} }),
        P.bobDraft,
        M.post,
      ],
      [
        'admin: tag.update posts.connect',
        'admin',
        'patch',
        'tag/update',
        (id) => ({ where: { id: T.news }, data: { posts: { connect: { id } } } }),
        P.bobDraft,
        M.post,
      ],
    ];
    it.each(table)('%s', async (_label, who, method, path, build, hidden, missing) => {
      const {
        result: hiddenAnswer,
        before,
        after,
      } = await probeState(t.db, () => rpc(who, method, path, build(hidden)));
      const missingAnswer = await rpc(who, method, path, build(missing));
      expect(isClientError(hiddenAnswer.status)).toBe(true);
      expect(norm(hiddenAnswer, [hidden])).toBe(norm(missingAnswer, [missing]));
      expect(after).toBe(before);
    });

    it('unlinking a row one cannot read changes nothing, exactly as unlinking a row that does not exist', async () => {
      const build = (id: number) => ({ where: { id: T.secret }, data: { posts: { disconnect: { id } } } });
      const {
        result: hiddenAnswer,
        before,
        after,
      } = await probeState(t.db, () => rpc('admin', 'patch', 'tag/update', build(P.bobDraft)));
      const missingAnswer = await rpc('admin', 'patch', 'tag/update', build(M.post));
      expect(norm(hiddenAnswer, [P.bobDraft])).toBe(norm(missingAnswer, [M.post]));
      expect(after).toBe(before);
    });

    // A client-chosen id taken by a row the caller cannot read answers like one taken by a visible row.
    const taken: [string, Method, string, (id: any) => unknown, string | number, string | number][] = [
      [
        'comment.create id',
        'post',
        'comment/create',
        (id) => ({ data: { id, body: 'x', postId: P.alicePub, authorId: alice.id } }),
        C.onBobDraft,
        C.bobOnBobPub,
      ],
      [
        'comment.createMany id',
        'post',
        'comment/createMany',
        (id) => ({ data: [{ id, body: 'x', postId: P.alicePub, authorId: alice.id }] }),
        C.onBobDraft,
        C.bobOnBobPub,
      ],
      [
        'post.create id',
        'post',
        'post/create',
        (id) => ({ data: { id, title: 'x', authorId: alice.id } }),
        P.bobDraft,
        P.bobPub,
      ],
      [
        'post.createMany id',
        'post',
        'post/createMany',
        (id) => ({ data: [{ id, title: 'x', authorId: alice.id }] }),
        P.bobDraft,
        P.bobPub,
      ],
    ];
    it.each(taken)('taken id: %s', async (_label, method, path, build, hiddenId, visibleId) => {
      const {
        result: hiddenAnswer,
        before,
        after,
      } = await probeState(t.db, () => rpc('alice', method, path, build(hiddenId)));
      const visibleAnswer = await rpc('alice', method, path, build(visibleId));
      expect(norm(hiddenAnswer, [hiddenId])).toBe(norm(visibleAnswer, [visibleId]));
      expect(after).toBe(before);
    });
  });

  describe('implicit many-to-many links need the update rule of both sides and both rows readable', () => {
    const table: [string, Caller, Method, string, unknown][] = [
      [
        "USER tags another user's post (tag.create connect)",
        'alice',
        'post',
        'tag/create',
        { data: { name: 'mine', posts: { connect: { id: P.bobPub } } } },
      ],
      [
        'USER tags a hidden post (tag.create connect)',
        'alice',
        'post',
        'tag/create',
        { data: { name: 'mine', posts: { connect: { id: P.bobDraft } } } },
      ],
      [
        'ADMIN links a post they may not update (tag.update connect)',
        'admin',
        'patch',
        'tag/update',
        { where: { id: T.secret }, data: { posts: { connect: { id: P.bobPub } } } },
      ],
      [
        'ADMIN unlinks a post they cannot read (tag.update set [])',
        'admin',
        'patch',
        'tag/update',
        { where: { id: T.secret }, data: { posts: { set: [] } } },
      ],
      [
        'USER links a tag they may not update (post.update tags.connect)',
        'alice',
        'patch',
        'post/update',
        { where: { id: P.alicePub }, data: { tags: { connect: { id: T.secret } } } },
      ],
      [
        'USER unlinks tags they may not update (post.update tags.set [])',
        'alice',
        'patch',
        'post/update',
        { where: { id: P.alicePub }, data: { tags: { set: [] } } },
      ],
      [
        'USER makes the admin follow them (followers.connect)',
        'alice',
        'patch',
        'user/update',
        { where: { id: alice.id }, data: { followers: { connect: { id: admin.id } } } },
      ],
      [
        'USER follows another user they may not update (following.connect)',
        'alice',
        'patch',
        'user/update',
        { where: { id: alice.id }, data: { following: { connect: { id: bob.id } } } },
      ],
      [
        "USER removes another user's follow (followers.set [])",
        'alice',
        'patch',
        'user/update',
        { where: { id: alice.id }, data: { followers: { set: [] } } },
      ],
      [
        "USER removes another user's follow (followers.disconnect)",
        'alice',
        'patch',
        'user/update',
        { where: { id: alice.id }, data: { followers: { disconnect: { id: bob.id } } } },
      ],
    ];
    it.each(table)('%s: refused, links unchanged', async (_label, who, method, path, args) => {
      const { result, before, after } = await probeState(t.db, () => rpc(who, method, path, args));
      expect({ status: result.status, refused: [403, 404].includes(result.status) }).toEqual({
        status: result.status,
        refused: true,
      });
      expect(after).toBe(before);
    });
  });

  describe('oracles: a true and a false predicate over hidden data answer identically', () => {
    const hash = (prefix: string) => ({ passwordHash: { startsWith: prefix } });
    // [label, caller, path, args with the predicate true in reality, args with it false]
    const table: [string, Caller, string, unknown, unknown][] = [
      [
        'where on a hidden field',
        'anon',
        'user/findMany',
        { where: { id: bob.id, ...hash('hash-bob') } },
        { where: { id: bob.id, ...hash('zzz') } },
      ],
      [
        'where through a to-one relation',
        'anon',
        'post/findMany',
        { where: { author: hash('hash-bob') } },
        { where: { author: hash('zzz') } },
      ],
      [
        'where in AND',
        'anon',
        'user/count',
        { where: { AND: [{ id: bob.id }, hash('hash-bob')] } },
        { where: { AND: [{ id: bob.id }, hash('zzz')] } },
      ],
      ['where in OR', 'anon', 'user/count', { where: { OR: [hash('hash-bob')] } }, { where: { OR: [hash('zzz')] } }],
      ['where in NOT', 'anon', 'user/count', { where: { NOT: hash('hash-bob') } }, { where: { NOT: hash('zzz') } }],
      [
        'some over hidden rows',
        'alice',
        'user/findMany',
        { where: { posts: { some: { title: 'bobDraft' } } } },
        { where: { posts: { some: { title: 'nope' } } } },
      ],
      [
        'none over hidden rows',
        'alice',
        'user/findMany',
        { where: { id: bob.id, posts: { none: { title: 'bobDraft' } } } },
        { where: { id: bob.id, posts: { none: { title: 'nope' } } } },
      ],
      [
        'every over hidden rows',
        'alice',
        'user/findMany',
        { where: { id: bob.id, posts: { every: { title: { not: 'bobDraft' } } } } },
        { where: { id: bob.id, posts: { every: { title: { not: 'nope' } } } } },
      ],
      [
        'some over hidden comments',
        'alice',
        'user/count',
        { where: { comments: { some: { body: 'secret comment' } } } },
        { where: { comments: { some: { body: 'nope' } } } },
      ],
      [
        'some over hidden likes',
        'alice',
        'user/count',
        { where: { likes: { some: { post: { title: 'bobDraft' } } } } },
        { where: { likes: { some: { post: { title: 'nope' } } } } },
      ],
      [
        'to-one filter to a hidden post',
        'alice',
        'comment/count',
        { where: { post: { title: 'bobDraft' } } },
        { where: { post: { title: 'nope' } } },
      ],
      [
        'tag through hidden posts',
        'alice',
        'tag/findMany',
        { where: { posts: { some: { published: false, authorId: bob.id } } } },
        { where: { posts: { some: { published: false, authorId: 424242 } } } },
      ],
      [
        'nested include where',
        'alice',
        'user/findUnique',
        { where: { id: bob.id }, include: { posts: { where: { title: 'bobDraft' } } } },
        { where: { id: bob.id }, include: { posts: { where: { title: 'nope' } } } },
      ],
      [
        'relation _count with where',
        'alice',
        'user/findUnique',
        { where: { id: bob.id }, select: { _count: { select: { posts: { where: { published: false } } } } } },
        { where: { id: bob.id }, select: { _count: { select: { posts: { where: { title: 'nope' } } } } } },
      ],
      [
        'cursor on a hidden row vs a missing one',
        'alice',
        'post/findMany',
        { cursor: { id: P.bobDraft }, take: 5 },
        { cursor: { id: M.post }, take: 5 },
      ],
      [
        'cursor with a hidden field',
        'anon',
        'user/findMany',
        { cursor: { id: bob.id, passwordHash: 'hash-bob-7f3a9c' } },
        { cursor: { id: bob.id, passwordHash: 'zzz' } },
      ],
      [
        'groupBy having on a hidden field',
        'anon',
        'user/groupBy',
        { by: ['role'], having: { passwordHash: { _max: { gt: 'hash-a' } } } },
        { by: ['role'], having: { passwordHash: { _max: { gt: 'zzz' } } } },
      ],
      [
        'groupBy orderBy _max of a hidden field',
        'anon',
        'user/groupBy',
        { by: ['name'], orderBy: { _max: { passwordHash: 'asc' } } },
        { by: ['name'], orderBy: { _max: { passwordHash: 'desc' } } },
      ],
      [
        'groupBy orderBy _min of a hidden field',
        'anon',
        'user/groupBy',
        { by: ['name'], orderBy: { _min: { passwordHash: 'asc' } } },
        { by: ['name'], orderBy: { _min: { passwordHash: 'desc' } } },
      ],
      [
        'groupBy orderBy _count of a hidden field',
        'anon',
        'user/groupBy',
        { by: ['name'], orderBy: [{ _count: { passwordHash: 'asc' } }, { name: 'asc' }] },
        { by: ['name'], orderBy: [{ _count: { passwordHash: 'desc' } }, { name: 'asc' }] },
      ],
      [
        'groupBy having _count of a hidden field',
        'anon',
        'user/groupBy',
        { by: ['name'], having: { passwordHash: { _count: { gt: 0 } } } },
        { by: ['name'], having: { passwordHash: { _count: { gt: 5 } } } },
      ],
      [
        'groupBy by a hidden field',
        'anon',
        'user/groupBy',
        { by: ['passwordHash'], where: hash('hash-bob') },
        { by: ['passwordHash'], where: hash('zzz') },
      ],
      [
        'groupBy over hidden posts',
        'alice',
        'post/groupBy',
        { by: ['authorId'], where: { title: 'bobDraft' }, _count: { _all: true } },
        { by: ['authorId'], where: { title: 'nope' }, _count: { _all: true } },
      ],
      [
        'distinct with a hidden field',
        'anon',
        'user/findMany',
        { distinct: ['passwordHash'], where: hash('hash-bob') },
        { distinct: ['passwordHash'], where: hash('zzz') },
      ],
      [
        'orderBy a hidden field',
        'anon',
        'user/findMany',
        { orderBy: { passwordHash: 'asc' } },
        { orderBy: { passwordHash: 'desc' } },
      ],
      [
        'orderBy a hidden field through a relation',
        'anon',
        'post/findMany',
        { orderBy: { author: { passwordHash: 'asc' } } },
        { orderBy: { author: { passwordHash: 'desc' } } },
      ],
      [
        'aggregate over hidden rows',
        'alice',
        'comment/aggregate',
        { where: { body: 'secret comment' }, _count: { _all: true } },
        { where: { body: 'nope' }, _count: { _all: true } },
      ],
      [
        'findFirstOrThrow of a hidden row',
        'alice',
        'post/findFirstOrThrow',
        { where: { title: 'bobDraft' } },
        { where: { title: 'nope' } },
      ],
    ];
    it.each(table)('%s', async (_label, who, path, truthy, falsy) => {
      const a = await rpc(who, 'get', path, truthy);
      const b = await rpc(who, 'get', path, falsy);
      expect(norm(a)).toBe(norm(b));
    });
  });

  describe('a hidden field answers exactly like a field that does not exist', () => {
    const UNKNOWN = 'passwordSalt';
    const table: [string, string, (field: string) => unknown][] = [
      ['where', 'user/findMany', (f) => ({ where: { [f]: 'x' } })],
      ['where with an operator', 'user/findMany', (f) => ({ where: { [f]: { startsWith: 'x' } } })],
      ['where through a relation', 'post/findMany', (f) => ({ where: { author: { [f]: 'x' } } })],
      ['select', 'user/findMany', (f) => ({ select: { [f]: true } })],
      ['omit', 'user/findMany', (f) => ({ omit: { [f]: true } })],
      ['orderBy', 'user/findMany', (f) => ({ orderBy: { [f]: 'asc' } })],
      ['distinct', 'user/findMany', (f) => ({ distinct: [f] })],
      ['cursor', 'user/findMany', (f) => ({ cursor: { id: 1, [f]: 'x' } })],
      ['groupBy by', 'user/groupBy', (f) => ({ by: [f] })],
      ['groupBy orderBy _max', 'user/groupBy', (f) => ({ by: ['name'], orderBy: { _max: { [f]: 'asc' } } })],
      ['groupBy having', 'user/groupBy', (f) => ({ by: ['name'], having: { [f]: { _max: { gt: 'a' } } } })],
      ['aggregate _max', 'user/aggregate', (f) => ({ _max: { [f]: true } })],
      ['count select', 'user/count', (f) => ({ select: { [f]: true } })],
      ['nested select', 'post/findMany', (f) => ({ select: { author: { select: { [f]: true } } } })],
    ];
    it.each(table)('%s', async (_label, path, build) => {
      const hidden = await rpc('alice', 'get', path, build('passwordHash'));
      const unknown = await rpc('alice', 'get', path, build(UNKNOWN));
      expect(isClientError(hidden.status)).toBe(true);
      expect(norm(hidden, ['passwordHash'])).toBe(norm(unknown, [UNKNOWN]));
    });

    it.each([
      ['a near miss of the hidden name', 'passwordHsh'],
      ['an unrelated name', 'zzzUnknownField'],
    ])('an unknown field (%s) gets no suggestion naming the hidden one', async (_label, field) => {
      const res = await rpc('alice', 'get', 'user/findMany', { where: { [field]: 'x' } });
      const far = await rpc('alice', 'get', 'user/findMany', { where: { qqqqqqqqqqq: 'x' } });
      expect(norm(res, [field])).toBe(norm(far, ['qqqqqqqqqqq']));
      expect(JSON.stringify(res.body)).not.toContain('passwordHash');
    });
  });

  describe('nested updateMany/deleteMany on a model whose read rule goes through a relation', () => {
    const bodies = async () =>
      Object.fromEntries((await t.db.prisma.comment.findMany({ orderBy: { id: 'asc' } })).map((c) => [c.id, c.body]));
    const restore = () => resetAdversarialWorld(t.db);

    it('post.update comments.updateMany changes only the comments the caller may update', async () => {
      const before = await bodies();
      const res = await rpc('alice', 'patch', 'post/update', {
        where: { id: P.alicePub },
        data: { comments: { updateMany: { where: {}, data: { body: 'edited' } } } },
      });
      const after = await bodies();
      await restore();
      expect(res.status).toBe(200);
      expect(after).toEqual({ ...before, [C.aliceOnAlicePub]: 'edited' });
    });

    it('user.update comments.updateMany leaves comments on posts the caller cannot read', async () => {
      const before = await bodies();
      const res = await rpc('alice', 'patch', 'user/update', {
        where: { id: alice.id },
        data: { comments: { updateMany: { where: {}, data: { body: 'edited' } } } },
      });
      const after = await bodies();
      await restore();
      expect(res.status).toBe(200);
      expect(after).toEqual({ ...before, [C.aliceOnAlicePub]: 'edited' });
    });

    it('post.update comments.deleteMany deletes only the comments the caller may delete', async () => {
      const before = await bodies();
      const res = await rpc('alice', 'patch', 'post/update', {
        where: { id: P.alicePub },
        data: { comments: { deleteMany: {} } },
      });
      const after = await bodies();
      await restore();
      expect(res.status).toBe(200);
      const { [C.aliceOnAlicePub]: _gone, ...rest } = before;
      expect(after).toEqual(rest);
    });

    it('user.update comments.deleteMany leaves comments on posts the caller cannot read', async () => {
      const before = await bodies();
      const res = await rpc('alice', 'patch', 'user/update', {
        where: { id: alice.id },
        data: { comments: { deleteMany: { body: { contains: 'alice' } } } },
      });
      const after = await bodies();
      await restore();
      expect(res.status).toBe(200);
      const { [C.aliceOnAlicePub]: _gone, ...rest } = before;
      expect(after).toEqual(rest);
    });
  });
});
