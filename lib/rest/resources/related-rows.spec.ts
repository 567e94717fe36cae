import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import type { FieldMeta, ModelMeta, RelationMeta } from '../../metadata/model-meta.types.js';
import { foreignKeyWhere, relationWhere } from './related-rows.js';
import type { ResourceTarget } from './resource-target.js';

const { Post, Comment, Tag, User } = modelMeta.models;
const target = (model: ModelMeta, id: Record<string, unknown>): ResourceTarget => ({
  model,
  type: model.name.toLowerCase(),
  id,
  rawId: Object.values(id).join('_'),
});

/** The to-one side of a relation the schema fixture has no example of. */
const toOne = (name: string, relation: RelationMeta): FieldMeta => ({
  name,
  kind: 'relation',
  type: relation.model,
  isList: false,
  isOptional: false,
  isId: false,
  isUnique: false,
  hasDefault: false,
  isUpdatedAt: false,
  isForeignKey: false,
  relation,
});
const item = { ...Tag, name: 'Item', idFields: ['code', 'region'] } as ModelMeta;

describe('the rows of a to-many relationship', () => {
  it('are named by the foreign key they hold, when it references the parent id', () => {
    expect(foreignKeyWhere(target(User, { id: 42 }), Post.fields.author!)).toEqual({ authorId: 42 });
    expect(foreignKeyWhere(target(Comment, { id: 'c1' }), Comment.fields.parent!)).toEqual({ parentId: 'c1' });
  });

  it('by every part of a compound foreign key, in its order', () => {
    const part = toOne('item', {
      name: 'ItemToPart',
      model: 'Item',
      fields: ['itemRegion', 'itemCode'],
      references: ['region', 'code'],
      oppositeField: 'parts',
    });
    expect(foreignKeyWhere(target(item, { code: 'A', region: 'eu' }), part)).toEqual({
      itemRegion: 'eu',
      itemCode: 'A',
    });
  });

  it('through the relation for a many-to-many, or a key that references other fields than the id', () => {
    expect(foreignKeyWhere(target(Post, { id: 7 }), Tag.fields.posts!)).toBeUndefined();
    expect(relationWhere(target(Post, { id: 7 }), Tag.fields.posts!)).toEqual({ posts: { some: { id: 7 } } });
    const byEmail = toOne('author', {
      name: 'ByEmail',
      model: 'User',
      fields: ['authorEmail'],
      references: ['email'],
      oppositeField: 'posts',
    });
    expect(foreignKeyWhere(target(User, { id: 42 }), byEmail)).toBeUndefined();
    expect(relationWhere(target(User, { id: 42 }), byEmail)).toEqual({ author: { is: { id: 42 } } });
  });
});
