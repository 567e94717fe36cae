import type { ModelMeta, ScalarType } from './model-meta.types.js';

/** A field a model the module keeps to itself must have: its scalar type, and whether it may be null. */
export interface OwnedField {
  type: ScalarType;
  optional?: boolean;
}

/**
 * What is wrong with a model of the application's schema that an option hands to the module
 * (`option` names it, such as `idempotency.model`), one message per problem: each field of
 * `fields` with its type, `id` its only `@id`, and no other required field the module cannot fill.
 */
export function ownedModelProblems(
  option: string,
  model: ModelMeta | undefined,
  name: string,
  fields: Readonly<Record<string, OwnedField>>,
): string[] {
  const at = `"${option}"`;
  if (!model) return [`${at}: unknown model "${name}"`];
  const problems = Object.entries(fields).flatMap(([field, { type, optional = false }]) => {
    const meta = model.fields[field];
    return meta && meta.kind === 'scalar' && meta.type === type && !meta.isList && meta.isOptional === optional
      ? []
      : [`${at}: ${name}.${field} must be ${type}${optional ? '?' : ''}`];
  });
  if (model.idFields.join() !== 'id') problems.push(`${at}: ${name}.id must be the model's @id`);
  const unfilled = Object.values(model.fields).filter(
    (field) => !(field.name in fields) && !field.isOptional && !field.hasDefault && !field.isList,
  );
  for (const field of unfilled) problems.push(`${at}: ${name}.${field.name} is required and the module cannot fill it`);
  return problems;
}
