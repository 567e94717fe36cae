/**
 * Generated reads (fast-check, seeded; FUZZ_RUNS for a longer run, FUZZ_SEED to replay) over a blog
 * where some posts, comments and tags are soft-deleted: any model at the root, filters through
 * relations (some/every/none/is), includes and `_count` to depth two, cursors. No deleted row may
 * appear anywhere in an answer, and counts must count live rows only; the same reads through
 * `withDeletedRows` as an admin do find deleted rows, so the check can fail.
 */
import fc from 'fast-check';

import type { DemoUser } from '../../fixtures/blog/policies.js';
import { type CrudApiPolicies, type CrudApiRules, withDeletedRows, withPolicies } from '../../lib/index.js';
import type { ModelMeta } from '../../lib/metadata/model-meta.types.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

const SEED = Number(process.env.FUZZ_SEED ?? 2611);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

const rules: CrudApiRules = {
  Post: { softDelete: { field: 'deletedAt', cascade: ['comments'] } },
  Comment: { softDelete: { field: 'deletedAt', cascade: ['replies'] } },
  Tag: { softDelete: { field: 'deletedAt' } },
};
const admin = ({ user }: { user?: DemoUser }) => user?.role === 'ADMIN';
// Everything readable, so that only the soft delete hides rows.
const policies: CrudApiPolicies = Object.fromEntries(
  ['User', 'Post', 'Comment', 'Tag', 'Like', 'Profile'].map((model) => [
    model,
    { read: true, create: true, update: true, delete: true, readDeleted: admin },
  ]),
);

/** The relations a generated read may follow, per model. */
const RELATIONS: Record<string, string[]> = {
  User: ['posts', 'comments'],
  Post: ['comments', 'tags', 'author', 'likes'],
  Comment: ['post', 'replies', 'parent', 'author'],
  Tag: ['posts'],
  Like: ['post', 'user'],
};
const SOFT = new Set(['Post', 'Comment', 'Tag']);

interface Read {
  root: string;
  args: Record<string, any>;
}

describe.each(testProviders())('soft-deleted rows in generated reads (%s)', (provider) => {
  let db: TestDatabase;
  const deleted = { Post: new Set<unknown>(), Comment: new Set<unknown>(), Tag: new Set<unknown>() };
  let ids: { Post: unknown[]; Comment: unknown[]; Tag: unknown[] };
  let user: DemoUser;

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    const { prisma } = db;
    const author = await prisma.user.create({ data: { name: 'a', email: 'a@x.test', role: 'ADMIN' } });
    user = { id: author.id, role: 'ADMIN' };
    const tags = await Promise.all(['t1', 't2', 't3', 't4'].map((name) => prisma.tag.create({ data: { name } })));
    for (let index = 0; index < 6; index++) {
      const post = await prisma.post.create({
        data: {
          title: `p${index}`,
          published: true,
          authorId: author.id,
          tags: { connect: tags.filter((_, tag) => (tag + index) % 2 === 0).map((tag) => ({ id: tag.id })) },
          likes: { create: { userId: author.id } },
        },
      });
      const first = await prisma.comment.create({ data: { body: `c${index}`, postId: post.id, authorId: author.id } });
      await prisma.comment.create({ data: { body: `r${index}`, postId: post.id, parentId: first.id } });
    }
    const client = withPolicies(prisma, { policies, rules, modelMeta: db.modelMeta, context: { user } }) as any;
    const posts = await prisma.post.findMany({ orderBy: { id: 'asc' } });
    await client.post.delete({ where: { id: posts[1]!.id } });
    await client.post.deleteMany({ where: { id: { in: [posts[3]!.id, posts[4]!.id] } } });
    const lone = await prisma.comment.findFirstOrThrow({ where: { postId: posts[0]!.id, parentId: null } });
    await client.comment.delete({ where: { id: lone.id } });
    await client.tag.delete({ where: { id: tags[0]!.id } });
    await client.tag.delete({ where: { id: tags[3]!.id } });
    for (const model of ['Post', 'Comment', 'Tag'] as const) {
      const rows: { id: unknown; deletedAt: Date | null }[] = await (prisma as any)[model.toLowerCase()].findMany();
      for (const row of rows) if (row.deletedAt) deleted[model].add(row.id);
    }
    ids = {
      Post: posts.map((post) => post.id),
      Comment: (await prisma.comment.findMany()).map((comment) => comment.id),
      Tag: tags.map((tag) => tag.id),
    };
  });
  afterAll(() => db.drop());

  const model = (name: string): ModelMeta => (db.modelMeta.models as Record<string, ModelMeta>)[name]!;

  /** A condition on the model: its own id, or one through a relation to a (possibly deleted) row. */
  const whereOf = (name: string, depth: number): fc.Arbitrary<Record<string, unknown>> => {
    const own = SOFT.has(name)
      ? fc.subarray(ids[name as keyof typeof ids], { minLength: 1 }).map((list) => ({ id: { in: list } }))
      : fc.constant({});
    if (depth === 0) return own;
    const through = fc.constantFrom(...RELATIONS[name]!).chain((relation) => {
      const field = model(name).fields[relation]!;
      const target = field.relation!.model;
      const inner = whereOf(target, depth - 1);
      return field.isList
        ? fc
            .tuple(fc.constantFrom('some', 'every', 'none'), inner)
            .map(([op, condition]) => ({ [relation]: { [op]: condition } }))
        : fc
            .tuple(fc.constantFrom('is', 'isNot'), inner)
            .map(([op, condition]) => ({ [relation]: { [op]: condition } }));
    });
    return fc.oneof(own, through, fc.constant({}));
  };

  const includeOf = (name: string, depth: number): fc.Arbitrary<Record<string, unknown>> => {
    if (depth === 0) return fc.constant({});
    return fc.subarray(RELATIONS[name]!).chain((relations) => {
      if (relations.length === 0) return fc.constant({});
      return fc
        .tuple(
          ...relations.map((relation) => {
            const field = model(name).fields[relation]!;
            const target = field.relation!.model;
            return fc
              .record({ include: includeOf(target, depth - 1), where: whereOf(target, 0) })
              .map(({ include, where }) => (field.isList ? { include, where } : { include }));
          }),
        )
        .map((nested) => {
          const include: Record<string, unknown> = Object.fromEntries(relations.map((r, i) => [r, nested[i]]));
          const lists = relations.filter((relation) => model(name).fields[relation]!.isList);
          if (lists.length > 0) include._count = { select: Object.fromEntries(lists.map((list) => [list, true])) };
          return include;
        });
    });
  };

  const reads: fc.Arbitrary<Read> = fc.constantFrom('User', 'Post', 'Comment', 'Tag', 'Like').chain((root) =>
    fc
      .record({ where: whereOf(root, 2), include: includeOf(root, 2), cursor: fc.boolean() })
      .map(({ where, include, cursor }) => ({
        root,
        args: {
          where,
          include,
          ...(cursor && SOFT.has(root) ? { cursor: { id: ids[root as keyof typeof ids][1] }, take: 3 } : {}),
        },
      })),
  );

  /** Deleted rows found in an answer, walking it along the schema's relations. */
  function deletedIn(name: string, value: unknown, found: string[]): string[] {
    if (Array.isArray(value)) {
      for (const item of value) deletedIn(name, item, found);
      return found;
    }
    if (value === null || typeof value !== 'object') return found;
    const row = value as Record<string, unknown>;
    if (SOFT.has(name) && deleted[name as keyof typeof deleted].has(row.id)) found.push(`${name} ${String(row.id)}`);
    for (const [key, child] of Object.entries(row)) {
      const relation = model(name).fields[key]?.relation;
      if (relation) deletedIn(relation.model, child, found);
    }
    return found;
  }

  /** The live rows each `_count` of a row's lists should count. */
  async function checkCounts(name: string, value: unknown): Promise<void> {
    if (Array.isArray(value)) {
      for (const item of value) await checkCounts(name, item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const row = value as Record<string, any>;
    for (const [list, count] of Object.entries(row._count ?? {})) {
      const target = model(name).fields[list]!.relation!.model;
      const live = SOFT.has(target) ? { deletedAt: null } : {};
      const back = model(name).fields[list]!.relation!.oppositeField!;
      const stored = await (db.prisma as any)[target[0]!.toLowerCase() + target.slice(1)].count({
        where: {
          ...live,
          [back]: model(target).fields[back]!.isList ? { some: { id: row.id } } : { is: { id: row.id } },
        },
      });
      expect(`${name} ${String(row.id)} ${list}: ${String(count)}`).toBe(
        `${name} ${String(row.id)} ${list}: ${stored}`,
      );
    }
    for (const [key, child] of Object.entries(row)) {
      const relation = model(name).fields[key]?.relation;
      if (relation) await checkCounts(relation.model, child);
    }
  }

  it('never answers a deleted row, in any read shape', async () => {
    const client = withPolicies(db.prisma, { policies, rules, modelMeta: db.modelMeta, context: { user } }) as any;
    const reader = withDeletedRows(client) as any;
    let controlFound = 0;
    await fc.assert(
      fc.asyncProperty(reads, async ({ root, args }) => {
        const delegate = root[0]!.toLowerCase() + root.slice(1);
        const answer = await client[delegate].findMany(args);
        expect(deletedIn(root, answer, [])).toEqual([]);
        await checkCounts(root, answer);
        const { cursor: _cursor, take: _take, ...uncursored } = args;
        const total = await client[delegate].count({ where: args.where });
        expect(total).toBe((await client[delegate].findMany({ where: uncursored.where })).length);
        controlFound += deletedIn(root, await reader[delegate].findMany(args), []).length;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(controlFound).toBeGreaterThan(0);
  });
});
