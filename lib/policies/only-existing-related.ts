import type { ModelMeta } from '../metadata/model-meta.types.js';
import type { PolicyWhere } from './policy.types.js';
import { joinConditions, listFilter, type NestedWhere, toOneFilter } from './relation-filters.js';
import type { ResolvedRule } from './rule-where.js';
import { isPlainObject } from './rule-where.js';

/** What the rewrite needs of the schema: a model by name, and the rows of a model that exist for a rule. */
export interface ExistingRows {
  model(name: string): ModelMeta;
  /** `true` when every row does (a model that is not soft-deleted). */
  existing(model: string): ResolvedRule;
}

const LOGICAL = new Set(['AND', 'OR', 'NOT']);

/**
 * A policy rule's `where` in which every relation it follows, at any depth, reaches only related
 * rows that exist (on a soft-deleted model: live ones). A like readable "when its post is readable"
 * must not stay readable when its post is deleted: `some`, `none` and `is` join the condition,
 * `every` ignores rows that do not exist, and a to-one row that does not exist counts as no row.
 * Unlike `transformWhere`, it trusts the rule otherwise: a rule may name fields clients cannot.
 */
export function onlyExistingRelated(rows: ExistingRows, model: ModelMeta, where: PolicyWhere): PolicyWhere {
  const nested: NestedWhere = (target, condition) =>
    isPlainObject(condition) ? onlyExistingRelated(rows, target, condition) : condition;
  const out: Record<string, unknown> = {};
  const extra: PolicyWhere[] = [];
  for (const [key, value] of Object.entries(where)) {
    const field = Object.hasOwn(model.fields, key) ? model.fields[key] : undefined;
    if (LOGICAL.has(key)) {
      out[key] = Array.isArray(value) ? value.map((item) => nested(model, item)) : nested(model, value);
    } else if (field?.relation) {
      const target = rows.model(field.relation.model);
      const exists = rows.existing(target.name);
      if (field.isList) out[key] = listFilter(nested, target, exists, value);
      else toOneFilter(nested, target, exists, key, value, out, extra);
    } else {
      out[key] = value;
    }
  }
  return joinConditions(out, extra);
}
