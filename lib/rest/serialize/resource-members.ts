import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';

/** JSON:API forbids `id` and `type` as member names; those fields never render as attributes. */
const RESERVED_MEMBER_NAMES = new Set(['id', 'type']);

/** Memoized by the registry's (stable) field list: these run for every resource rendered. */
function memoized(
  select: (field: FieldMeta) => boolean,
): (registry: ModelRegistry, model: ModelMeta) => readonly FieldMeta[] {
  const cache = new WeakMap<readonly FieldMeta[], readonly FieldMeta[]>();
  return (registry, model) => {
    const fields = registry.fieldsOf(model);
    let selected = cache.get(fields);
    if (!selected) {
      selected = fields.filter((field) => select(field) && !RESERVED_MEMBER_NAMES.has(field.name));
      cache.set(fields, selected);
    }
    return selected;
  };
}

/** Plain fields rendered as attributes, foreign keys included. */
export const attributeFields = memoized((field) => !field.relation);

/** Relation fields to exposed models, rendered as relationships. */
export const relationshipFields = memoized((field) => field.relation !== null);

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

/** The relation whose foreign key (one of its key fields) is this column, if any. */
export function relationOfForeignKey(model: ModelMeta, column: string): FieldMeta | undefined {
  return Object.values(model.fields).find((field) => field.relation?.fields.includes(column));
}
