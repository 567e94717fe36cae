import { CrudApiError } from '../errors/crud-api.error.js';
import { unknownField } from '../errors/unknown-field.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { answersRows, prismaOperation } from '../metadata/prisma-operations.js';
import { foreignKeyGuards, refuseGuardedForeignKey } from './foreign-key-guards.js';
import { policyViolation } from './policy.error.js';
import type { PolicyWhere } from './policy.types.js';
import type { PolicySet } from './policy-set.js';
import { andUniqueWhere, andWhere, isPlainObject, ruleWhere } from './rule-where.js';
import { fieldOf, transformWhere } from './transform-where.js';

/**
 * How a result is shaped, for the work done after the query: hidden fields to strip, keys the
 * engine added itself, and to-one relations whose row must be checked readable.
 */
export interface ResultShape {
  model: ModelMeta;
  /** Keys the engine added to a `select` (primary key for the visibility check), removed afterwards. */
  added: string[];
  /** Set on a node reached through a to-one relation whose target is not readable by every row. */
  toOneRule?: PolicyWhere;
  relations: Map<string, ResultShape & { toOne: boolean }>;
}

export interface ReadPlan {
  args: Record<string, any>;
  /** Undefined for count/aggregate/groupBy, whose results carry no rows. */
  shape?: ResultShape;
  /** A cursor to check readable before the query (an invisible cursor row is no row). */
  cursor?: PolicyWhere;
}

const AGGREGATE_SELECTIONS = ['_count', '_sum', '_avg', '_min', '_max'] as const;

/** The arguments of a read operation restricted to what the caller may read. */
export function planRead(
  set: PolicySet,
  model: ModelMeta,
  operation: string,
  args: Record<string, any> = {},
): ReadPlan {
  const entry = prismaOperation(operation);
  const rule = set.rule(model.name, 'read');
  const out: Record<string, any> = { ...args };
  const where = transformWhere(set, model, args.where);
  if (entry?.rows === 'one') out.where = andUniqueWhere(where ?? {}, rule);
  else out.where = andWhere(where, rule);
  if (out.where === undefined) delete out.where;
  checkOrderBy(set, model, args.orderBy);
  checkValueFields(set, model, args.distinct);
  if (args.cursor !== undefined) checkUniqueKeys(set, model, args.cursor);
  // The cursor row must be readable, and a guarded foreign key in it must not name a hidden row.
  const checkCursor = rule !== true || foreignKeyGuards(set, model).relations.length > 0;
  const cursor =
    args.cursor !== undefined && checkCursor ? transformWhere(set, model, expandUnique(model, args.cursor)) : undefined;

  if (operation === 'groupBy') {
    checkValueFields(set, model, args.by);
    checkHaving(set, model, args.having);
  }
  if (operation === 'count' && isPlainObject(args.select))
    checkValueFields(
      set,
      model,
      Object.keys(args.select).filter((k) => k !== '_all'),
    );
  if (operation === 'aggregate' || operation === 'groupBy') {
    for (const key of AGGREGATE_SELECTIONS) {
      if (isPlainObject(args[key]))
        checkValueFields(
          set,
          model,
          Object.keys(args[key]).filter((k) => k !== '_all'),
        );
    }
  }
  if (entry && !answersRows(entry)) return { args: out, cursor };

  const shape: ResultShape = { model, added: [], relations: new Map() };
  Object.assign(out, planSelection(set, model, args, shape));
  return { args: out, shape, cursor };
}

/**
 * `select`/`include`/`omit` of a model restricted to what the caller may read, recording the
 * result's shape. Used for reads and for reading back the result of a write.
 */
export function planSelection(
  set: PolicySet,
  model: ModelMeta,
  args: Record<string, any>,
  shape: ResultShape,
): Record<string, any> {
  const out: Record<string, any> = {};
  const hidden = set.hiddenFields(model.name);
  if (isPlainObject(args.omit)) {
    checkFieldList(set, model, Object.keys(args.omit));
    if (shape.toOneRule) {
      // The visibility check needs the primary key: fetch it anyway, drop it afterwards.
      const omit = { ...args.omit };
      for (const id of model.idFields) {
        if (!omit[id]) continue;
        delete omit[id];
        shape.added.push(id);
      }
      out.omit = omit;
    } else out.omit = args.omit;
  }
  for (const kind of ['select', 'include'] as const) {
    const selection = args[kind];
    if (!isPlainObject(selection)) {
      if (selection !== undefined) out[kind] = selection;
      continue;
    }
    const planned: Record<string, any> = {};
    for (const [key, value] of Object.entries(selection)) {
      if (key === '_count') {
        planned._count = planCount(set, model, value);
        continue;
      }
      const field = fieldOf(model, key);
      if (field && hidden.has(key)) throw unknownField(model.name, key);
      if (!field?.relation || !value) {
        planned[key] = value;
        continue;
      }
      const target = set.model(field.relation.model);
      const rule = set.rule(target.name, 'read');
      const nested: Record<string, any> = value === true ? {} : { ...value };
      const child = { model: target, added: [], relations: new Map(), toOne: !field.isList } as ResultShape & {
        toOne: boolean;
      };
      if (field.isList) {
        const where = andWhere(transformWhere(set, target, nested.where), rule);
        if (where) nested.where = where;
        checkOrderBy(set, target, nested.orderBy);
        checkValueFields(set, target, nested.distinct);
        if (nested.cursor !== undefined) {
          checkUniqueKeys(set, target, nested.cursor);
          // Prisma cannot restrict a nested cursor; an invisible cursor row must not anchor a page.
          if (rule !== true || foreignKeyGuards(set, target).relations.length > 0)
            throw policyViolation(`A cursor on ${model.name}.${key} cannot be checked against the access policy`);
        }
      } else {
        const visible = ruleWhere(rule);
        if (visible) child.toOneRule = visible;
      }
      Object.assign(nested, planSelection(set, target, nested, child));
      if (child.toOneRule && isPlainObject(nested.select)) {
        for (const id of target.idFields) {
          if (nested.select[id]) continue;
          nested.select = { ...nested.select, [id]: true };
          child.added.push(id);
        }
      }
      shape.relations.set(key, child);
      planned[key] = Object.keys(nested).length === 0 ? true : nested;
    }
    out[kind] = planned;
  }
  showWholeForeignKeys(set, model, out, shape);
  return out;
}

/**
 * A guarded compound foreign key is checked as a whole: when the answer shows part of it, the
 * other parts are fetched too (and dropped afterwards).
 */
function showWholeForeignKeys(set: PolicySet, model: ModelMeta, out: Record<string, any>, shape: ResultShape): void {
  const shown = (key: string) =>
    isPlainObject(out.select) ? Boolean(out.select[key]) : !(isPlainObject(out.omit) && out.omit[key]);
  for (const { keys } of foreignKeyGuards(set, model).relations) {
    if (!keys.some(shown)) continue;
    for (const key of keys.filter((part) => !shown(part))) {
      if (isPlainObject(out.select)) out.select = { ...out.select, [key]: true };
      else out.omit = { ...out.omit, [key]: false };
      shape.added.push(key);
    }
  }
}

/** `_count` of relations, counting only readable related rows. */
function planCount(set: PolicySet, model: ModelMeta, value: unknown): unknown {
  const hidden = set.hiddenFields(model.name);
  let requested: Record<string, unknown>;
  if (value === true) {
    requested = Object.fromEntries(
      Object.values(model.fields)
        .filter((field) => field.relation && field.isList && !hidden.has(field.name))
        .map((field) => [field.name, true]),
    );
  } else if (isPlainObject(value) && isPlainObject(value.select)) {
    requested = value.select;
  } else {
    return value;
  }
  const select: Record<string, unknown> = {};
  for (const [key, count] of Object.entries(requested)) {
    const field = fieldOf(model, key);
    if (field && hidden.has(key)) throw unknownField(model.name, key);
    if (!field?.relation || !count) {
      select[key] = count;
      continue;
    }
    const target = set.model(field.relation.model);
    const own = isPlainObject(count) ? transformWhere(set, target, count.where) : undefined;
    const where = andWhere(own, set.rule(target.name, 'read'));
    select[key] = where ? { ...(isPlainObject(count) ? count : {}), where } : count;
  }
  return { select };
}

/** Sorting reveals values: hidden fields are unknown, and relations are sortable only when fully readable. */
export function checkOrderBy(set: PolicySet, model: ModelMeta, orderBy: unknown): void {
  if (Array.isArray(orderBy)) return orderBy.forEach((item) => checkOrderBy(set, model, item));
  if (!isPlainObject(orderBy)) return;
  const hidden = set.hiddenFields(model.name);
  for (const [key, value] of Object.entries(orderBy)) {
    if (key === '_relevance') {
      if (isPlainObject(value)) checkValueFields(set, model, value.fields);
      continue;
    }
    // groupBy sorts by aggregates of fields (`{ _max: { passwordHash: 'asc' } }`): as revealing as the field.
    if ((AGGREGATE_SELECTIONS as readonly string[]).includes(key)) {
      if (isPlainObject(value)) checkValueFields(set, model, Object.keys(value));
      continue;
    }
    const field = fieldOf(model, key);
    if (!field) continue;
    if (hidden.has(key)) throw unknownField(model.name, key);
    refuseGuardedForeignKey(set, model, key);
    if (!field.relation) continue;
    if (set.rule(field.relation.model, 'read') !== true) {
      throw policyViolation(`Sorting by ${model.name}.${key} cannot be checked against the access policy`);
    }
    if (!field.isList) checkOrderBy(set, set.model(field.relation.model), value);
  }
}

/** A field name or list of names (omit): hidden fields are unknown. */
function checkFieldList(set: PolicySet, model: ModelMeta, fields: unknown): void {
  const hidden = set.hiddenFields(model.name);
  for (const name of Array.isArray(fields) ? fields : [fields]) {
    if (typeof name === 'string' && hidden.has(name)) throw unknownField(model.name, name);
  }
}

/** Fields whose values the answer reveals (distinct, groupBy `by`/`having`, aggregates): guarded foreign keys too are refused. */
function checkValueFields(set: PolicySet, model: ModelMeta, fields: unknown): void {
  checkFieldList(set, model, fields);
  for (const name of Array.isArray(fields) ? fields : [fields]) refuseGuardedForeignKey(set, model, name);
}

function checkHaving(set: PolicySet, model: ModelMeta, having: unknown): void {
  if (Array.isArray(having)) return having.forEach((item) => checkHaving(set, model, item));
  if (!isPlainObject(having)) return;
  for (const [key, value] of Object.entries(having)) {
    if (key === 'AND' || key === 'OR' || key === 'NOT') checkHaving(set, model, value);
    else checkValueFields(set, model, key);
  }
}

/** Keys of a unique selector, compound selectors included. */
function checkUniqueKeys(set: PolicySet, model: ModelMeta, where: unknown): void {
  if (!isPlainObject(where)) return;
  transformWhere(set, model, where);
}

/** A unique selector as a plain `where` (compound selectors spelled out). */
export function expandUnique(model: ModelMeta, where: Record<string, any>): PolicyWhere {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(where)) {
    const compound = model.uniqueConstraints.find(
      (constraint) => constraint.name === key && constraint.fields.length > 1,
    );
    if (compound && isPlainObject(value)) Object.assign(out, value);
    else out[key] = value;
  }
  return out;
}

/** Prisma's `WhereUniqueInput` rule, kept although the engine looks rows up with `findFirst`. */
export function assertUnique(model: ModelMeta, where: unknown): void {
  const given = where !== null && typeof where === 'object' ? (where as Record<string, unknown>) : {};
  const named = model.uniqueConstraints.some(
    (constraint) =>
      given[constraint.name] !== undefined || constraint.fields.every((field) => given[field] !== undefined),
  );
  if (!named) throw new CrudApiError('invalid-argument', `where must name a unique field or key of ${model.name}`);
}
