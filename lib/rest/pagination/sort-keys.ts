import { CrudApiError } from '../../errors/crud-api.error.js';
import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';

type OrderBy = Record<string, unknown>;

/** One key of a keyset: a scalar field of the listed model and its direction. */
export interface SortKey {
  field: FieldMeta;
  descending: boolean;
}

/**
 * The keys of a cursor page, from the request's `orderBy` (`buildOrderBy`, the id fields last).
 * Dotted sort paths are refused: a keyset over a to-one relationship's field would need that
 * field's value on every row and a null rule for a missing relationship (a LEFT JOIN null), which
 * Prisma's relation filters cannot express the same way its ORDER BY sorts them.
 */
export function keysetKeys(model: ModelMeta, orderBy: readonly OrderBy[]): SortKey[] {
  return orderBy.map((entry) => {
    const [name, direction] = Object.entries(entry)[0]!;
    if (typeof direction !== 'string') {
      throw new CrudApiError(
        'invalid-query-parameter',
        `Cursor pagination cannot sort through a relationship (${name}.…); sort by fields of ${model.name} or use page[offset].`,
        {
          source: { parameter: 'sort' },
        },
      );
    }
    return { field: model.fields[name]!, descending: direction === 'desc' };
  });
}

/** The keys in the order a `page[before]` query reads them: every direction reversed. */
export function reversedKeys(keys: readonly SortKey[]): SortKey[] {
  return keys.map((key) => ({ ...key, descending: !key.descending }));
}

/**
 * `orderBy` for the keys. Nulls of an optional field sort as if greater than every value (last
 * ascending, first descending) on every database, so the keyset filter has one rule to follow;
 * SQLite and MySQL would otherwise put them first and PostgreSQL last.
 */
export function keysetOrderBy(keys: readonly SortKey[]): OrderBy[] {
  return keys.map(({ field, descending }) => {
    const sort = descending ? 'desc' : 'asc';
    return { [field.name]: field.isOptional ? { sort, nulls: descending ? 'first' : 'last' } : sort };
  });
}

/** Names the sort a cursor belongs to, so a cursor of another sort or type is refused. */
export function keysetSignature(model: ModelMeta, keys: readonly SortKey[]): string {
  return `${model.name}:${keys.map((key) => `${key.descending ? '-' : ''}${key.field.name}`).join(',')}`;
}
