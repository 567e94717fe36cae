import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { VisibleFields } from '../visible-fields.js';

/** Sparse fieldsets: the fields to render, by type name; a type not listed renders all fields. */
export type Fieldsets = Map<string, ReadonlySet<string>>;

/** `fields[type]=a,b`, checked against the exposed models and the fields the caller can see. */
export function parseFields(fields: VisibleFields, requested: ReadonlyMap<string, string>): Fieldsets {
  const fieldsets: Fieldsets = new Map();
  for (const [type, list] of requested) {
    const parameter = `fields[${type}]`;
    const model = fields.registry.findByTypeName(type);
    if (!model)
      throw new CrudApiError('invalid-query-parameter', `Unknown type ${quoteInput(type)} in fields.`, {
        source: { parameter },
      });
    const names = list === '' ? [] : list.split(',');
    for (const name of names) {
      if (!fields.attribute(model, name) && !fields.relationship(model, name)) {
        throw new CrudApiError(
          'invalid-query-parameter',
          `Unknown field ${quoteInput(name)} in ${quoteInput(parameter)}.`,
          { source: { parameter } },
        );
      }
    }
    fieldsets.set(type, new Set(names));
  }
  return fieldsets;
}
