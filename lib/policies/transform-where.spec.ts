import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { parentCheckedWhere } from './foreign-key-guards.js';
import { planRead } from './plan-read.js';
import { PolicySet } from './policy-set.js';
import { transformWhere } from './transform-where.js';

const postRule = { published: true };
const set = new PolicySet(
  {
    policies: { Post: { read: postRule }, User: { read: true, fields: { read: { passwordHash: false } } } },
    defaultPolicy: 'allow',
    modelMeta,
  },
  {},
);
const User = modelMeta.models.User;
const Comment = modelMeta.models.Comment;

describe('transformWhere', () => {
  it('joins the related read rule to some/none and lets every ignore unreadable rows', () => {
    expect(transformWhere(set, User, { posts: { some: { title: 'a' }, none: {}, every: { rating: 1 } } })).toEqual({
      posts: {
        some: { AND: [{ title: 'a' }, postRule] },
        none: postRule,
        every: { OR: [{ rating: 1 }, { NOT: postRule }] },
      },
    });
  });

  it('treats an unreadable to-one row as no row', () => {
    expect(transformWhere(set, Comment, { post: { title: 'a' } })).toEqual({
      post: { is: { AND: [{ title: 'a' }, postRule] } },
    });
    expect(transformWhere(set, Comment, { post: null })).toEqual({ AND: [{ NOT: { post: { is: postRule } } }] });
    expect(transformWhere(set, Comment, { post: { isNot: null } })).toEqual({ post: { is: postRule } });
  });

  it('rewrites inside AND/OR/NOT and refuses hidden fields as unknown', () => {
    expect(transformWhere(set, User, { OR: [{ posts: { some: {} } }] })).toEqual({
      OR: [{ posts: { some: postRule } }],
    });
    expect(() => transformWhere(set, User, { NOT: { passwordHash: 'x' } })).toThrow(
      'Unknown field "passwordHash" on model User',
    );
  });

  it('sees a foreign key through its related row, unless the module checked that row itself', () => {
    const guarded = { AND: [{ post: { is: postRule } }] };
    expect(transformWhere(set, Comment, { postId: 7 })).toEqual({ postId: 7, ...guarded });
    const checked = parentCheckedWhere({ postId: 7 });
    expect(transformWhere(set, Comment, { AND: [checked, { body: 'a' }] })).toEqual({ AND: [checked, { body: 'a' }] });
  });
});

describe('planRead', () => {
  it('adds the read rule to the query and to included to-many relations', () => {
    const plan = planRead(set, User, 'findMany', { where: { name: 'a' }, include: { posts: true } });
    expect(plan.args).toEqual({ where: { name: 'a' }, include: { posts: { where: postRule } } });
  });

  it('selects the key of a conditionally readable to-one include, to check it and drop it afterwards', () => {
    const plan = planRead(set, Comment, 'findFirst', { select: { post: { select: { title: true } } } });
    expect(plan.args.select).toEqual({ post: { select: { title: true, id: true } } });
    expect(plan.shape!.relations.get('post')).toMatchObject({ toOne: true, toOneRule: postRule, added: ['id'] });
  });

  it('uses the unique input form for findUnique', () => {
    expect(planRead(set, modelMeta.models.Post, 'findUnique', { where: { id: 1 } }).args.where).toEqual({
      id: 1,
      AND: [postRule],
    });
  });
});
