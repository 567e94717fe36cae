import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { ReadFootprint, rowConditions } from './read-footprint.js';

const { Post } = modelMeta.models;

/** A footprint that noted one query on Post. */
function footprintOf(operation: string, args: unknown): ReadFootprint {
  const reads = new ReadFootprint();
  reads.note(modelMeta, Post!, operation, args);
  return reads;
}

const draft = { id: 1, title: 'a', published: false, authorId: 2, deletedAt: null };
const published = { ...draft, published: true };

describe('rowConditions', () => {
  it.each([
    ['findMany', { where: { published: true }, select: { id: true, title: true }, orderBy: [{ id: 'asc' }] }, 1],
    ['findMany', { where: { published: true }, take: 2, skip: 1, distinct: ['title'], omit: { content: true } }, 1],
    ['findUniqueOrThrow', { where: { id: 1 } }, 1],
    ['count', { where: { published: true }, select: { _all: true, title: true } }, 1],
    // The cursor row places the page, matching or not.
    ['findMany', { where: { published: true }, cursor: { id: 3 }, take: 2 }, 2],
  ])('knows the rows %s %j depends on', (operation, args, count) => {
    expect(rowConditions(Post!, operation, args)).toHaveLength(count);
  });

  it.each([
    ['aggregate', { where: {}, _count: true }],
    ['groupBy', { by: ['published'] }],
    ['findMany', { include: { author: true } }],
    ['findMany', { select: { id: true, author: { select: { name: true } } } }],
    ['findMany', { select: { _count: { select: { comments: true } } } }],
    ['findMany', { orderBy: { author: { name: 'asc' } } }],
    ['findMany', { orderBy: { _relevance: { fields: ['title'], search: 'a', sort: 'asc' } } }],
    ['findMany', { relationLoadStrategy: 'join' }],
    ['update', { where: { id: 1 }, data: {} }],
  ])('knows none for %s %j', (operation, args) => {
    expect(rowConditions(Post!, operation, args)).toBeUndefined();
  });
});

describe('ReadFootprint', () => {
  it('is concerned by a change whose row matches its filter before or after, or whose rows are unknown', () => {
    const reads = footprintOf('findMany', { where: { published: true } });
    expect(reads.concerns({ model: 'Post', before: draft, after: { ...draft, title: 'b' } })).toBe(false);
    expect(reads.concerns({ model: 'Post', before: draft, after: published })).toBe(true);
    expect(reads.concerns({ model: 'Post', before: published, after: draft })).toBe(true);
    expect(reads.concerns({ model: 'Post', after: draft })).toBe(false);
    expect(reads.concerns({ model: 'Post', before: published })).toBe(true);
    expect(reads.concerns({ model: 'Post' })).toBe(true);
    expect(reads.concerns({ model: 'User', after: { id: 1 } })).toBe(false);
  });

  it('is concerned by any change of a model an undecidable query reached', () => {
    const reads = footprintOf('findMany', { where: { published: true }, include: { author: true } });
    expect(reads.concerns({ model: 'Post', before: draft, after: draft })).toBe(true);
    expect(reads.concerns({ model: 'User', after: { id: 9 } })).toBe(true);
    // A relation filter reaches another model, which no condition of Post describes.
    const filtered = footprintOf('findMany', { where: { author: { is: { name: 'A' } } } });
    expect(filtered.concerns({ model: 'User', after: { id: 9, name: 'B' } })).toBe(true);
    expect(filtered.concerns({ model: 'Post', after: draft })).toBe(true);
  });

  it('is concerned when any of its queries may change: the conditions of several queries add up', () => {
    const reads = footprintOf('findMany', { where: { published: true } });
    reads.note(modelMeta, Post!, 'count', { where: { authorId: 2 } });
    expect(reads.concerns({ model: 'Post', after: draft })).toBe(true);
    expect(reads.concerns({ model: 'Post', after: { ...draft, authorId: 3 } })).toBe(false);
  });
});
