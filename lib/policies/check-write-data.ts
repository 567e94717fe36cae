import { idSelect } from '../metadata/id-select.js';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { checkClientIds } from './client-ids.js';
import { foreignKeyGuards } from './foreign-key-guards.js';
import { expandUnique } from './plan-read.js';
import { policyViolation } from './policy.error.js';
import type { PolicyAction, PolicyWhere } from './policy.types.js';
import type { PolicySet } from './policy-set.js';
import { andUniqueWhere, andWhere, anyOfIds, idWhere, isPlainObject, type ResolvedRule } from './rule-where.js';
import { fieldOf, transformWhere } from './transform-where.js';
import type { WriteChecks } from './write-checks.js';

/** A write in progress: the transaction client, the caller's policies and what the write must prove. */
export interface WriteScope {
  tx: PrismaClientLike;
  set: PolicySet;
  checks: WriteChecks;
}

type Data = Record<string, any>;
type Row = Record<string, any>;
type NestedHandler = (scope: WriteScope, relation: RelationWrite, value: unknown) => Promise<unknown>;

interface RelationWrite {
  parent: ModelMeta;
  field: FieldMeta;
  target: ModelMeta;
  /**
   * Linking or unlinking changes the related rows: the foreign key lives on them, or the relation is
   * an implicit many-to-many, whose link belongs to both sides.
   */
  changesTarget: boolean;
  /** The related rows of the parent row being updated (undefined while the parent is created). */
  linked?: PolicyWhere;
}

const many = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const mapMany = async (value: unknown, fn: (item: any) => Promise<unknown>): Promise<unknown> =>
  Array.isArray(value) ? Promise.all(value.map(fn)) : fn(value);
const delegate = (scope: WriteScope, model: ModelMeta) => scope.tx[toTypeName(model.name)];

/**
 * The `data` of a create or update, checked against the rules of every model it touches and
 * rewritten so that it cannot reach rows the caller may not read: protected fields are refused,
 * foreign keys written by value must name readable rows, nested creates need the target's create
 * rule, linked/changed/deleted related rows must satisfy the target's rules, and rows a nested update
 * changes are recorded for the post-update check. `parentRow` selects the row being updated (absent
 * for a create). A nested operation the engine cannot check is refused (403).
 */
export async function checkWriteData(
  scope: WriteScope,
  model: ModelMeta,
  data: unknown,
  parentRow?: PolicyWhere,
): Promise<unknown> {
  if (!isPlainObject(data)) return data;
  const protectedFields = scope.set.protectedFields(model.name);
  const out: Data = {};
  for (const [key, value] of Object.entries(data)) {
    const field = fieldOf(model, key);
    if (field && (protectedFields.has(key) || field.relation?.fields.some((fk) => protectedFields.has(fk)))) {
      throw policyViolation(`The access policy does not let you write ${model.name}.${key}`);
    }
    if (!field?.relation || !isPlainObject(value)) {
      out[key] = value;
      continue;
    }
    const relation = relationWrite(scope.set, model, field, parentRow);
    const nested: Data = {};
    for (const [op, opValue] of Object.entries(value)) {
      const handler = Object.hasOwn(NESTED_WRITES, op) ? NESTED_WRITES[op] : undefined;
      if (!handler)
        throw policyViolation(`The nested "${op}" on ${model.name}.${key} cannot be checked against the access policy`);
      nested[op] = await handler(scope, relation, opValue);
    }
    out[key] = nested;
  }
  checkForeignKeys(scope, model, data);
  return out;
}

/** Relations whose foreign key this model holds. */
const foreignKeyRelations = (model: ModelMeta): FieldMeta[] =>
  Object.values(model.fields).filter((field) => (field.relation?.fields.length ?? 0) > 0);

/**
 * A foreign key written as a scalar is a `connect` by value: protected with its relation, and the
 * row it names must be readable (recorded for `WriteChecks.verifyReferences`).
 */
function checkForeignKeys(scope: WriteScope, model: ModelMeta, data: Data): void {
  const protectedFields = scope.set.protectedFields(model.name);
  for (const field of foreignKeyRelations(model)) {
    const keys = field.relation!.fields;
    const written = keys.filter((key) => Object.hasOwn(data, key));
    if (written.length === 0) continue;
    if (protectedFields.has(field.name))
      throw policyViolation(`The access policy does not let you write ${model.name}.${written[0]}`);
    const target = scope.set.model(field.relation!.model);
    if (scope.set.rule(target.name, 'read') === true) continue;
    const values = keys.map((key) => foreignKeyValue(data[key]));
    if (values.some((value) => value === null)) continue;
    if (written.length < keys.length || values.some((value) => value === undefined)) {
      throw policyViolation(
        `The write of ${model.name}.${written.join(', ')} cannot be checked against the read rule of ${target.name}`,
      );
    }
    scope.checks.reference(
      target,
      Object.fromEntries(field.relation!.references.map((reference, index) => [reference, values[index]])),
    );
  }
}

/** The value a foreign-key write sets: `null` unlinks, undefined when it is computed (increment...). */
function foreignKeyValue(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  return Object.keys(value).length === 1 && Object.hasOwn(value, 'set') ? value.set : undefined;
}

function relationWrite(set: PolicySet, parent: ModelMeta, field: FieldMeta, parentRow?: PolicyWhere): RelationWrite {
  const target = set.model(field.relation!.model);
  const oppositeName = field.relation!.oppositeField;
  const opposite = oppositeName ? fieldOf(target, oppositeName) : undefined;
  const implicitManyToMany = field.isList && opposite?.isList === true;
  const linked =
    parentRow && opposite ? { [opposite.name]: opposite.isList ? { some: parentRow } : { is: parentRow } } : undefined;
  return {
    parent,
    field,
    target,
    changesTarget: (opposite?.relation?.fields.length ?? 0) > 0 || implicitManyToMany,
    linked,
  };
}

const readRule = (scope: WriteScope, relation: RelationWrite): ResolvedRule =>
  scope.set.rule(relation.target.name, 'read');

function requireUnconditional(scope: WriteScope, relation: RelationWrite, action: PolicyAction, op: string): void {
  if (scope.set.rule(relation.target.name, action) === true) return;
  const what = `${relation.parent.name}.${relation.field.name}`;
  throw policyViolation(
    scope.set.denies(relation.target.name, action)
      ? `The access policy does not let you ${action} ${relation.target.name} rows (nested "${op}" on ${what})`
      : `The nested "${op}" on ${what} cannot be checked against the conditional ${action} rule of ${relation.target.name}`,
  );
}

/** The first row matching `where`, by primary key. */
async function firstRow(scope: WriteScope, model: ModelMeta, where: PolicyWhere | undefined): Promise<Row | undefined> {
  return (await delegate(scope, model).findFirst({ where: where ?? {}, select: idSelect(model) })) ?? undefined;
}

/**
 * A related row named by a unique selector, restricted to rows the caller may read (invisible rows
 * are left to Prisma's "not found"). A visible row outside `action`'s rule is refused; a row whose
 * link changes is recorded for the post-update check.
 */
async function selectVisible(
  scope: WriteScope,
  relation: RelationWrite,
  unique: unknown,
  action?: PolicyAction,
): Promise<{ where: unknown; row?: Row }> {
  if (!isPlainObject(unique)) return { where: unique };
  const { set } = scope;
  const target = relation.target;
  const where = transformWhere(set, target, unique);
  const read = readRule(scope, relation);
  const rule = action ? set.rule(target.name, action) : true;
  // An update needs the row itself: for the post-update check and as the parent of its nested writes.
  const row =
    rule !== true || action === 'update'
      ? await firstRow(scope, target, andWhere(expandUnique(target, where), read))
      : undefined;
  if (row && rule !== true) {
    const permitted =
      !set.denies(target.name, action!) && (await firstRow(scope, target, { AND: [idWhere(target, row), rule] }));
    if (!permitted) throw policyViolation(`The access policy does not let you ${action} this ${target.name}`);
  }
  if (row && action === 'update') scope.checks.updatedRows(target, [row]);
  return { where: andUniqueWhere(where, read), row };
}

const visibleWhere = async (scope: WriteScope, relation: RelationWrite, unique: unknown, action?: PolicyAction) =>
  (await selectVisible(scope, relation, unique, action)).where;

/** The action a link change needs on the related rows. */
const linkAction = (relation: RelationWrite): PolicyAction | undefined =>
  relation.changesTarget ? 'update' : undefined;

/** A full `where` over related rows restricted to those the caller may read and `action` on. */
function restrictMany(scope: WriteScope, relation: RelationWrite, where: unknown, action: PolicyAction): unknown {
  const own = transformWhere(scope.set, relation.target, where === true ? undefined : where);
  const restricted = andWhere(andWhere(own, readRule(scope, relation)), scope.set.rule(relation.target.name, action));
  return restricted ?? (where === true ? true : {});
}

/**
 * The scalar-only `where` of a nested updateMany/deleteMany restricted by the rules. Prisma takes no
 * relation filter there, so when the rules need one the permitted related rows are looked up first
 * and named by primary key; those are also the rows an update changes.
 */
async function restrictBulk(
  scope: WriteScope,
  relation: RelationWrite,
  where: unknown,
  action: PolicyAction,
): Promise<{ where: unknown; rows?: Row[] }> {
  const { set } = scope;
  const target = relation.target;
  const own = transformWhere(set, target, where);
  const read = readRule(scope, relation);
  const rule = set.rule(target.name, action);
  const tracked = action === 'update' && set.rule(target.name, 'postUpdate') !== true;
  // A guarded foreign key turns `own` into a relation filter, which only the lookup can take.
  const guarded = foreignKeyGuards(set, target).relations.length > 0;
  if (read === true && rule === true && !tracked && !guarded) return { where: own ?? {} };
  const restricted = andWhere(andWhere(andWhere(own, read), rule), relation.linked ?? true);
  const rows: Row[] = await delegate(scope, target).findMany({ where: restricted ?? {}, select: idSelect(target) });
  return { where: anyOfIds(target, rows), rows };
}

const createData = (scope: WriteScope, relation: RelationWrite, value: unknown, op: string) => {
  requireUnconditional(scope, relation, 'create', op);
  checkClientIds(scope.set, relation.target, value);
  return mapMany(value, (item) => checkWriteData(scope, relation.target, item));
};

/** Whether a nested to-one `update` value is the `{ where?, data }` form (rather than the data itself). */
const isWhereDataForm = (relation: RelationWrite, value: unknown): value is Data =>
  isPlainObject(value) && 'data' in value && !fieldOf(relation.target, 'data');

/** A nested to-one update: the linked row, restricted by the rules (Prisma answers "not found" otherwise). */
async function updateToOne(scope: WriteScope, relation: RelationWrite, value: unknown): Promise<unknown> {
  const { where, data } = isWhereDataForm(relation, value) ? value : { where: undefined, data: value };
  const restricted = restrictMany(scope, relation, where, 'update');
  const row =
    relation.linked &&
    (await firstRow(
      scope,
      relation.target,
      andWhere(restricted === true ? undefined : (restricted as PolicyWhere), relation.linked),
    ));
  if (row) scope.checks.updatedRows(relation.target, [row]);
  else if (scope.set.rule(relation.target.name, 'postUpdate') !== true)
    requireUnconditional(scope, relation, 'postUpdate', 'update');
  return {
    where: restricted,
    data: await checkWriteData(scope, relation.target, data, row ? idWhere(relation.target, row) : undefined),
  };
}

const NESTED_WRITES: Record<string, NestedHandler> = {
  create: (scope, relation, value) => createData(scope, relation, value, 'create'),
  createMany: async (scope, relation, value) => {
    if (!isPlainObject(value)) return value;
    return { ...value, data: await createData(scope, relation, value.data, 'createMany') };
  },
  connectOrCreate: (scope, relation, value) =>
    mapMany(value, async (item: Data) => ({
      ...item,
      where: await visibleWhere(scope, relation, item.where, linkAction(relation)),
      create: await createData(scope, relation, item.create, 'connectOrCreate'),
    })),
  connect: (scope, relation, value) =>
    mapMany(value, (item) => visibleWhere(scope, relation, item, linkAction(relation))),
  set: (scope, relation, value) => {
    // `set` also unlinks every current related row, which the caller may not even see.
    if (relation.changesTarget) requireUnconditional(scope, relation, 'update', 'set');
    return mapMany(value, (item) => visibleWhere(scope, relation, item, linkAction(relation)));
  },
  disconnect: async (scope, relation, value) => {
    if (!relation.field.isList) {
      if (relation.changesTarget) requireUnconditional(scope, relation, 'update', 'disconnect');
      return value;
    }
    return mapMany(value, (item) => visibleWhere(scope, relation, item, linkAction(relation)));
  },
  update: (scope, relation, value) => {
    if (!relation.field.isList) return updateToOne(scope, relation, value);
    return mapMany(value, async (item: Data) => {
      const { where, row } = await selectVisible(scope, relation, item.where, 'update');
      return {
        where,
        data: await checkWriteData(scope, relation.target, item.data, row ? idWhere(relation.target, row) : undefined),
      };
    });
  },
  updateMany: (scope, relation, value) =>
    mapMany(value, async (item: Data) => {
      const { where, rows } = await restrictBulk(scope, relation, item.where, 'update');
      if (rows) scope.checks.updatedRows(relation.target, rows);
      return { where, data: await checkWriteData(scope, relation.target, item.data) };
    }),
  upsert: (scope, relation, value) =>
    mapMany(value, async (item: Data) => {
      requireUnconditional(scope, relation, 'update', 'upsert');
      requireUnconditional(scope, relation, 'postUpdate', 'upsert');
      const checked: Data = {
        ...item,
        create: await createData(scope, relation, item.create, 'upsert'),
        update: await checkWriteData(scope, relation.target, item.update),
      };
      if (item.where !== undefined) {
        checked.where = relation.field.isList
          ? await visibleWhere(scope, relation, item.where)
          : restrictMany(scope, relation, item.where, 'update');
      }
      return checked;
    }),
  delete: (scope, relation, value) => {
    if (!relation.field.isList) return Promise.resolve(restrictMany(scope, relation, value, 'delete'));
    return mapMany(value, (item) => visibleWhere(scope, relation, item, 'delete'));
  },
  deleteMany: async (scope, relation, value) => {
    const wheres = await Promise.all(
      many(value).map(async (item) => (await restrictBulk(scope, relation, item, 'delete')).where),
    );
    return Array.isArray(value) ? wheres : wheres[0];
  },
};
