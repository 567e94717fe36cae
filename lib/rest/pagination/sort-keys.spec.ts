import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { keysetKeys, keysetOrderBy, keysetSignature, reversedKeys } from './sort-keys.js';

const scalar = (name: string, isOptional = false) =>
  ({ name, type: 'String', kind: 'scalar', isOptional }) as FieldMeta;
const post = { name: 'Post', fields: { id: scalar('id'), content: scalar('content', true) } } as unknown as ModelMeta;

describe('sort keys of a cursor page', () => {
  it('reads the keys of buildOrderBy and orders nulls as the greatest values', () => {
    const keys = keysetKeys(post, [{ content: 'desc' }, { id: 'asc' }]);
    expect(keysetOrderBy(keys)).toEqual([{ content: { sort: 'desc', nulls: 'first' } }, { id: 'asc' }]);
    expect(keysetOrderBy(reversedKeys(keys))).toEqual([{ content: { sort: 'asc', nulls: 'last' } }, { id: 'desc' }]);
    expect(keysetSignature(post, keys)).toBe('Post:-content,id');
  });

  it('refuses sorting through a relationship, naming sort', () => {
    expect(() => keysetKeys(post, [{ author: { name: 'asc' } }, { id: 'asc' }])).toThrow(
      expect.objectContaining({ code: 'invalid-query-parameter', options: { source: { parameter: 'sort' } } }),
    );
  });
});
