import type { ModelMeta } from '../metadata/model-meta.types.js';
import { isPlainObject } from '../shared/plain-object.js';
import type { PolicyWhere } from './policy.types.js';

/** A rule after evaluation for one context: every row, or the rows matching a `where`. */
export type ResolvedRule = true | PolicyWhere;

/**
 * A `where` no row of the model matches. Not `{ OR: [] }`: Prisma 7 reads an empty `OR` nested
 * in `AND` as true (measured: `updateMany({ where: { AND: [x, { OR: [] }] } })` updates rows).
 */
export function noRows(model: ModelMeta): PolicyWhere {
  return { [model.idFields[0]!]: { in: [] } };
}

export { isPlainObject };

/** The rule as a `where` (undefined when it permits every row). */
export function ruleWhere(rule: ResolvedRule): PolicyWhere | undefined {
  return rule === true ? undefined : rule;
}

/** `where AND rule` for a `WhereInput`. */
export function andWhere(where: PolicyWhere | undefined, rule: ResolvedRule): PolicyWhere | undefined {
  const extra = ruleWhere(rule);
  if (!extra) return where;
  if (!where || Object.keys(where).length === 0) return extra;
  return { AND: [where, prunedFor(where, extra)] };
}

/**
 * `where AND rule` for a `WhereUniqueInput` (findUnique, connect, nested update): the unique
 * fields must stay at the top level, so the rule joins the input's own `AND`.
 */
export function andUniqueWhere(where: PolicyWhere, rule: ResolvedRule): PolicyWhere {
  const extra = ruleWhere(rule);
  if (!extra) return where;
  const own = where.AND === undefined ? [] : Array.isArray(where.AND) ? where.AND : [where.AND];
  return { ...where, AND: [...own, extra] };
}

/** Equality on the primary key of a row. */
export function idWhere(model: ModelMeta, row: Record<string, unknown>): PolicyWhere {
  return Object.fromEntries(model.idFields.map((field) => [field, row[field]]));
}

/** Rows matching any of the keys (an empty list matches none): `in` for a single key, scalar-only so nested bulk writes take it. */
export function anyOfIds(model: ModelMeta, rows: readonly Record<string, unknown>[]): PolicyWhere {
  if (model.idFields.length === 1) {
    const id = model.idFields[0]!;
    return { [id]: { in: rows.map((row) => row[id]) } };
  }
  return rows.length === 0 ? noRows(model) : { OR: rows.map((row) => idWhere(model, row)) };
}

/** A value two equalities on one column cannot both be true of with different ones, on every database. */
type Exact = boolean | number;

const isExact = (value: unknown): value is Exact =>
  typeof value === 'boolean' || (typeof value === 'number' && Number.isSafeInteger(value));

/** The value a field filter asks the column to equal (`field: v`, `field: { equals: v }`), if exact. */
function equalTo(filter: unknown): Exact | undefined {
  if (isExact(filter)) return filter;
  if (!isPlainObject(filter)) return undefined;
  const keys = Object.keys(filter);
  return keys.length === 1 && keys[0] === 'equals' && isExact(filter.equals) ? filter.equals : undefined;
}

const itemsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** The exact equalities every row matching `where` meets: its own, and those of its `AND`s. */
function equalities(where: unknown, into = new Map<string, Exact>()): Map<string, Exact> {
  if (!isPlainObject(where)) return into;
  for (const [key, filter] of Object.entries(where)) {
    if (key === 'AND') for (const item of itemsOf(filter)) equalities(item, into);
    else if (key !== 'OR' && key !== 'NOT') {
      const value = equalTo(filter);
      if (value !== undefined) into.set(key, value);
    }
  }
  return into;
}

/** Whether no row meeting `known` matches `where`: one of its equalities (or its `AND`s') asks another value. */
function contradicts(where: unknown, known: ReadonlyMap<string, Exact>): boolean {
  if (!isPlainObject(where)) return false;
  return Object.entries(where).some(([key, filter]) => {
    if (key === 'AND') return itemsOf(filter).some((item) => contradicts(item, known));
    if (key === 'OR' || key === 'NOT' || !known.has(key)) return false;
    const value = equalTo(filter);
    return value !== undefined && typeof value === typeof known.get(key) && value !== known.get(key);
  });
}

/**
 * `rule` for the rows of `where` only: the branches of its `OR`s (at its top, or in its `AND`s)
 * that no such row can match are left out, since `x OR false` is `x` in SQL's logic too. A rule
 * "published posts, or the caller's own" read with `published: false` becomes "the caller's own",
 * which a database answers from the index on the author rather than by scanning every post. Only
 * equalities to booleans and integers decide, which compare alike on every database (strings
 * follow collations); an `OR` none of whose branches is left stays whole.
 */
export function prunedFor(where: PolicyWhere | undefined, rule: PolicyWhere): PolicyWhere {
  if (!hasOr(rule)) return rule;
  const known = equalities(rule, equalities(where));
  return known.size === 0 ? rule : pruned(rule, known);
}

const hasOr = (where: unknown): boolean =>
  isPlainObject(where) && ('OR' in where || ('AND' in where && itemsOf(where.AND).some(hasOr)));

function pruned(where: PolicyWhere, known: ReadonlyMap<string, Exact>): PolicyWhere {
  let out: PolicyWhere | undefined;
  const set = (key: string, value: unknown) => ((out ??= { ...where })[key] = value);
  if (Array.isArray(where.OR)) {
    const left = where.OR.filter((branch) => !contradicts(branch, known));
    if (left.length > 0 && left.length < where.OR.length) set('OR', left);
  }
  if (where.AND !== undefined) {
    const items = itemsOf(where.AND);
    const prunedItems = items.map((item) => (isPlainObject(item) && hasOr(item) ? pruned(item, known) : item));
    if (prunedItems.some((item, index) => item !== items[index]))
      set('AND', Array.isArray(where.AND) ? prunedItems : prunedItems[0]);
  }
  return out ?? where;
}
