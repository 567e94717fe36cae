import type { ModelMeta } from '../metadata/model-meta.types.js';
import type { PolicyWhere } from './policy.types.js';
import { andWhere, isPlainObject, type ResolvedRule, ruleWhere } from './rule-where.js';

/** The rewrite of a `where` of the related model, applied to the conditions inside a relation filter. */
export type NestedWhere = (target: ModelMeta, where: unknown) => unknown;

/**
 * A filter on a to-many relation that only considers the related rows `rule` admits: `some` and
 * `none` join the rule, and `every` ignores the rows outside it.
 */
export function listFilter(nested: NestedWhere, target: ModelMeta, rule: ResolvedRule, value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const op of ['some', 'none'] as const) {
    if (op in value) out[op] = andWhere(nested(target, value[op]) as PolicyWhere | undefined, rule) ?? {};
  }
  if ('every' in value) {
    const condition = nested(target, value.every) ?? {};
    const visible = ruleWhere(rule);
    // Every admitted row matches: rows outside the rule do not count. (`{}` matches every row
    // already, and Prisma drops an empty member of an `OR` rather than reading it as true.)
    const everyRow = isPlainObject(condition) && Object.keys(condition).length === 0;
    out.every = visible && !everyRow ? { OR: [condition, { NOT: visible }] } : condition;
  }
  return out;
}

/**
 * A filter on the to-one relation `key` that only considers a related row `rule` admits (a row
 * outside it counts as no row), written into `out`, or as a condition beside it into `extra`.
 */
export function toOneFilter(
  nested: NestedWhere,
  target: ModelMeta,
  rule: ResolvedRule,
  key: string,
  value: unknown,
  out: Record<string, unknown>,
  extra: PolicyWhere[],
): void {
  const visible = ruleWhere(rule);
  // "no related row": a related row outside the rule counts as none.
  const isNone = (): void => {
    if (visible) extra.push({ NOT: { [key]: { is: visible } } });
    else out[key] = null;
  };
  if (value === null) return isNone();
  if (!isPlainObject(value)) {
    out[key] = value;
    return;
  }
  const explicit = 'is' in value || 'isNot' in value;
  const filters: Record<string, unknown> = explicit ? value : { is: value };
  const result: Record<string, unknown> = {};
  for (const [op, condition] of Object.entries(filters)) {
    if (op !== 'is' && op !== 'isNot') {
      result[op] = condition;
    } else if (op === 'is' && condition === null) {
      isNone();
    } else if (op === 'isNot' && condition === null) {
      result.is = visible ?? {};
    } else {
      result[op] = andWhere(nested(target, condition) as PolicyWhere | undefined, rule) ?? {};
    }
  }
  if (Object.keys(result).length > 0) out[key] = result;
}

/** A rewritten `where` with the conditions gathered beside its fields joined to its own `AND`. */
export function joinConditions(out: Record<string, unknown>, extra: readonly PolicyWhere[]): Record<string, unknown> {
  if (extra.length === 0) return out;
  const own = out.AND === undefined ? [] : Array.isArray(out.AND) ? out.AND : [out.AND];
  return { ...out, AND: [...own, ...extra] };
}
