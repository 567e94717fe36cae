import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { whereShape } from './where-shape.js';

const Post = modelMeta.models.Post!;
const ownDrafts = (authorId: unknown) => ({
  AND: [{ published: false }, { OR: [{ published: true }, { authorId }] }],
});

describe('whereShape', () => {
  it('gives wheres that differ only in their equalities one key, and their values', () => {
    const [five, six] = [whereShape(Post, ownDrafts(5))!, whereShape(Post, ownDrafts(6))!];
    expect(five.key).toBe(six.key);
    expect(five.values).toEqual([false, true, 5]);
    expect(six.values).toEqual([false, true, 6]);
    expect(five.fields.map((field) => field.name)).toEqual(['published', 'published', 'authorId']);
    expect(whereShape(Post, { authorId: { equals: 1, gt: 0 } })!.values).toEqual([1]);
  });

  it.each([
    [ownDrafts(5), ownDrafts('5')],
    [{ authorId: 5 }, { authorId: { equals: 5 } }],
    [{ authorId: { not: 5 } }, { authorId: { not: 6 } }],
    [{ title: { in: ['a'] } }, { title: { in: ['b'] } }],
    [{ title: 'a' }, { title: 'a', content: null }],
    // A string with surrogates compares by its UTF-8 bytes, unlike a Map's keys: kept as it is.
    [{ title: '\uD800' }, { title: '\uD801' }],
    [{ OR: [{ id: 1 }] }, { AND: [{ id: 1 }] }],
  ])('tells %j and %j apart', (one, other) => {
    expect(whereShape(Post, one)!.key).not.toBe(whereShape(Post, other)!.key);
  });

  it.each([
    [{ publishedAt: new Date(0) }],
    [{ views: 12n }],
    [{ title: { in: [undefined] } }],
    [{ rating: Number.NaN }],
  ])('has none for %j, whose text would not tell it apart', (where) => {
    expect(whereShape(Post, where)).toBeUndefined();
  });
});
