import { CrudApiError } from '../../errors/crud-api.error.js';
import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';

function isRequiredOnCreate(field: FieldMeta): boolean {
  return field.kind !== 'relation' && !field.isOptional && !field.hasDefault && !field.isUpdatedAt && !field.isList;
}

/**
 * A create must give every required field without a default, or the data layer answers with its
 * own argument names (`Argument author is missing`). Name the missing JSON:API member instead:
 * the relationship behind a missing foreign key, the id for a missing id, the attribute otherwise.
 */
export function assertRequiredMembers(model: ModelMeta, data: Readonly<Record<string, unknown>>): void {
  for (const field of Object.values(model.fields)) {
    if (!isRequiredOnCreate(field) || data[field.name] !== undefined) continue;
    const relation = field.isForeignKey
      ? Object.values(model.fields).find((candidate) => candidate.relation?.fields.includes(field.name))
      : undefined;
    const [message, pointer] = relation
      ? [`Relationship "${relation.name}" is required.`, `/data/relationships/${relation.name}`]
      : field.isId
        ? ['"data.id" is required: this type has no server-assigned id.', '/data/id']
        : [`Attribute "${field.name}" is required.`, `/data/attributes/${field.name}`];
    throw new CrudApiError('invalid-payload', message, { source: { pointer } });
  }
}
