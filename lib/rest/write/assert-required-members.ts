import { CrudApiError } from '../../errors/crud-api.error.js';
import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { relationOfForeignKey } from '../serialize/resource-members.js';
import type { VisibleFields } from '../visible-fields.js';

function isRequiredOnCreate(field: FieldMeta): boolean {
  return field.kind !== 'relation' && !field.isOptional && !field.hasDefault && !field.isUpdatedAt && !field.isList;
}

function missing(message: string, pointer: string): CrudApiError {
  return new CrudApiError('invalid-payload', message, { source: { pointer } });
}

/**
 * A create must give every required field without a default, or the data layer answers with its
 * own argument names (`Argument author is missing`). Name the missing JSON:API member instead:
 * the relationship behind a missing foreign key, the id for a missing id, the attribute otherwise,
 * and every required virtual field. Members the server fills (server-set, internal) are not
 * required, and a member the caller cannot see is never named: the data layer refuses the create.
 */
export function assertRequiredMembers(
  fields: VisibleFields,
  model: ModelMeta,
  data: Readonly<Record<string, unknown>>,
): void {
  for (const field of Object.values(model.fields)) {
    if (!isRequiredOnCreate(field) || data[field.name] !== undefined) continue;
    const relation = field.isForeignKey ? relationOfForeignKey(model, field.name) : undefined;
    if (fields.writeAccess(model, (relation ?? field).name) !== 'writable') continue;
    if (relation) throw missing(`Relationship "${relation.name}" is required.`, `/data/relationships/${relation.name}`);
    if (field.isId) throw missing('"data.id" is required: this type has no server-assigned id.', '/data/id');
    throw missing(`Attribute "${field.name}" is required.`, `/data/attributes/${field.name}`);
  }
  for (const [name, virtual] of fields.modes(model).virtual) {
    if (virtual.required && data[name] === undefined)
      throw missing(`Attribute "${name}" is required.`, `/data/attributes/${name}`);
  }
}
