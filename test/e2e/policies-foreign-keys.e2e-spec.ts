/**
 * Foreign keys follow the visibility of the row they name: a readable reply whose parent comment the
 * caller cannot read shows `parentId: null` (as its `parent` linkage), filters see that key as null,
 * and sorting or grouping by it is refused. Every probe asks the same question in two worlds, one
 * where the reply names the hidden parent and one where its `parentId` is null, and compares the
 * answers whole. Includes a generated test (fast-check, seeded; FUZZ_RUNS=500 for a longer run,
 * FUZZ_SEED to replay another seed).
 */
import fc from 'fast-check';

import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import { normalizeAnswer, seedAdversarialWorld, WORLD } from '../support/adversarial-fixtures.js';
import { type RawReply, rawRest, restReason, rpcReason } from '../support/adversarial-http.js';
import { callRpc } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import type { TestDatabase } from '../support/test-database.js';
import { testProviders } from '../support/test-database.js';

type Caller = 'anon' | 'admin' | 'alice' | 'bob';
type Method = 'get' | 'post' | 'patch' | 'delete';

const { alice, bob, admin, posts: P, comments: C, missing: M } = WORLD;
const USERS: Record<Caller, DemoUser | undefined> = { anon: undefined, admin, alice, bob };

/** Replies on Alice's published post: one to a comment on Bob's draft (only Bob reads it), one to a readable comment. */
const REPLY = { toHidden: 'cmt-reply-to-hidden', toVisible: 'cmt-reply-to-visible' } as const;
const HIDDEN_PARENT = C.onBobDraft;

async function seedReplies(db: TestDatabase): Promise<void> {
  await seedAdversarialWorld(db);
  await db.prisma.comment.create({
    data: { id: REPLY.toHidden, body: 'reply', postId: P.alicePub, authorId: alice.id, parentId: HIDDEN_PARENT },
  });
  await db.prisma.comment.create({
    data: { id: REPLY.toVisible, body: 'reply', postId: P.alicePub, authorId: bob.id, parentId: C.aliceOnAlicePub },
  });
}

/** Ids a generated filter names: the hidden parent, a readable one, a missing one. */
const NAMED_IDS = [HIDDEN_PARENT, C.aliceOnAlicePub, M.comment] as const;

/** A filter on `Comment.parentId`, or a combination of them (AND/OR/NOT, through `replies` and `parent`). */
const parentFilter: fc.Arbitrary<object> = fc.letrec<{ node: object; leaf: object }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'where' },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 3 }).map((AND) => ({ AND })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((OR) => ({ OR })),
    tie('node').map((NOT) => ({ NOT })),
    fc
      .tuple(fc.constantFrom('some', 'every', 'none'), tie('node'))
      .map(([op, where]) => ({ replies: { [op]: where } })),
    fc.tuple(fc.constantFrom('is', 'isNot'), tie('node')).map(([op, where]) => ({ parent: { [op]: where } })),
  ),
  leaf: fc.oneof(
    fc.constantFrom(...NAMED_IDS, null).map((id) => ({ parentId: id })),
    fc
      .tuple(fc.constantFrom('equals', 'not'), fc.constantFrom(...NAMED_IDS, null))
      .map(([op, id]) => ({ parentId: { [op]: id } })),
    fc
      .tuple(fc.constantFrom('in', 'notIn'), fc.subarray([...NAMED_IDS], { minLength: 1 }))
      .map(([op, ids]) => ({ parentId: { [op]: ids } })),
    fc
      .tuple(fc.constantFrom('lt', 'gte', 'startsWith'), fc.constantFrom('cmt-b', 'cmt-c', 'cmt-z'))
      .map(([op, value]) => ({ parentId: { [op]: value } })),
    fc.constantFrom({ parent: null }, { parent: { isNot: null } }),
  ),
})).node;

/** Reads that use a filter on comments, directly or through a relation. */
const READS: [path: string, args: (where: object) => object][] = [
  ['comment/findMany', (where) => ({ where, select: { id: true, parentId: true }, orderBy: { id: 'asc' } })],
  ['comment/count', (where) => ({ where })],
  [
    'post/findMany',
    (where) => ({ where: { comments: { some: where } }, select: { id: true }, orderBy: { id: 'asc' } }),
  ],
  [
    'user/findMany',
    (where) => ({ where: { comments: { every: where } }, select: { id: true }, orderBy: { id: 'asc' } }),
  ],
  [
    'post/findMany',
    (where) => ({
      select: { id: true, comments: { where, select: { id: true, parentId: true }, orderBy: { id: 'asc' } } },
      orderBy: { id: 'asc' },
    }),
  ],
];

describe.each(testProviders())('foreign keys follow the visibility of the row they name (%s)', (provider) => {
  let caller: DemoUser | undefined;
  const rpc = (who: Caller, method: Method, path: string, args?: unknown) => {
    caller = USERS[who];
    return callRpc(t, method, path, args);
  };
  const rest = (who: Caller, path: string): Promise<RawReply> => {
    caller = USERS[who];
    return rawRest(t, 'get', path);
  };
  const norm = (res: { status: number; body: unknown }) => normalizeAnswer(res.status, res.body);

  const t = useTestApp(provider, {
    options: { policies: samplePolicies, context: () => ({ user: caller }) },
    seed: ({ db }) => seedReplies(db),
  });

  /** The answer where the reply names the hidden parent, then where its parentId is null. */
  async function inBothWorlds<T>(ask: () => Promise<T>): Promise<[hidden: T, none: T]> {
    const setParent = (parentId: string | null) =>
      t.db.prisma.comment.update({ where: { id: REPLY.toHidden }, data: { parentId } });
    const hidden = await ask();
    await setParent(null);
    try {
      return [hidden, await ask()];
    } finally {
      await setParent(HIDDEN_PARENT);
    }
  }

  const expectSameInBothWorlds = async <T extends { status: number; body: unknown }>(ask: () => Promise<T>) => {
    const [hidden, none] = await inBothWorlds(ask);
    expect(norm(hidden)).toBe(norm(none));
    return hidden;
  };

  describe('answers show null for a foreign key naming an unreadable row', () => {
    const table: [string, Method, string, unknown, (data: any) => unknown][] = [
      ['findUnique', 'get', 'comment/findUnique', { where: { id: REPLY.toHidden } }, (d) => d.parentId],
      [
        'findMany with a select',
        'get',
        'comment/findMany',
        {
          where: { id: { in: [REPLY.toHidden, REPLY.toVisible] } },
          select: { parentId: true },
          orderBy: { id: 'asc' },
        },
        (d) => d.map((row: any) => row.parentId),
      ],
      [
        'findFirst including the parent',
        'get',
        'comment/findFirst',
        { where: { id: REPLY.toHidden }, include: { parent: true } },
        (d) => [d.parentId, d.parent],
      ],
      [
        'an included to-many relation',
        'get',
        'post/findUnique',
        { where: { id: P.alicePub }, include: { comments: { where: { body: 'reply' }, orderBy: { id: 'asc' } } } },
        (d) => d.comments.map((row: any) => row.parentId),
      ],
      [
        'a select two relations deep',
        'get',
        'user/findUnique',
        {
          where: { id: alice.id },
          select: { posts: { select: { comments: { select: { parentId: true }, orderBy: { id: 'asc' } } } } },
        },
        (d) => d.posts.flatMap((post: any) => post.comments.map((row: any) => row.parentId)),
      ],
      [
        "an update's read-back",
        'patch',
        'comment/update',
        { where: { id: REPLY.toHidden }, data: { body: 'reply' } },
        (d) => d.parentId,
      ],
    ];
    it.each(table)('%s', async (_label, method, path, args, pick) => {
      const res = await expectSameInBothWorlds(() => rpc('alice', method, path, args));
      expect(res.status).toBe(200);
      const picked = JSON.stringify(pick((res as any).data));
      expect(picked).not.toContain(HIDDEN_PARENT);
      expect(picked).toContain('null');
    });

    it('keeps the foreign key for a caller who reads the related row', async () => {
      const res = await rpc('bob', 'get', 'comment/findMany', {
        where: { id: { in: [REPLY.toHidden, REPLY.toVisible] } },
        select: { parentId: true },
        orderBy: { id: 'asc' },
      });
      expect(res.data).toEqual([{ parentId: HIDDEN_PARENT }, { parentId: C.aliceOnAlicePub }]);
    });

    it('REST renders the attribute null, as the linkage', async () => {
      const res = await expectSameInBothWorlds(() => rest('alice', `comment/${REPLY.toHidden}`));
      expect(res.status).toBe(200);
      expect(res.body.data.attributes.parentId).toBeNull();
      expect(res.body.data.relationships.parent.data).toBeNull();
      const visible = await rest('alice', `comment/${REPLY.toVisible}`);
      expect(visible.body.data.attributes.parentId).toBe(C.aliceOnAlicePub);
    });
  });

  describe('filters see a foreign key naming an unreadable row as null', () => {
    const rpcTable: [string, Caller, string, object][] = [
      ['equality', 'alice', 'comment/findMany', { where: { parentId: HIDDEN_PARENT }, orderBy: { id: 'asc' } }],
      ['is null', 'alice', 'comment/findMany', { where: { parentId: null }, orderBy: { id: 'asc' } }],
      ['not', 'anon', 'comment/findMany', { where: { parentId: { not: HIDDEN_PARENT } }, orderBy: { id: 'asc' } }],
      ['NOT null', 'alice', 'comment/count', { where: { NOT: { parentId: null } } }],
      ['in', 'admin', 'comment/count', { where: { parentId: { in: [HIDDEN_PARENT, C.aliceOnAlicePub] } } }],
      ['through a relation', 'alice', 'post/findMany', { where: { comments: { some: { parentId: HIDDEN_PARENT } } } }],
      [
        'in a unique selector',
        'alice',
        'comment/findUnique',
        { where: { id: REPLY.toHidden, parentId: HIDDEN_PARENT } },
      ],
      ['in a cursor', 'alice', 'comment/findMany', { cursor: { id: REPLY.toHidden, parentId: HIDDEN_PARENT } }],
      [
        'in an updateMany',
        'alice',
        'comment/updateMany',
        { where: { parentId: HIDDEN_PARENT }, data: { body: 'reply' } },
      ],
    ];
    it.each(rpcTable)('RPC %s', async (_label, who, path, args) => {
      const method = path.endsWith('updateMany') ? 'patch' : 'get';
      const res = await expectSameInBothWorlds(() => rpc(who, method, path, args));
      expect({ status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ status: 200 });
    });

    it.each([
      ['equality', `comment?filter[parentId]=${HIDDEN_PARENT}`],
      ['$not', `comment?filter[parentId$not]=${HIDDEN_PARENT}`],
      ['$null', 'comment?filter[parentId$null]=true'],
      ['a relationship', `comment?filter[parent]=${HIDDEN_PARENT}`],
      ['a relationship $null', 'comment?filter[parent$null]=true'],
      ['through a relationship', `post?filter[comments][parentId]=${HIDDEN_PARENT}`],
      ['the related collection', `post/${P.alicePub}/comments?filter[parentId$null]=false`],
    ])('REST %s', async (_label, path) => {
      const res = await expectSameInBothWorlds(() => rest('alice', path));
      expect(res.status).toBe(200);
    });

    it('answers every generated filter identically in both worlds (generated)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: READS.length - 1 }),
          parentFilter,
          fc.constantFrom<Caller>('anon', 'alice', 'admin'),
          async (readIndex, where, who) => {
            const [path, args] = READS[readIndex]!;
            const [hidden, none] = await inBothWorlds(() => rpc(who, 'get', path, args(where)));
            const probe = `${who} ${path} ${JSON.stringify(where)}`;
            expect({ probe, status: hidden.status, answer: norm(hidden) }).toEqual({
              probe,
              status: 200,
              answer: norm(none),
            });
          },
        ),
        { seed: Number(process.env.FUZZ_SEED ?? 7), numRuns: Number(process.env.FUZZ_RUNS ?? 40), endOnFailure: true },
      );
    });
  });

  describe('sorting, grouping and aggregating by such a foreign key is refused (403)', () => {
    it.each([
      ['orderBy', 'comment/findMany', { orderBy: { parentId: 'asc' } }],
      ['nested orderBy', 'post/findMany', { include: { comments: { orderBy: { parentId: 'desc' } } } }],
      ['distinct', 'comment/findMany', { distinct: ['parentId'] }],
      ['groupBy by', 'comment/groupBy', { by: ['parentId'], _count: { _all: true } }],
      ['groupBy having', 'comment/groupBy', { by: ['postId'], having: { parentId: { _count: { gt: 0 } } } }],
      ['aggregate', 'comment/aggregate', { _max: { parentId: true } }],
      ['count select', 'comment/count', { select: { parentId: true } }],
    ])('RPC %s', async (_label, path, args) => {
      const res = await rpc('alice', 'get', path, args);
      expect({ status: res.status, reason: rpcReason(res.body) }).toEqual({
        status: 403,
        reason: 'ACCESS_POLICY_VIOLATION',
      });
    });

    it('REST sort', async () => {
      const res = await rest('alice', 'comment?sort=-parentId');
      expect({ status: res.status, reason: restReason(res.body) }).toEqual({
        status: 403,
        reason: 'ACCESS_POLICY_VIOLATION',
      });
    });

    it('still sorts and groups by a foreign key whose related row every readable row can read', async () => {
      const res = await rpc('alice', 'get', 'comment/groupBy', { by: ['postId'], _count: { _all: true } });
      expect(res.status).toBe(200);
      expect((await rest('alice', 'comment?sort=postId')).status).toBe(200);
    });
  });
});
