import type { ModelMeta } from '../metadata/model-meta.types.js';
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

export function isPlainObject(value: unknown): value is Record<string, any> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The rule as a `where` (undefined when it permits every row). */
export function ruleWhere(rule: ResolvedRule): PolicyWhere | undefined {
  return rule === true ? undefined : rule;
}

/** `where AND rule` for a `WhereInput`. */
export function andWhere(where: PolicyWhere | undefined, rule: ResolvedRule): PolicyWhere | undefined {
  const extra = ruleWhere(rule);
  if (!extra) return where;
  if (!where || Object.keys(where).length === 0) return extra;
  return { AND: [where, extra] };
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
