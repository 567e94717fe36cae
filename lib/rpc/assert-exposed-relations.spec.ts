import { ModelRegistry } from '../metadata/model-registry.js';
import type { DataModelMeta, FieldMeta } from '../metadata/model-meta.types.js';
import { assertExposedRelations } from './assert-exposed-relations.js';

const scalar = (name: string, type = 'String'): FieldMeta => ({
  name, kind: 'scalar', type, isList: false, isOptional: false, isId: name === 'id', isUnique: false,
  hasDefault: false, isUpdatedAt: false, isForeignKey: false, relation: null,
});
const relation = (name: string, model: string, isList: boolean): FieldMeta => ({
  ...scalar(name, model), kind: 'relation', isList,
  relation: { name: `${name}Rel`, model, fields: [], references: [], oppositeField: null },
});

const meta: DataModelMeta = {
  provider: 'sqlite',
  enums: {},
  models: {
    User: { name: 'User', idFields: ['id'], uniqueConstraints: [], fields: { id: scalar('id'), settings: scalar('settings', 'Json'), posts: relation('posts', 'Post', true), secret: relation('secret', 'Secret', false) } },
    Post: { name: 'Post', idFields: ['id'], uniqueConstraints: [], fields: { id: scalar('id'), author: relation('author', 'User', false), secret: relation('secret', 'Secret', false) } },
    Secret: { name: 'Secret', idFields: ['id'], uniqueConstraints: [], fields: { id: scalar('id') } },
  },
};
const registry = new ModelRegistry(meta, ['User', 'Post']);
const user = registry.findByModelName('User')!;

describe('assertExposedRelations', () => {
  it.each([
    ['include', { include: { secret: true } }],
    ['select', { select: { id: true, secret: { select: { id: true } } } }],
    ['nested include', { include: { posts: { include: { secret: true } } } }],
    ['_count', { select: { _count: { select: { secret: true } } } }],
    ['relation filter', { where: { OR: [{ posts: { some: { secret: { is: { id: '1' } } } } }] } }],
    ['orderBy', { orderBy: [{ secret: { id: 'asc' } }] }],
    ['nested write', { data: { posts: { create: [{ secret: { connect: { id: '1' } } }] } } }],
  ])('refuses a hidden model reached through %s', (_name, args) => {
    expect(() => assertExposedRelations(registry, user, args)).toThrow(/Unknown field "secret"/);
  });

  it('accepts exposed relations, scalars and Json values with any keys', () => {
    expect(() =>
      assertExposedRelations(registry, user, {
        where: { settings: { equals: { secret: true } }, posts: { some: { author: { id: 1 } } } },
        include: { posts: { include: { author: true } } },
        data: { settings: { secret: { deep: [1, 2] } } },
      }),
    ).not.toThrow();
  });
});
