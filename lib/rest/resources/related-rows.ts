import type { FieldMeta } from '../../metadata/model-meta.types.js';
import type { Row } from './model-delegate.js';
import type { ResourceTarget } from './resource-target.js';

/**
 * The rows of a to-many relationship of `target` by the foreign key they hold (`{ authorId: 42 }`
 * for `user/42/posts`, `opposite` being `Post.author`): a filter on the related table's own
 * columns, where the relation filter is a subquery on the parent's table. Undefined when the
 * related rows hold no such key: many-to-many, or a key referencing other fields than the target's id.
 */
export function foreignKeyWhere(target: ResourceTarget, opposite: FieldMeta): Row | undefined {
  const relation = opposite.relation;
  if (opposite.isList || !relation?.fields.length) return undefined;
  if (!relation.references.every((name) => Object.hasOwn(target.id, name))) return undefined;
  return Object.fromEntries(relation.fields.map((field, index) => [field, target.id[relation.references[index]!]]));
}

/** The rows of a to-many relationship of `target` through the relation back to it (`some` of a many-to-many). */
export function relationWhere(target: ResourceTarget, opposite: FieldMeta): Row {
  return { [opposite.name]: opposite.isList ? { some: target.id } : { is: target.id } };
}
