import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import { isSortableType } from '../../scalars/scalar-codecs.js';
import type { VisibleFields } from '../visible-fields.js';

type OrderBy = Record<string, unknown>;

function bad(message: string): CrudApiError {
  return new CrudApiError('invalid-query-parameter', message, { source: { parameter: 'sort' } });
}

/** One sort key (`-author.name`) as a nested Prisma orderBy (`{ author: { name: 'desc' } }`). */
function sortKey(fields: VisibleFields, model: ModelMeta, path: readonly string[], descending: boolean): OrderBy {
  let current = model;
  const names = path.map((name, index) => {
    const shown = quoteInput(path.slice(0, index + 1).join('.'));
    const field = fields.field(current, name);
    if (!field) throw bad(`Cannot sort by unknown field ${shown}.`);
    const isLast = index === path.length - 1;
    if (field.relation) {
      if (isLast || field.isList)
        throw bad(`Cannot sort by relationship ${shown}; sort by a field of a to-one relationship (${name}.field).`);
      current = fields.registry.findByModelName(field.type)!;
    } else if (!isLast || field.isList || !isSortableType(field.type)) {
      throw bad(`Cannot sort by ${shown}.`);
    }
    return name;
  });
  return names.reduceRight<unknown>((inner, name) => ({ [name]: inner }), descending ? 'desc' : 'asc') as OrderBy;
}

/**
 * Prisma `orderBy` for `sort=a,-b.c`. The id fields are appended so pages are stable whatever
 * the requested order. Every relationship in a path is a join: paths share the filter depth limit,
 * and a field sorted twice is refused, so the keys a request can name are bounded by the schema.
 */
export function buildOrderBy(
  fields: VisibleFields,
  model: ModelMeta,
  sort: string | undefined,
  maxDepth: number,
): OrderBy[] {
  const keys = sort === undefined ? [] : sort.split(',');
  if (keys.some((key) => !key || key === '-')) throw bad('sort takes a comma-separated list of field names.');
  const seen = new Set<string>();
  const orderBy = keys.map((key) => {
    const descending = key.startsWith('-');
    const path = descending ? key.slice(1) : key;
    const names = path.split('.');
    if (names.length > maxDepth) throw bad(`Sort paths are limited to a depth of ${maxDepth}.`);
    if (seen.has(path)) throw bad(`${quoteInput(path)} is sorted by more than once.`);
    seen.add(path);
    return sortKey(fields, model, names, descending);
  });
  for (const idField of model.idFields) {
    if (!orderBy.some((entry) => idField in entry)) orderBy.push({ [idField]: 'asc' });
  }
  return orderBy;
}
