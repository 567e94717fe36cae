/**
 * Related collections (`/user/:id/posts`) and their linkage are read by the foreign key the related
 * rows hold (`authorId = ?`), not through the relation (a subquery on the parent's table), with the
 * same answers: the collection filtered through the relation (`/post?filter[author]=:id`) is the
 * oracle, and the parent must exist and be readable (404 otherwise), also when the caller may read
 * its children. Includes a generated test (fast-check, seeded; FUZZ_RUNS=500 for a longer run,
 * FUZZ_SEED to replay another seed).
 */
import fc from 'fast-check';

import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import type { CrudApiModuleOptions } from '../../lib/index.js';
import { seedAdversarialWorld, WORLD } from '../support/adversarial-fixtures.js';
import { expectJsonApiError } from '../support/json-api-expect.js';
import { type TestAppHandle, useTestApp } from '../support/test-app.js';
import { type TestDatabase, testProviders } from '../support/test-database.js';

type Caller = 'anon' | 'admin' | 'alice' | 'bob';

const { alice, bob, admin, posts: P, comments: C, missing: M } = WORLD;
const USERS: Record<Caller, DemoUser | undefined> = { anon: undefined, admin, alice, bob };
const REPLIES = { toPublic: 'cmt-reply-on-alicepub', toDraft: 'cmt-reply-on-bobdraft' } as const;

/**
 * Sample policies under which a caller may read rows whose parent it cannot read: users are
 * readable when signed in, comments always. Foreign keys to users and posts then follow
 * their row's visibility (guarded), which a relation filter would join to every row.
 */
const childrenOutliveParents = {
  ...samplePolicies,
  User: { ...samplePolicies.User, read: ({ user }: { user?: DemoUser }) => user !== undefined },
  Comment: { ...samplePolicies.Comment, read: true },
} as CrudApiModuleOptions['policies'];

const CONFIGURATIONS: [label: string, policies: CrudApiModuleOptions['policies'] | undefined][] = [
  ['no policies', undefined],
  ['sample policies', samplePolicies],
  ['children readable without their parent', childrenOutliveParents],
];

/** A to-many relationship, the collection that filters through the relation, and what a query may add. */
interface Relation {
  /** `<parent>/<id>/<name>` */
  path: string;
  /** `/<collection>?filter[<back>]=<id>` lists the same rows through the relation. */
  collection: string;
  back: string;
  parents: readonly (number | string)[];
  sorts: readonly string[];
  filters: readonly string[];
  includes: readonly string[];
}

const USER_IDS = [admin.id, alice.id, bob.id, M.user];
const POST_IDS = [...Object.values(P), M.post];
const COMMENT_IDS = [...Object.values(C), M.comment];
const RELATIONS: readonly Relation[] = (
  [
    // path, collection, back, parents, sorts, filters, includes
    [
      'user/posts',
      'post',
      'author',
      USER_IDS,
      ['id', '-title,id'],
      ['filter[published]=true', 'filter[title$startsWith]=bob'],
      ['author', 'comments'],
    ],
    [
      'user/comments',
      'comment',
      'author',
      USER_IDS,
      ['id', '-body,id'],
      ['filter[body$contains]=alice'],
      ['post', 'parent'],
    ],
    [
      'user/likes',
      'like',
      'user',
      USER_IDS,
      ['postId,userId', '-postId,userId'],
      ['filter[postId$gt]=7101'],
      ['post', 'user'],
    ],
    [
      'post/comments',
      'comment',
      'post',
      POST_IDS,
      ['id', '-id'],
      ['filter[body$contains]=bob', 'filter[parentId$null]=true'],
      ['author', 'replies'],
    ],
    ['post/likes', 'like', 'post', POST_IDS, ['userId,postId'], [], ['user']],
    [
      'comment/replies',
      'comment',
      'parent',
      COMMENT_IDS,
      ['id', '-id'],
      ['filter[body$contains]=reply'],
      ['parent', 'post'],
    ],
    // Many-to-many keeps the relation filter: here for the parent check both paths share.
    ['post/tags', 'tag', 'posts', POST_IDS, ['id', '-name'], ['filter[name]=news'], ['posts']],
  ] as const
).map(([path, collection, back, parents, sorts, filters, includes]) => ({
  path,
  collection,
  back,
  parents,
  sorts,
  filters,
  includes,
}));

async function seedWorld(db: TestDatabase): Promise<void> {
  await seedAdversarialWorld(db);
  await db.prisma.comment.create({
    data: { id: REPLIES.toPublic, body: 'a reply', postId: P.alicePub, authorId: bob.id, parentId: C.aliceOnAlicePub },
  });
  await db.prisma.comment.create({
    data: { id: REPLIES.toDraft, body: 'a reply', postId: P.bobDraft, authorId: alice.id, parentId: C.onBobDraft },
  });
}

/** The statements that read the related rows (from their table), for a check of what they join. */
const statementsOn = (db: TestDatabase, table: string) =>
  db.queries.filter((sql) => new RegExp(`\\bFROM\\s+\\S*\\b${table}\\b`, 'i').test(sql));
const namesTable = (sql: string, table: string) => new RegExp(`[\`"]${table}[\`"]`).test(sql);

describe.each(testProviders())('REST related collections by foreign key (%s)', (provider) => {
  describe.each(CONFIGURATIONS)('%s', (_label, policies) => {
    let caller: DemoUser | undefined;
    const t: TestAppHandle = useTestApp(provider, {
      options: policies ? { policies, context: () => ({ user: caller }) } : {},
      seed: ({ db }) => seedWorld(db),
    });
    const get = async (who: Caller, path: string) => {
      caller = USERS[who];
      return t.http().get(`/api/rest/${path}`);
    };

    it('answers as the collection filtered through the relation, 404 when the parent cannot be read (generated)', async () => {
      const relation = fc.constantFrom(...RELATIONS).chain((r) =>
        fc.record({
          relation: fc.constant(r),
          parentId: fc.constantFrom(...r.parents),
          who: fc.constantFrom<Caller>('anon', 'alice', 'bob', 'admin'),
          sort: fc.option(fc.constantFrom(...r.sorts), { nil: undefined }),
          filter: r.filters.length
            ? fc.option(fc.constantFrom(...r.filters), { nil: undefined })
            : fc.constant(undefined),
          include: fc.option(fc.constantFrom(...r.includes), { nil: undefined }),
          page: fc.constantFrom(
            undefined,
            'page[limit]=1',
            'page[limit]=1&page[offset]=1',
            'page[offset]=2',
            'page[size]=1',
            'page[size]=5',
          ),
          linkage: fc.boolean(),
        }),
      );
      await fc.assert(
        fc.asyncProperty(relation, async ({ relation: r, parentId, who, sort, filter, include, page, linkage }) => {
          const shared = [sort && `sort=${sort}`, filter, page].filter(Boolean) as string[];
          const [parentType, name] = r.path.split('/');
          const related = `${parentType}/${parentId}/${linkage ? 'relationships/' : ''}${name}`;
          const query = [...shared, ...(include && !linkage ? [`include=${include}`] : [])];
          const answer = await get(who, `${related}${query.length ? `?${query.join('&')}` : ''}`);
          const parent = await get(who, `${parentType}/${parentId}`);
          const oracle = await get(who, `${r.collection}?${[`filter[${r.back}]=${parentId}`, ...query].join('&')}`);
          const probe = `${who} ${related} ${query.join('&')}`;
          // A query the collection refuses (sorting by a key the policies guard) is refused alike, before the parent is looked at.
          if (oracle.status !== 200) {
            expect({ probe, status: answer.status, errors: answer.body.errors }).toEqual({
              probe,
              status: oracle.status,
              errors: oracle.body.errors,
            });
            return;
          }
          if (parent.status === 404) {
            expect({ probe, status: answer.status }).toEqual({ probe, status: 404 });
            return;
          }
          // Links name the URL each was asked at; the rest is the same document.
          const document = ({ status, body: { links: _links, ...rest } }: { status: number; body: any }) => ({
            status,
            ...rest,
            data: linkage ? rest.data.map(({ type, id, meta }: any) => ({ type, id, meta })) : rest.data,
          });
          expect({ probe, ...document(answer) }).toEqual({ probe, ...document(oracle) });
        }),
        { seed: Number(process.env.FUZZ_SEED ?? 11), numRuns: Number(process.env.FUZZ_RUNS ?? 60), endOnFailure: true },
      );
    });

    it('answers 404 for a missing parent on the related and relationship URLs', async () => {
      for (const path of [
        `user/${M.user}/posts`,
        `user/${M.user}/relationships/likes`,
        `comment/${M.comment}/replies`,
      ]) {
        const res = await get('admin', path);
        expectJsonApiError(res, 404, 'not-found');
      }
    });

    it('reads the related rows without naming the parent table', async () => {
      t.db.queries.length = 0;
      const res = await get('alice', `user/${alice.id}/posts`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      const reads = statementsOn(t.db, 'Post');
      expect(reads).toHaveLength(1);
      expect(namesTable(reads[0]!, 'users')).toBe(false);
      // Without policies the rows prove their parent; with them, one lookup of the parent.
      expect(t.db.queries.filter((sql) => /\bFROM\s+\S*\busers\b/i.test(sql) && !namesTable(sql, 'Post'))).toHaveLength(
        policies ? 1 : 0,
      );
      if (!policies) expect(t.db.queries).toHaveLength(1);
    });

    it('reads a compound-keyed collection by its foreign key', async () => {
      t.db.queries.length = 0;
      const res = await get('bob', `user/${bob.id}/likes`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((like: { id: string }) => like.id)).toEqual([`${bob.id}_${P.bobDraft}`]);
      const reads = statementsOn(t.db, 'likes');
      expect(reads).toHaveLength(1);
      expect(namesTable(reads[0]!, 'users')).toBe(false);
    });
  });

  describe('a parent hidden by the policies, its children readable', () => {
    let caller: DemoUser | undefined;
    const t = useTestApp(provider, {
      options: { policies: childrenOutliveParents, context: () => ({ user: caller }) },
      seed: ({ db }) => seedWorld(db),
    });
    const get = async (who: Caller, path: string) => {
      caller = USERS[who];
      return t.http().get(`/api/rest/${path}`);
    };

    it.each([
      ['the comments of a draft', 'alice', `post/${P.bobDraft}/comments`, `comment/${C.onBobDraft}`],
      [
        'the comment linkage of a draft',
        'alice',
        `post/${P.bobDraft}/relationships/comments`,
        `comment/${REPLIES.toDraft}`,
      ],
      ['the published posts of a user', 'anon', `user/${bob.id}/posts`, `post/${P.bobPub}`],
    ] as const)('answers 404 for %s', async (_label, who, path, child) => {
      expect((await get(who, child)).status).toBe(200);
      expectJsonApiError(await get(who, path), 404, 'not-found');
      expect((await get('bob', path)).status).toBe(200);
    });

    it('checks the parent in one lookup rather than joining it to every row', async () => {
      t.db.queries.length = 0;
      const res = await get('bob', `post/${P.bobDraft}/comments`);
      expect(res.body.data.map((comment: { id: string }) => comment.id).sort()).toEqual(
        [C.onBobDraft, REPLIES.toDraft].sort(),
      );
      const reads = statementsOn(t.db, 'Comment');
      expect(reads).toHaveLength(1);
      expect(namesTable(reads[0]!, 'Post')).toBe(false);
    });
  });
});
