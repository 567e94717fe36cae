import fc from 'fast-check';

import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { whereMatches } from './row-filter.js';

const Post = modelMeta.models.Post!;
const Like = modelMeta.models.Like!;
const RUNS = { seed: Number(process.env.FUZZ_SEED ?? 20261127), numRuns: Number(process.env.FUZZ_RUNS ?? 300) };

const post = {
  id: 7,
  title: 'Hello',
  content: null,
  status: 'PUBLISHED',
  published: true,
  rating: 2.5,
  views: 12n,
  publishedAt: new Date('2026-01-02T03:04:05.678Z'),
  deletedAt: null,
  authorId: 3,
};
const matches = (where: unknown, row: Record<string, unknown> = post, provider = 'sqlite') =>
  whereMatches(Post, where, row, provider);

describe('whereMatches', () => {
  it.each([
    [{}, true],
    [{ id: 7 }, true],
    [{ id: 8 }, false],
    [{ title: { equals: 'Hello' } }, true],
    [{ content: null }, true],
    [{ content: { not: null } }, false],
    [{ title: { in: ['a', 'Hello'] } }, true],
    [{ title: { notIn: ['Hello'] } }, false],
    [{ rating: { gt: 2, lte: 2.5 } }, true],
    [{ views: { gte: 12 } }, true],
    [{ views: { lt: 12n } }, false],
    [{ publishedAt: { gte: '2026-01-02T03:04:05.678Z' } }, true],
    [{ publishedAt: { gt: new Date('2026-01-02T03:04:05.678Z') } }, false],
    [{ status: { in: ['DRAFT', 'PUBLISHED'] } }, true],
    [{ published: { not: true } }, false],
    [{ OR: [{ published: true }, { authorId: 9 }] }, true],
    [{ NOT: { authorId: 3 } }, false],
    [{ AND: [{ deletedAt: null }, { OR: [{ published: true }, { authorId: 1 }] }] }, true],
    // SQLite's LIKE ignores ASCII case.
    [{ title: { contains: 'ELL' } }, true],
    [{ title: { startsWith: 'he', endsWith: 'LO' } }, true],
    [{ title: { equals: 'hello' } }, false],
    [{ title: undefined, id: 7 }, true],
    // A false conjunct or a true disjunct decides, whatever the others hold.
    [{ AND: [{ id: 8 }, { author: { is: { name: 'A' } } }] }, false],
    [{ OR: [{ id: 7 }, { price: { gt: 1 } }] }, true],
  ])('decides %j on a row of its own fields: %s', (where, expected) => {
    expect(matches(where)).toBe(expected);
  });

  it.each([
    // Comparisons with NULL are unknown: NOT keeps them unknown, and unknown is no match.
    [{ content: 'x' }, false],
    [{ content: { not: 'x' } }, false],
    [{ NOT: { content: 'x' } }, false],
    [{ content: { notIn: ['x'] } }, false],
    [{ OR: [{ content: { not: 'x' } }, { id: 7 }] }, true],
    [{ NOT: { OR: [{ content: 'x' }, { id: 8 }] } }, false],
  ])("follows SQL's NULL: %j is %s on a NULL column", (where, expected) => {
    expect(matches(where)).toBe(expected);
  });

  it.each([
    ['a relation filter', { author: { is: { name: 'A' } } }],
    ['a to-many relation filter', { comments: { some: {} } }],
    ['mode: insensitive', { title: { equals: 'hello', mode: 'insensitive' } }],
    ['a Decimal', { price: { gt: 1 } }],
    ['a JSON filter', { metadata: { path: ['a'], equals: 1 } }],
    ['an unknown operator', { title: { like: 'H%' } }],
    ['an unknown field', { nope: 1 }],
    ['a LIKE wildcard', { title: { contains: '%' } }],
    ['a Boolean ordered', { published: { gt: false } }],
    ['an enum ordered', { status: { lt: 'PUBLISHED' } }],
    ['a value of another type', { id: '7' }],
    ['an invalid date', { publishedAt: { lt: 'soon' } }],
    ['an `in` holding null', { content: { in: [null] } }],
    ['OR given an object', { OR: { id: 7 } }],
    // Prisma drops empty conditions rather than reading them as SQL would.
    ['an empty OR', { OR: [] }],
    ['an empty NOT', { NOT: [{ NOT: [] }] }],
    ['a NOT of nothing', { NOT: { title: undefined } }],
    ['an OR with an empty member', { OR: [{}, { id: 8 }] }],
    ['a not of nothing', { title: { not: {} } }],
    ['a field the row lacks', { createdAt: { lt: new Date() } }],
  ])('leaves %s undecided', (_name, where) => {
    expect(matches(where)).toBeUndefined();
  });

  it('expands a compound unique selector into its fields', () => {
    const like = { userId: 1, postId: 2, createdAt: new Date() };
    expect(whereMatches(Like, { userId_postId: { userId: 1, postId: 2 } }, like, 'sqlite')).toBe(true);
    expect(whereMatches(Like, { userId_postId: { userId: 1, postId: 3 } }, like, 'sqlite')).toBe(false);
  });

  it('decides strings only where their comparison is known: exact on PostgreSQL, unordered; none on MySQL', () => {
    expect(matches({ title: { contains: 'ELL' } }, post, 'postgresql')).toBe(false);
    expect(matches({ title: { contains: 'ell' } }, post, 'postgresql')).toBe(true);
    expect(matches({ title: { gt: 'A' } }, post, 'postgresql')).toBeUndefined();
    expect(matches({ title: 'Hello' }, post, 'mysql')).toBeUndefined();
    expect(matches({ id: 7 }, post, 'mysql')).toBe(true);
  });

  it('compares strings by their UTF-8 bytes, as SQLite does', () => {
    // U+FF5E sorts before U+1F600 in UTF-16 code units, after it in UTF-8.
    expect(matches({ title: { lt: '\u{1F600}' } }, { ...post, title: '\uFF5E' })).toBe(true);
  });

  it('answers every where the same as its negation would not, when decided (NOT flips only decided truths)', () => {
    const condition = fc.oneof(
      fc.record({ id: fc.integer({ min: 5, max: 9 }) }),
      fc.record({ content: fc.constantFrom(null, 'x', { not: 'x' }, { not: null }) }),
      fc.record({ title: fc.constantFrom('Hello', { startsWith: 'H' }, { in: [] }, { notIn: [] }) }),
      fc.record({ views: fc.record({ gt: fc.bigInt({ min: 10n, max: 14n }) }) }),
    );
    const where = fc.letrec<{ where: unknown }>((tie) => ({
      where: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        condition,
        fc.record({ AND: fc.array(tie('where'), { maxLength: 3 }) }),
        fc.record({ OR: fc.array(tie('where'), { maxLength: 3 }) }),
        fc.record({ NOT: tie('where') }),
      ),
    })).where;
    fc.assert(
      fc.property(where, (generated) => {
        const [plain, negated] = [matches(generated), matches({ NOT: generated })];
        // Unknown is neither: a row matches at most one of a where and its negation.
        expect(plain === true && negated === true).toBe(false);
        expect(plain === undefined).toBe(negated === undefined);
      }),
      RUNS,
    );
  });
});
