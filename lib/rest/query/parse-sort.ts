import { CrudApiError } from '../../filters/crud-api.error.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';

type OrderBy = Record<string, unknown>;

/** Types a database cannot order by. */
const UNSORTABLE_TYPES = new Set(['Json', 'Bytes']);

function bad(message: string): CrudApiError {
  return new CrudApiError('invalid-query-parameter', message, { source: { parameter: 'sort' } });
}

/** One sort key (`-author.name`) as a nested Prisma orderBy (`{ author: { name: 'desc' } }`). */
function sortKey(registry: ModelRegistry, model: ModelMeta, key: string): OrderBy {
  const descending = key.startsWith('-');
  const path = (descending ? key.slice(1) : key).split('.');
  let current = model;
  const fields = path.map((name, index) => {
    const field = registry.findField(current, name);
    if (!field) throw bad(`Cannot sort by unknown field "${path.slice(0, index + 1).join('.')}".`);
    const isLast = index === path.length - 1;
    if (field.relation) {
      if (isLast || field.isList) throw bad(`Cannot sort by relationship "${name}"; sort by a field of a to-one relationship (${name}.field).`);
      current = registry.findByModelName(field.type)!;
    } else if (!isLast || field.isList || UNSORTABLE_TYPES.has(field.type)) {
      throw bad(`Cannot sort by "${path.slice(0, index + 1).join('.')}".`);
    }
    return name;
  });
  return fields.reduceRight<unknown>((inner, name) => ({ [name]: inner }), descending ? 'desc' : 'asc') as OrderBy;
}

/**
 * Prisma `orderBy` for `sort=a,-b.c`. The id fields are appended so pages are stable whatever
 * the requested order.
 */
export function buildOrderBy(registry: ModelRegistry, model: ModelMeta, sort: string | undefined): OrderBy[] {
  const keys = sort === undefined ? [] : sort.split(',');
  if (keys.some((key) => !key || key === '-')) throw bad('sort takes a comma-separated list of field names.');
  const orderBy = keys.map((key) => sortKey(registry, model, key));
  for (const idField of model.idFields) {
    if (!orderBy.some((entry) => idField in entry)) orderBy.push({ [idField]: 'asc' });
  }
  return orderBy;
}
