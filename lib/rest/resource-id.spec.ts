import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { formatResourceId, tryParseResourceId, uniqueWhere } from './resource-id.js';

const { Post, Like, Comment } = modelMeta.models;

describe('resource ids', () => {
  it('parses integer, string and compound ids', () => {
    expect(tryParseResourceId(Post, '42', '_')).toEqual({ id: 42 });
    expect(tryParseResourceId(Comment, 'c_1', '_')).toEqual({ id: 'c_1' });
    expect(tryParseResourceId(Like, '3_4', '_')).toEqual({ userId: 3, postId: 4 });
    expect(tryParseResourceId(Like, '3:4', ':')).toEqual({ userId: 3, postId: 4 });
  });

  it.each([['abc'], ['1.5'], ['99999999999999999999'], [''], ['1e3'], ['2147483648'], ['+1']])(
    'rejects the malformed or out-of-range (32-bit) integer id %p',
    (raw) => {
      expect(tryParseResourceId(Post, raw, '_')).toBeUndefined();
    },
  );

  it('rejects compound ids with the wrong number of parts', () => {
    expect(tryParseResourceId(Like, '3', '_')).toBeUndefined();
    expect(tryParseResourceId(Like, '3_4_5', '_')).toBeUndefined();
  });

  it('formats numbers for integer ids and joins compound ids', () => {
    expect(formatResourceId(Post, { id: 7 }, '_')).toBe(7);
    expect(formatResourceId(Like, { userId: 3, postId: 4 }, '_')).toBe('3_4');
  });

  it('builds the unique selector, named by the compound constraint', () => {
    expect(uniqueWhere(Post, { id: 7 })).toEqual({ id: 7 });
    expect(uniqueWhere(Like, { userId: 3, postId: 4 })).toEqual({ userId_postId: { userId: 3, postId: 4 } });
  });
});
