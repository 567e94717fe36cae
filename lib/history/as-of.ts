import { CrudApiError } from '../errors/crud-api.error.js';
import type { DataModelMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { HASHED_KEY, typedRow } from './stored-row.js';

type Row = Record<string, unknown>;

/** A recorded change as the time-travel read needs it: the row it is about, and that row before it. */
export interface ChangeSince {
  rowKey: string;
  before: Row | null;
}

/**
 * The rows changed since a time, as they were at that time: the row before the first change
 * recorded after it (`changes` in the order they were recorded), or null for a row created since.
 */
export function statesAt(model: ModelMeta, changes: readonly ChangeSince[]): Map<string, Row | null> {
  const states = new Map<string, Row | null>();
  for (const change of changes) {
    if (!states.has(change.rowKey)) states.set(change.rowKey, change.before && typedRow(model, change.before));
  }
  return states;
}

/**
 * The primary key of each row changed since, for leaving its row of today out: read from the row
 * key (a key's JSON), or from a row before a change when the key is a hash (a long text id). The
 * hashed keys of rows only created since are `unresolved`: their key is in their created row.
 */
export function changedIds(model: ModelMeta, changes: readonly ChangeSince[]): { ids: Row[]; unresolved: string[] } {
  const ids = new Map<string, Row | undefined>();
  for (const { rowKey: key, before } of changes) {
    if (ids.get(key)) continue;
    const known = key.startsWith(HASHED_KEY) ? before : (JSON.parse(key) as Row);
    ids.set(key, known ? keyOf(model, known) : undefined);
  }
  const unresolved = [...ids].flatMap(([key, id]) => (id ? [] : [key]));
  return { ids: [...ids.values()].filter((id): id is Row => id !== undefined), unresolved };
}

/** The primary key of a row kept as JSON, typed. */
export const keyOf = (model: ModelMeta, row: Row): Row =>
  typedRow(model, Object.fromEntries(model.idFields.map((name) => [name, row[name]])));

/** One key of an order: a field of the model, its direction, and where nulls go. */
export interface SortKey {
  field: string;
  descending: boolean;
  nullsFirst: boolean;
}

const refuse = (message: string): never => {
  throw new CrudApiError('as-of-unsupported', message);
};

/**
 * A Prisma `orderBy` of the model's own fields as sort keys, the primary key appended (the order of
 * rows with equal keys is then one order on every database), with each database's default place
 * for nulls: last in ascending order on PostgreSQL, first on SQLite and MySQL.
 */
export function sortKeys(model: ModelMeta, orderBy: unknown, provider: string): SortKey[] {
  const items = orderBy === undefined ? [] : Array.isArray(orderBy) ? orderBy : [orderBy];
  const keys: SortKey[] = [];
  for (const item of items as Row[]) {
    for (const [field, value] of Object.entries(item)) {
      const meta = Object.hasOwn(model.fields, field) ? model.fields[field] : undefined;
      if (!meta || meta.kind === 'relation')
        refuse(`asOf reads sort by ${model.name}'s own fields only, not "${field}"`);
      const spec = typeof value === 'string' ? { sort: value } : (value as { sort?: string; nulls?: string });
      const descending = spec.sort === 'desc';
      const nullsFirst =
        spec.nulls === undefined ? (provider === 'postgresql' ? descending : !descending) : spec.nulls === 'first';
      keys.push({ field, descending, nullsFirst });
    }
  }
  for (const field of model.idFields) {
    if (!keys.some((key) => key.field === field))
      keys.push({ field, descending: false, nullsFirst: provider !== 'postgresql' });
  }
  return keys;
}

/** The keys as a Prisma `orderBy`, for the rows read from the table (`nulls` is for optional fields only). */
export function orderByOf(model: ModelMeta, keys: readonly SortKey[]): Row[] {
  return keys.map(({ field, descending, nullsFirst }) => {
    const sort = descending ? 'desc' : 'asc';
    return { [field]: model.fields[field]!.isOptional ? { sort, nulls: nullsFirst ? 'first' : 'last' } : sort };
  });
}

/** Compares two non-null values of one field as the database orders them. */
function compareValues(a: unknown, b: unknown, rank?: ReadonlyMap<string, number>): number {
  if (rank && typeof a === 'string' && typeof b === 'string') return (rank.get(a) ?? 0) - (rank.get(b) ?? 0);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === 'object' && a !== null && 'comparedTo' in a)
    return (a as { comparedTo(other: unknown): number }).comparedTo(b);
  if (typeof a === 'boolean') return Number(a) - Number(b);
  // Strings by code point (`<` compares UTF-16 units, which order as code points but for surrogates), numbers, BigInts.
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/**
 * The order of `keys` as a comparator of rows. Enums follow their declaration on PostgreSQL and
 * MySQL (an enum type), their text on SQLite; other strings follow their code points, as SQLite's
 * and PostgreSQL's C collation do (docs/history.md says where other collations differ).
 */
export function rowComparator(model: ModelMeta, meta: DataModelMeta, keys: readonly SortKey[]) {
  const ranks = keys.map(({ field }) => {
    const type = model.fields[field]!;
    if (type.kind !== 'enum' || meta.provider === 'sqlite') return undefined;
    return new Map((meta.enums[type.type] ?? []).map((name, index) => [name, index]));
  });
  return (a: Row, b: Row): number => {
    for (const [index, { field, descending, nullsFirst }] of keys.entries()) {
      const x = a[field] ?? null;
      const y = b[field] ?? null;
      if (x === null || y === null) {
        if (x === y) continue;
        return (x === null) === nullsFirst ? -1 : 1;
      }
      const order = compareValues(x, y, ranks[index]);
      if (order !== 0) return descending ? -order : order;
    }
    return 0;
  };
}

/** Merges two lists each sorted by `compare` into one sorted list. */
export function mergeSorted(first: readonly Row[], second: readonly Row[], compare: (a: Row, b: Row) => number): Row[] {
  const merged: Row[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length && j < second.length)
    merged.push(compare(first[i]!, second[j]!) <= 0 ? first[i++]! : second[j++]!);
  return merged.concat(first.slice(i), second.slice(j));
}
