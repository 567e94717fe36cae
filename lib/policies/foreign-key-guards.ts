import { isDeepStrictEqual } from 'node:util';

import { idSelect } from '../metadata/id-select.js';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { policyViolation } from './policy.error.js';
import type { PolicyWhere } from './policy.types.js';
import type { PolicySet } from './policy-set.js';
import { anyOfIds, isPlainObject, type ResolvedRule } from './rule-where.js';

/**
 * A relation whose foreign key the model holds, to a model the caller may not read in full: its
 * foreign-key scalars would tell which related row a readable row points to, so they follow the
 * related row's visibility (null when it is not readable).
 */
export interface GuardedRelation {
  /** The relation field (`parent`). */
  field: FieldMeta;
  /** The foreign-key scalars of this model (`parentId`). */
  keys: readonly string[];
  /** The fields of the related model they reference, in the same order (`id`). */
  references: readonly string[];
  target: ModelMeta;
  /** The related model's read rule. */
  rule: PolicyWhere;
}

export interface ForeignKeyGuards {
  relations: readonly GuardedRelation[];
  /** Per guarded foreign-key scalar: conditions that hold when every related row it names is readable. */
  visible: ReadonlyMap<string, readonly PolicyWhere[]>;
}

const NO_GUARDS: ForeignKeyGuards = { relations: [], visible: new Map() };
const cache = new WeakMap<PolicySet, Map<string, ForeignKeyGuards>>();

/**
 * The model's foreign keys that must follow the related row's visibility, for the caller. None when
 * the related model is readable in full, or when the model's own read rule already requires the
 * related row readable (`Comment.read: { post: <Post.read> }`): every row the caller sees then
 * points to a readable row.
 */
export function foreignKeyGuards(set: PolicySet, model: ModelMeta): ForeignKeyGuards {
  // Without policies every row is readable: nothing to guard, and nothing to build per request.
  if (!set.hasPolicies) return NO_GUARDS;
  let byModel = cache.get(set);
  if (!byModel) cache.set(set, (byModel = new Map()));
  let guards = byModel.get(model.name);
  if (!guards) byModel.set(model.name, (guards = buildGuards(set, model)));
  return guards;
}

function buildGuards(set: PolicySet, model: ModelMeta): ForeignKeyGuards {
  // Compared as written: the rewrite of their relations (see `PolicySet.policyRule`) keeps the implication.
  const own = set.policyRule(model.name, 'read', 'as written');
  const relations: GuardedRelation[] = [];
  for (const field of Object.values(model.fields)) {
    const relation = field.relation;
    if (!relation?.fields.length) continue;
    const written = set.policyRule(relation.model, 'read', 'as written');
    if (written === true || requiresRelated(own, field.name, written)) continue;
    relations.push({
      field,
      keys: relation.fields,
      references: relation.references,
      target: set.model(relation.model),
      rule: set.policyRule(relation.model, 'read') as PolicyWhere,
    });
  }
  if (relations.length === 0) return NO_GUARDS;
  const visible = new Map<string, PolicyWhere[]>();
  for (const relation of relations) {
    // `is` alone would do, but an explicit non-null key keeps the condition two-valued in SQL
    // whichever way Prisma renders the relation filter.
    const conditions: PolicyWhere[] = [
      ...relation.keys.filter((key) => model.fields[key]!.isOptional).map((key) => ({ [key]: { not: null } })),
      { [relation.field.name]: { is: relation.rule } },
    ];
    for (const key of relation.keys) visible.set(key, [...(visible.get(key) ?? []), ...conditions]);
  }
  return { relations, visible };
}

/** Whether a read rule requires the related row to satisfy `related` (a top-level or `AND` conjunct `{ field: related }`). */
function requiresRelated(rule: ResolvedRule, field: string, related: PolicyWhere): boolean {
  if (rule === true) return false;
  const conjuncts = [rule, ...(Array.isArray(rule.AND) ? rule.AND : isPlainObject(rule.AND) ? [rule.AND] : [])];
  // `{ field: related }` is the shorthand of `{ field: { is: related } }` unless `related` names `is`/`isNot`.
  const shorthand = !Object.hasOwn(related, 'is') && !Object.hasOwn(related, 'isNot');
  return conjuncts.some((conjunct) => {
    if (!isPlainObject(conjunct) || !Object.hasOwn(conjunct, field)) return false;
    const filter = conjunct[field];
    return (
      (shorthand && isDeepStrictEqual(filter, related)) ||
      (isPlainObject(filter) && Object.keys(filter).length === 1 && isDeepStrictEqual(filter.is, related))
    );
  });
}

/** `where`s the module built on a parent whose read it checks itself (see `parentCheckedWhere`). */
const parentChecked = new WeakSet<object>();

/**
 * Marks a `where` of foreign-key equalities (`{ authorId: 42 }`) that names a parent whose
 * readability the module checks separately, once (a related collection's parent, 404 when not
 * readable): the policy client then takes it as written rather than joining every row to the
 * parent's read rule, which would only repeat that check. Only code can mark an object, never a
 * request, whose `where` is parsed from text.
 */
export function parentCheckedWhere<Where extends object>(where: Where): Where {
  parentChecked.add(where);
  return where;
}

/** Whether the module marked this `where` with `parentCheckedWhere`. */
export function isParentCheckedWhere(where: object): boolean {
  return parentChecked.has(where);
}

/**
 * Whether Prisma certainly matches a null value with this scalar condition (`null`, `{ equals: null }`,
 * `{}`). Anything else counts as not matching null, which errs on the safe side: a row whose
 * related row is hidden then matches exactly as a row whose foreign key is null.
 */
export function matchesNull(condition: unknown): boolean {
  if (condition === null) return true;
  if (!isPlainObject(condition)) return false;
  return Object.entries(condition).every(([op, operand]) => op === 'mode' || (op === 'equals' && operand === null));
}

/**
 * A condition on a guarded foreign-key scalar, seen through the related row's visibility: a row
 * whose related row is not readable matches it as if its foreign key were null. `keep` tells whether
 * the condition stays on the key as written (a unique selector needs it there); `extra` joins it.
 */
export function guardForeignKeyCondition(
  key: string,
  condition: unknown,
  visible: readonly PolicyWhere[],
): { keep: boolean; extra: PolicyWhere[] } {
  if (!matchesNull(condition)) return { keep: true, extra: [...visible] };
  return { keep: false, extra: [{ OR: [{ AND: [{ [key]: condition }, ...visible] }, { NOT: { AND: visible } }] }] };
}

/**
 * Sorting, grouping or aggregating by a guarded foreign key would reveal the keys of rows the caller
 * cannot read: refused (403), as sorting through a partly readable relation is.
 */
export function refuseGuardedForeignKey(set: PolicySet, model: ModelMeta, field: unknown): void {
  if (typeof field === 'string' && foreignKeyGuards(set, model).visible.has(field)) {
    throw policyViolation(
      `Sorting, grouping or aggregating by ${model.name}.${field} cannot be checked against the access policy`,
    );
  }
}

/**
 * The `where` of a bulk update or delete, runnable on the database. On MySQL, Prisma cannot update
 * or delete through a filter on a relation to the same table (P2022), which a guarded self-relation
 * (`Comment.parentId`) adds: there the rows are looked up first (in the caller's transaction) and
 * named by key.
 */
export async function bulkWriteWhere(
  tx: PrismaClientLike,
  set: PolicySet,
  model: ModelMeta,
  where: unknown,
): Promise<unknown> {
  const selfGuarded = foreignKeyGuards(set, model).relations.some((relation) => relation.target.name === model.name);
  if (set.modelMeta.provider !== 'mysql' || !selfGuarded) return where;
  const rows: Record<string, unknown>[] = await tx[toTypeName(model.name)].findMany({ where, select: idSelect(model) });
  return anyOfIds(model, rows);
}
