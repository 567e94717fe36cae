import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { onlyExistingRelated } from './only-existing-related.js';
import { PolicySet } from './policy-set.js';

const live = { deletedAt: null };
const rules = { Post: { softDelete: { field: 'deletedAt' } }, Comment: { softDelete: { field: 'deletedAt' } } };
const { Like, Post, Comment, User } = modelMeta.models;
/** Posts and comments are soft-deleted; users are not. */
const rows = {
  model: (name: string) => (modelMeta.models as Record<string, ModelMeta>)[name]!,
  existing: (name: string) => (name === 'Post' || name === 'Comment' ? live : (true as const)),
};

describe('onlyExistingRelated', () => {
  it('requires a live related row of a to-one relation, and reads a deleted one as no row', () => {
    expect(onlyExistingRelated(rows, Like, { post: { published: true } })).toEqual({
      post: { is: { AND: [{ published: true }, live] } },
    });
    expect(onlyExistingRelated(rows, Like, { post: { isNot: { published: true } } })).toEqual({
      post: { isNot: { AND: [{ published: true }, live] } },
    });
    expect(onlyExistingRelated(rows, Comment, { parent: null })).toEqual({ AND: [{ NOT: { parent: { is: live } } }] });
    expect(onlyExistingRelated(rows, Comment, { parent: { isNot: null } })).toEqual({ parent: { is: live } });
  });

  it('counts live rows only in some and none, and leaves deleted ones out of every', () => {
    expect(
      onlyExistingRelated(rows, User, { posts: { some: {}, none: { title: 'a' }, every: { rating: 1 } } }),
    ).toEqual({
      posts: { some: live, none: { AND: [{ title: 'a' }, live] }, every: { OR: [{ rating: 1 }, { NOT: live }] } },
    });
  });

  it('follows relations at any depth, through models that are not soft-deleted and inside AND/OR/NOT', () => {
    expect(onlyExistingRelated(rows, Like, { user: { posts: { some: { title: 'a' } } } })).toEqual({
      user: { is: { posts: { some: { AND: [{ title: 'a' }, live] } } } },
    });
    expect(
      onlyExistingRelated(rows, Post, { OR: [{ comments: { none: {} } }, { NOT: { author: { name: 'b' } } }] }),
    ).toEqual({
      OR: [{ comments: { none: live } }, { NOT: { author: { is: { name: 'b' } } } }],
    });
  });

  it('leaves conditions on the columns of the model as they are', () => {
    expect(onlyExistingRelated(rows, Post, { authorId: 1, title: { startsWith: 'a' } })).toEqual({
      authorId: 1,
      title: { startsWith: 'a' },
    });
  });
});

describe('PolicySet rules through soft-deleted relations', () => {
  const readablePost = { published: true };
  const policies = {
    Like: { read: { post: readablePost }, delete: { post: {} } },
    Post: { read: readablePost, readDeleted: { authorId: 1 } },
  };
  const set = (deletedRows?: 'include') =>
    new PolicySet({ policies, rules, defaultPolicy: 'allow', modelMeta }, {}, deletedRows);

  it('joins the live condition to every relation a rule follows, and the permitted deleted rows on a read of them', () => {
    expect(set().rule('Like', 'read')).toEqual({ post: { is: { AND: [readablePost, live] } } });
    expect(set('include').rule('Like', 'read')).toEqual({
      post: { is: { AND: [readablePost, { OR: [live, { authorId: 1 }] }] } },
    });
    // Writes touch live rows only: a delete rule's relations reach live rows, whatever the read.
    expect(set('include').rule('Like', 'delete')).toEqual({ post: { is: live } });
  });

  it('keeps the rule as written for comparisons, and leaves rules alone without soft-deleted models', () => {
    expect(set().policyRule('Like', 'read', 'as written')).toEqual({ post: readablePost });
    const plain = new PolicySet({ policies, modelMeta }, {});
    expect(plain.rule('Like', 'read')).toEqual({ post: readablePost });
  });
});
