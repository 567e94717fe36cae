import { unknownField } from '../errors/unknown-field.js';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { foreignKeyGuards, guardForeignKeyCondition, isParentCheckedWhere } from './foreign-key-guards.js';
import type { PolicyWhere } from './policy.types.js';
import type { PolicySet } from './policy-set.js';
import { joinConditions, listFilter, type NestedWhere, toOneFilter } from './relation-filters.js';
import { isPlainObject } from './rule-where.js';

const LOGICAL = new Set(['AND', 'OR', 'NOT']);

/** The model's field of that name (own property only: `__proto__` is no field). */
export function fieldOf(model: ModelMeta, name: string): FieldMeta | undefined {
  return Object.hasOwn(model.fields, name) ? model.fields[name] : undefined;
}

/**
 * A client's `where` rewritten so that it cannot see past the read rules: hidden fields are
 * refused as unknown, and every filter through a relation only considers related rows the
 * caller may read (`some`/`none`/`is` join the rule, `every` ignores invisible rows, and an
 * invisible to-one row counts as no row). A condition on a foreign key whose related row the
 * caller cannot read sees that key as null (see `foreignKeyGuards`), unless the module checked that
 * row readable itself (`parentCheckedWhere`). The result is still a `where` of the same model, to be
 * used with the model's read rule.
 */
export function transformWhere(set: PolicySet, model: ModelMeta, where: unknown): any {
  if (!isPlainObject(where) || isParentCheckedWhere(where)) return where;
  const hidden = set.hiddenFields(model.name);
  const guards = foreignKeyGuards(set, model).visible;
  const out: Record<string, unknown> = {};
  const extra: PolicyWhere[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (LOGICAL.has(key)) {
      out[key] = Array.isArray(value)
        ? value.map((item) => transformWhere(set, model, item))
        : transformWhere(set, model, value);
      continue;
    }
    const field = fieldOf(model, key);
    if (field && hidden.has(key)) throw unknownField(model.name, key);
    const compound = model.uniqueConstraints.find(
      (constraint) => constraint.name === key && constraint.fields.length > 1,
    );
    for (const part of compound?.fields ?? []) {
      if (hidden.has(part)) throw unknownField(model.name, part);
      // A compound selector is an equality on non-null values: only rows whose related row is readable match.
      extra.push(...(guards.get(part) ?? []));
    }
    if (!field?.relation) {
      const visible = value === undefined ? undefined : guards.get(key);
      const guarded = visible ? guardForeignKeyCondition(key, value, visible) : { keep: true, extra: [] };
      if (guarded.keep) out[key] = value;
      extra.push(...guarded.extra);
      continue;
    }
    const target = set.model(field.relation.model);
    const rule = set.rule(target.name, 'read');
    const nested: NestedWhere = (related, condition) => transformWhere(set, related, condition);
    if (field.isList) out[key] = listFilter(nested, target, rule, value);
    else toOneFilter(nested, target, rule, key, value, out, extra);
  }
  return joinConditions(out, extra);
}
