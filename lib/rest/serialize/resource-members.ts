import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';

/** JSON:API forbids `id` and `type` as member names; those fields never render as attributes. */
const RESERVED_MEMBER_NAMES = new Set(['id', 'type']);

/** Plain fields rendered as attributes, foreign keys included. */
export function attributeFields(registry: ModelRegistry, model: ModelMeta): FieldMeta[] {
  return registry.fieldsOf(model).filter((field) => !field.relation && !RESERVED_MEMBER_NAMES.has(field.name));
}

/** Relation fields to exposed models, rendered as relationships. */
export function relationshipFields(registry: ModelRegistry, model: ModelMeta): FieldMeta[] {
  return registry.fieldsOf(model).filter((field) => field.relation && !RESERVED_MEMBER_NAMES.has(field.name));
}

/**
 * The foreign-key field holding each id field of the related model, when this side's foreign key
 * identifies the related resource (`post.authorId` → `user.id`); then no join is needed for linkage.
 */
export function foreignKeyForIds(field: FieldMeta, related: ModelMeta): string[] | undefined {
  const relation = field.relation;
  if (!relation?.fields.length || relation.references.length !== related.idFields.length) return undefined;
  const keys = related.idFields.map((idField) => relation.fields[relation.references.indexOf(idField)]);
  return keys.every((key): key is string => key !== undefined) ? keys : undefined;
}
