import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { checkClientIds, refuseClientIds } from './client-ids.js';
import { PolicySet } from './policy-set.js';

const { Post, Comment, Like } = modelMeta.models;
const never = () => false;

describe('refuseClientIds', () => {
  it('refuses a value for a primary key the database generates (403 client-id-not-allowed)', () => {
    for (const [model, data] of [
      [Post, { id: 2, title: 't' }],
      [Comment, [{ body: 'a' }, { id: 'c1', body: 'b' }]],
      [Post, { id: null }],
    ] as const) {
      expect(() => refuseClientIds(model, data, never)).toThrow(
        expect.objectContaining({ code: 'client-id-not-allowed', status: 403 }),
      );
    }
  });

  it('accepts data without one, keys without a default, and ids the rule lets the caller choose', () => {
    expect(() => refuseClientIds(Post, [{ title: 't' }, { title: 'u', id: undefined }], never)).not.toThrow();
    expect(() => refuseClientIds(Like, { userId: 1, postId: 2 }, never)).not.toThrow();
    expect(() => refuseClientIds(Post, { id: 2 }, (field) => field === 'id')).not.toThrow();
  });

  it('lets only an explicit field write rule allow it', () => {
    const setOf = (write: Record<string, unknown>) =>
      new PolicySet(
        { policies: { Post: { fields: { write } } } as never, defaultPolicy: 'allow', modelMeta },
        {
          admin: true,
        },
      );
    expect(() => checkClientIds(setOf({}), Post, { id: 2 })).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => checkClientIds(setOf({ id: false }), Post, { id: 2 })).toThrow(
      expect.objectContaining({ status: 403 }),
    );
    expect(() => checkClientIds(setOf({ id: true }), Post, { id: 2 })).not.toThrow();
    expect(() => checkClientIds(setOf({ id: (ctx: { admin: boolean }) => ctx.admin }), Post, { id: 2 })).not.toThrow();
  });
});
