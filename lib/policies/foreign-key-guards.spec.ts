import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { matchesNull } from './foreign-key-guards.js';
import { planRead } from './plan-read.js';
import { PolicySet } from './policy-set.js';
import { transformWhere } from './transform-where.js';

const postRule = { published: true };
const commentRule = { post: { published: true } };
// Comment's read rule requires its post readable (so `postId` needs no guard), not its parent.
const set = new PolicySet(
  { policies: { Post: { read: postRule }, Comment: { read: commentRule } }, defaultPolicy: 'allow', modelMeta },
  {},
);
const { Comment, Like, User } = modelMeta.models;
const parentVisible = [{ parentId: { not: null } }, { parent: { is: commentRule } }];

describe('matchesNull', () => {
  it.each([null, {}, { equals: null }, { equals: null, mode: 'insensitive' }])('%j matches null', (condition) => {
    expect(matchesNull(condition)).toBe(true);
  });

  it.each([
    5,
    'a',
    { not: null },
    { not: 5 },
    { in: [1] },
    { notIn: [1] },
    { lt: 3 },
    { equals: 5 },
    { not: { equals: null } },
  ])('%j is taken as not matching null', (condition) => {
    expect(matchesNull(condition)).toBe(false);
  });
});

describe('transformWhere on foreign keys whose related row may be unreadable', () => {
  it('lets a condition that null fails match only rows whose related row is readable', () => {
    expect(transformWhere(set, Comment, { parentId: 'c1' })).toEqual({ parentId: 'c1', AND: parentVisible });
    expect(transformWhere(set, Comment, { parentId: { in: ['c1'] }, body: 'b' })).toEqual({
      parentId: { in: ['c1'] },
      body: 'b',
      AND: parentVisible,
    });
  });

  it('lets a condition that null matches also match rows whose related row is unreadable', () => {
    expect(transformWhere(set, Comment, { parentId: null })).toEqual({
      AND: [{ OR: [{ AND: [{ parentId: null }, ...parentVisible] }, { NOT: { AND: parentVisible } }] }],
    });
  });

  it('rewrites inside AND/OR/NOT and relation filters', () => {
    expect(transformWhere(set, Comment, { NOT: { parentId: { not: 'c1' } } })).toEqual({
      NOT: { parentId: { not: 'c1' }, AND: parentVisible },
    });
    expect(transformWhere(set, User, { comments: { some: { parentId: 'c1' } } })).toEqual({
      comments: { some: { AND: [{ parentId: 'c1', AND: parentVisible }, commentRule] } },
    });
  });

  it('leaves foreign keys alone when the model read rule already requires the related row readable', () => {
    expect(transformWhere(set, Comment, { postId: 1, authorId: 2 })).toEqual({ postId: 1, authorId: 2 });
  });

  it('guards a compound unique selector that holds a foreign key', () => {
    const likes = new PolicySet({ policies: { Post: { read: postRule } }, defaultPolicy: 'allow', modelMeta }, {});
    expect(transformWhere(likes, Like, { userId_postId: { userId: 1, postId: 2 } })).toEqual({
      userId_postId: { userId: 1, postId: 2 },
      AND: [{ post: { is: postRule } }],
    });
  });
});

describe('planRead on foreign keys whose related row may be unreadable', () => {
  it.each([
    ['orderBy', 'findMany', { orderBy: { parentId: 'asc' } }],
    ['nested orderBy', 'findMany', { include: { replies: { orderBy: [{ parentId: 'asc' }] } } }],
    ['distinct', 'findMany', { distinct: ['parentId'] }],
    ['groupBy by', 'groupBy', { by: ['parentId'] }],
    ['groupBy having', 'groupBy', { by: ['body'], having: { parentId: { _count: { gt: 0 } } } }],
    ['groupBy orderBy _min', 'groupBy', { by: ['body'], orderBy: { _min: { parentId: 'asc' } } }],
    ['aggregate _max', 'aggregate', { _max: { parentId: true } }],
    ['aggregate _count', 'aggregate', { _count: { parentId: true } }],
    ['count select', 'count', { select: { parentId: true } }],
  ])('refuses %s (403)', (_label, operation, args) => {
    expect(() => planRead(set, Comment, operation, args)).toThrow(
      expect.objectContaining({ status: 403, message: expect.stringContaining('Comment.parentId') }),
    );
  });

  it('accepts omitting it, and sorting or grouping by foreign keys the read rule guarantees', () => {
    expect(() =>
      planRead(set, Comment, 'findMany', { omit: { parentId: true }, orderBy: { postId: 'asc' } }),
    ).not.toThrow();
    expect(() => planRead(set, Comment, 'groupBy', { by: ['postId', 'authorId'] })).not.toThrow();
  });

  it('checks a cursor against the guard', () => {
    const likes = new PolicySet({ policies: { Post: { read: postRule } }, defaultPolicy: 'allow', modelMeta }, {});
    const cursor = { userId_postId: { userId: 1, postId: 2 } };
    expect(planRead(likes, Like, 'findMany', { cursor }).cursor).toEqual({
      userId: 1,
      postId: 2,
      AND: [{ post: { is: postRule } }],
    });
  });
});
