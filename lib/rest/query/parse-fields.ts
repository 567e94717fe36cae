import { CrudApiError } from '../../filters/crud-api.error.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';
import { attributeFields, relationshipFields } from '../serialize/resource-members.js';

/** Sparse fieldsets: the fields to render, by type name; a type not listed renders all fields. */
export type Fieldsets = Map<string, ReadonlySet<string>>;

/** `fields[type]=a,b`, checked against the exposed models. */
export function parseFields(registry: ModelRegistry, fields: ReadonlyMap<string, string>): Fieldsets {
  const fieldsets: Fieldsets = new Map();
  for (const [type, list] of fields) {
    const parameter = `fields[${type}]`;
    const model = registry.findByTypeName(type);
    if (!model) throw new CrudApiError('invalid-query-parameter', `Unknown type "${type}" in ${parameter}.`, { source: { parameter } });
    const names = list === '' ? [] : list.split(',');
    const members = new Set([...attributeFields(registry, model), ...relationshipFields(registry, model)].map((field) => field.name));
    for (const name of names) {
      if (!members.has(name)) {
        throw new CrudApiError('invalid-query-parameter', `Unknown field "${name}" in ${parameter}.`, { source: { parameter } });
      }
    }
    fieldsets.set(type, new Set(names));
  }
  return fieldsets;
}
