import fc from 'fast-check';

import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { andWhere } from '../../lib/policies/rule-where.js';
import { whereMatches } from '../../lib/prisma/row-filter.js';

const Post = modelMeta.models.Post!;
const RUNS = { seed: Number(process.env.FUZZ_SEED ?? 20261128), numRuns: Number(process.env.FUZZ_RUNS ?? 500) };
const MINE = { OR: [{ published: true }, { authorId: 5 }] };

describe('andWhere: a rule joined to a read', () => {
  it('leaves out the branches of the rule no row of the read can match', () => {
    expect(andWhere({ published: false }, MINE)).toEqual({ AND: [{ published: false }, { OR: [{ authorId: 5 }] }] });
    expect(andWhere({ published: { equals: false }, title: 'a' }, { AND: [MINE, { rating: 1 }] })).toEqual({
      AND: [{ published: { equals: false }, title: 'a' }, { AND: [{ OR: [{ authorId: 5 }] }, { rating: 1 }] }],
    });
    expect(andWhere({ AND: [{ authorId: 4 }] }, MINE)).toEqual({
      AND: [{ AND: [{ authorId: 4 }] }, { OR: [{ published: true }] }],
    });
    // The rule's own equalities hold for every row of the answer too.
    expect(andWhere({ title: 'a' }, { published: false, ...MINE })).toEqual({
      AND: [{ title: 'a' }, { published: false, OR: [{ authorId: 5 }] }],
    });
  });

  it.each([
    ['a branch every row may match', { published: true }, MINE],
    ['strings, which compare by collation', { title: 'a' }, { OR: [{ title: 'A' }, { authorId: 5 }] }],
    ['other operators', { published: { not: true } }, MINE],
    ['conditions under OR or NOT of the read', { OR: [{ published: false }], NOT: { published: false } }, MINE],
    ['an OR all of whose branches the read excludes', { published: false, authorId: 4 }, MINE],
    ['a value of another type', { published: 1 }, MINE],
  ])('keeps the rule whole for %s', (_, where, rule) => {
    expect(andWhere(where, rule)).toEqual({ AND: [where, rule] });
  });

  it('answers the rows the rule and the read answer together, for generated reads, rules and rows', () => {
    const field = fc.constantFrom('published', 'authorId', 'rating', 'title');
    const value = (name: string) =>
      name === 'published'
        ? fc.boolean()
        : name === 'title'
          ? fc.constantFrom('a', 'A', 'b')
          : fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(null));
    const condition = field.chain((name) =>
      fc.oneof(
        value(name).map((v) => ({ [name]: v })),
        value(name).map((v) => ({ [name]: { equals: v } })),
        value(name).map((v) => ({ [name]: { not: v } })),
      ),
    );
    const where: fc.Memo<Record<string, unknown>> = fc.memo((depth) =>
      depth <= 1
        ? condition
        : fc.oneof(
            condition,
            fc.array(where(depth - 1), { minLength: 1, maxLength: 3 }).map((items) => ({ OR: items })),
            fc.array(where(depth - 1), { minLength: 1, maxLength: 3 }).map((items) => ({ AND: items })),
            fc.tuple(condition, where(depth - 1)).map(([a, b]) => ({ ...a, ...b })),
            where(depth - 1).map((item) => ({ NOT: item })),
          ),
    );
    const row = fc.record({
      published: fc.boolean(),
      authorId: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(null)),
      rating: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(null)),
      title: fc.constantFrom('a', 'A', 'b'),
    });
    fc.assert(
      fc.property(where(3), where(3), fc.array(row, { minLength: 1, maxLength: 8 }), (read, rule, rows) => {
        const joined = andWhere(read, rule);
        for (const one of rows)
          expect(whereMatches(Post, joined, one, 'sqlite')).toBe(
            whereMatches(Post, { AND: [read, rule] }, one, 'sqlite'),
          );
      }),
      RUNS,
    );
  });
});
