import { CrudApiError } from '../errors/crud-api.error.js';
import { idSelect } from '../metadata/id-select.js';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { applyDeleteRules, applyWriteRules, modelRules, type RuleRun } from '../rules/apply-write-rules.js';
import { columnValue, inClientForm } from '../rules/input-form.js';
import { throwInvalidValues } from '../rules/invalid-value.js';
import { ChangeCapture, type RowHolder } from './change-capture.js';
import { checkClientIds } from './client-ids.js';
import { foreignKeyGuards } from './foreign-key-guards.js';
import { expandUnique } from './plan-read.js';
import { policyViolation } from './policy.error.js';
import type { PolicyAction, PolicyWhere } from './policy.types.js';
import type { PolicySet } from './policy-set.js';
import { andUniqueWhere, andWhere, anyOfIds, idWhere, isPlainObject, type ResolvedRule } from './rule-where.js';
import { deletedAt, markDependants } from './soft-delete.js';
import { fieldOf, transformWhere } from './transform-where.js';
import type { WriteChecks } from './write-checks.js';

/** A write in progress: the transaction client, the caller's policies and what the write must prove. */
export interface WriteScope {
  tx: PrismaClientLike;
  set: PolicySet;
  checks: WriteChecks;
  /** The application's rules, when it has any. */
  run?: RuleRun;
  /** The transaction's changes, when the application listens to them. */
  capture?: ChangeCapture;
}

type Path = (string | number)[];

/** Where one data object stands in a write. */
export interface DataNode {
  kind: 'create' | 'update';
  path: Path;
  /** Selects the row being updated (absent for a create or a bulk update). */
  parentRow?: PolicyWhere;
  /** Columns the parent row sets (a nested create's foreign key). */
  implied?: ReadonlySet<string>;
  /** The rows an update targets, loaded when a hook needs them. */
  rows?: () => Promise<Row[]>;
  /** The row(s) this data writes, as the change listeners follow them (known, or filled in after the write). */
  self?: RowHolder;
}

type Data = Record<string, any>;
type Row = Record<string, any>;
type NestedHandler = (scope: WriteScope, relation: RelationWrite, value: unknown, path: Path) => Promise<unknown>;

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
  /** With change listeners: the rows nested creates add, and the keys of rows linked but not new. */
  watch?: { created: RowHolder; named: Set<string> };
}

const many = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
/** Applies `fn` to one value or each item of a list, with the item's path. */
const mapMany = async (
  value: unknown,
  path: Path,
  fn: (item: any, path: Path) => Promise<unknown>,
): Promise<unknown> =>
  Array.isArray(value) ? Promise.all(value.map((item, index) => fn(item, [...path, index]))) : fn(value, path);
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
  input: unknown,
  node: DataNode,
): Promise<unknown> {
  if (!isPlainObject(input)) return input;
  const data = scope.run ? await ruledData(scope.run, model, input, node) : input;
  const protectedFields = scope.set.protectedFields(model.name);
  const out: Data = {};
  for (const [key, value] of Object.entries(data)) {
    const field = fieldOf(model, key);
    // Field write rules judge what the client sends; hooks and server-set defaults are the server's.
    const fromClient = Object.hasOwn(input, key);
    if (
      fromClient &&
      field &&
      (protectedFields.has(key) || field.relation?.fields.some((fk) => protectedFields.has(fk)))
    ) {
      throw policyViolation(`The access policy does not let you write ${model.name}.${key}`);
    }
    if (!field?.relation || !isPlainObject(value)) {
      out[key] = value;
      continue;
    }
    const relation = relationWrite(scope.set, model, field, node.parentRow);
    const nested: Data = {};
    if (scope.capture && Object.keys(value).some((op) => CREATING.has(op)))
      relation.watch = await watchRelation(scope, relation, node.self ?? {});
    for (const [op, opValue] of Object.entries(value)) {
      const handler = Object.hasOwn(NESTED_WRITES, op) ? NESTED_WRITES[op] : undefined;
      if (!handler)
        throw policyViolation(`The nested "${op}" on ${model.name}.${key} cannot be checked against the access policy`);
      const checked = await handler(scope, relation, opValue, [...node.path, key, op]);
      if (checked instanceof Branches) checked.mergeInto(nested, relation.field.isList);
      else nested[op] = checked;
    }
    out[key] = nested;
  }
  checkForeignKeys(scope, model, data, input);
  return out;
}

/** The data the rules make of a client's, in the form (checked or unchecked) the client wrote it. */
async function ruledData(run: RuleRun, model: ModelMeta, input: Data, node: DataNode): Promise<Data> {
  const data = await applyWriteRules(run, { ...node, model }, input);
  return inClientForm(model, data, input, node.kind, run.model);
}

/** Nested operations that may create related rows. */
const CREATING = new Set(['create', 'createMany', 'connectOrCreate', 'upsert']);

/** Follows the rows linked through a relation across the write, to report the ones nested creates add. */
function watchRelation(scope: WriteScope, relation: RelationWrite, parents: RowHolder) {
  const back = fieldOf(relation.target, relation.field.relation!.oppositeField ?? '');
  if (!back) throw new Error(`${relation.parent.name}.${relation.field.name} has no opposite relation field`);
  return scope.capture!.watch(scope.tx, relation.parent, parents, relation.target, back);
}

/**
 * Reports related rows a nested write changes to the change listeners and, for deletes, runs the
 * delete hook on them first. Rows are read (every column) only when one of the two needs them.
 */
async function relatedChange(
  scope: WriteScope,
  relation: RelationWrite,
  operation: 'update' | 'delete' | 'link',
  rows: () => Promise<Row[]>,
  path: Path,
): Promise<void> {
  if (operation === 'delete' && scope.run) await applyDeleteRules(scope.run, relation.target, path, rows);
  if (!scope.capture) return;
  const before = await rows();
  for (const key of ChangeCapture.keys(relation.target, before)) relation.watch?.named.add(key);
  if (operation === 'link') scope.capture.changing(relation.target, 'update', before, true);
  else scope.capture.changing(relation.target, operation, before);
  // A nested delete of a model that is not soft-deleted removes its rows: the database's actions follow.
  if (operation === 'delete' && !scope.set.softDelete(relation.target.name))
    await scope.capture.deleting(scope.tx, relation.target, before);
}

/** Relations whose foreign key this model holds. */
const foreignKeyRelations = (model: ModelMeta): FieldMeta[] =>
  Object.values(model.fields).filter((field) => (field.relation?.fields.length ?? 0) > 0);

/**
 * A foreign key written as a scalar is a `connect` by value: protected with its relation, and the
 * row it names must be readable (recorded for `WriteChecks.verifyReferences`).
 */
function checkForeignKeys(scope: WriteScope, model: ModelMeta, data: Data, input: Data): void {
  const protectedFields = scope.set.protectedFields(model.name);
  for (const field of foreignKeyRelations(model)) {
    const keys = field.relation!.fields;
    const written = keys.filter((key) => Object.hasOwn(data, key));
    if (written.length === 0) continue;
    if (protectedFields.has(field.name) && keys.some((key) => Object.hasOwn(input, key)))
      throw policyViolation(`The access policy does not let you write ${model.name}.${written[0]}`);
    const target = scope.set.model(field.relation!.model);
    if (scope.set.rule(target.name, 'read') === true) continue;
    const values = keys.map((key) => columnValue(data[key]));
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

/** The foreign key of the related rows that a nested create gets from its parent row. */
const impliedKeys = (relation: RelationWrite): ReadonlySet<string> => {
  const opposite = relation.field.relation!.oppositeField;
  return new Set(opposite ? (fieldOf(relation.target, opposite)?.relation?.fields ?? []) : []);
};

const createData = (scope: WriteScope, relation: RelationWrite, value: unknown, op: string, path: Path) => {
  requireUnconditional(scope, relation, 'create', op);
  checkClientIds(scope.set, relation.target, value);
  const implied = impliedKeys(relation);
  const self = relation.watch?.created;
  return mapMany(value, path, (item, itemPath) =>
    checkWriteData(scope, relation.target, item, { kind: 'create', path: itemPath, implied, self }),
  );
};

/** Every column of the rows matching `where`, for a hook. */
const storedRows = (scope: WriteScope, model: ModelMeta, where: unknown): Promise<Row[]> =>
  delegate(scope, model).findMany({ where: where ?? {} });

/** The related rows matching `where` among those linked to the parent row (when it exists). */
const linkedRows = (scope: WriteScope, relation: RelationWrite, where: unknown) => {
  let rows: Promise<Row[]> | undefined;
  return () => (rows ??= storedRows(scope, relation.target, andWhere(where as PolicyWhere, relation.linked ?? true)));
};

/**
 * A link change by unique selector (connect, disconnect, connectOrCreate): the named row changes
 * when it holds the foreign key, and is not a created row when a watch follows the relation.
 */
async function linkChange(scope: WriteScope, relation: RelationWrite, unique: unknown, path: Path): Promise<void> {
  if (!scope.capture || !isPlainObject(unique) || (!relation.changesTarget && !relation.watch)) return;
  const where = andWhere(expandUnique(relation.target, unique), readRule(scope, relation));
  const rows = () => storedRows(scope, relation.target, where);
  if (relation.changesTarget) return relatedChange(scope, relation, 'link', rows, path);
  for (const key of ChangeCapture.keys(relation.target, await rows())) relation.watch!.named.add(key);
}

/**
 * The nested operations a nested write turned out to be: an upsert once the engine knew which branch
 * runs, a delete of soft-deleted rows the update that marks them.
 */
class Branches {
  private readonly ops = new Map<string, unknown[]>();

  add(op: string, value: unknown): void {
    this.ops.set(op, [...(this.ops.get(op) ?? []), value]);
  }

  mergeInto(nested: Data, isList: boolean): void {
    for (const [op, values] of this.ops) nested[op] = isList ? [...many(nested[op] ?? []), ...values] : values[0];
  }
}

/** Whether a nested upsert must be resolved to its branch: hooks, validation or listeners must see only that one. */
const resolvesUpserts = (scope: WriteScope, relation: RelationWrite): boolean =>
  scope.capture !== undefined ||
  (scope.run !== undefined && modelRules(scope.run.rules, relation.target.name) !== undefined);

/**
 * A nested upsert runs one branch only, so the rules see the one that runs: the related row is
 * looked up, and the upsert becomes the nested update or create it amounts to (paths stay the
 * client's: `upsert.update`, `upsert.create`).
 */
async function resolveUpsert(
  scope: WriteScope,
  relation: RelationWrite,
  value: unknown,
  path: Path,
): Promise<Branches> {
  const branches = new Branches();
  await mapMany(value, path, async (item: unknown, itemPath) => {
    if (!isPlainObject(item))
      throw new CrudApiError('invalid-argument', 'A nested upsert takes { where, create, update }.');
    const where = isPlainObject(item.where) ? expandUnique(relation.target, item.where) : undefined;
    const existing =
      relation.linked &&
      (await firstRow(scope, relation.target, andWhere(andWhere(where, readRule(scope, relation)), relation.linked)));
    // The branch that does not run is never written, but a value of the wrong type in it is still refused.
    if (existing) throwInvalidValues(item.create, [...itemPath, 'create']);
    else throwInvalidValues(item.update, [...itemPath, 'update']);
    if (!existing) {
      branches.add('create', await createData(scope, relation, item.create, 'upsert', [...itemPath, 'create']));
    } else if (relation.field.isList) {
      branches.add('update', await updateListItem(scope, relation, item.where, item.update, [...itemPath, 'update']));
    } else {
      const form = item.where === undefined ? item.update : { where: item.where, data: item.update };
      branches.add(
        'update',
        await updateToOne(scope, relation, form, [...itemPath, 'update'], [...itemPath, 'update']),
      );
    }
  });
  return branches;
}

/** One `{ where, data }` of a to-many nested update, `dataPath` where its data stands in the arguments. */
async function updateListItem(
  scope: WriteScope,
  relation: RelationWrite,
  unique: unknown,
  data: unknown,
  dataPath: Path,
): Promise<Data> {
  const { where, row } = await selectVisible(scope, relation, unique, 'update');
  const node = await updateNode(scope, relation, dataPath, row);
  return { where, data: await checkWriteData(scope, relation.target, data, node) };
}

/** Whether a nested to-one `update` value is the `{ where?, data }` form (rather than the data itself). */
const isWhereDataForm = (relation: RelationWrite, value: unknown): value is Data =>
  isPlainObject(value) && 'data' in value && !fieldOf(relation.target, 'data');

/** The data node of a nested update of `row` (undefined when the engine did not need to find it). */
async function updateNode(scope: WriteScope, relation: RelationWrite, path: Path, row: Row | undefined) {
  const { target } = relation;
  let stored: Promise<Row[]> | undefined;
  const rows = () => (stored ??= row ? storedRows(scope, target, idWhere(target, row)) : Promise.resolve([]));
  if (row) await relatedChange(scope, relation, 'update', rows, path);
  const node: DataNode = { kind: 'update', path, parentRow: row ? idWhere(target, row) : undefined, rows };
  return row ? { ...node, self: { rows: [row] } } : node;
}

/** A nested to-one update: the linked row, restricted by the rules (Prisma answers "not found" otherwise). */
async function updateToOne(
  scope: WriteScope,
  relation: RelationWrite,
  value: unknown,
  path: Path,
  dataPathOverride?: Path,
): Promise<unknown> {
  const form = isWhereDataForm(relation, value);
  const { where, data } = form ? value : { where: undefined, data: value };
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
  const dataPath = dataPathOverride ?? (form ? [...path, 'data'] : path);
  return {
    where: restricted,
    data: await checkWriteData(scope, relation.target, data, await updateNode(scope, relation, dataPath, row)),
  };
}

interface SoftDeleteItem {
  where: unknown;
  /** The related rows the item deletes. */
  rows: () => Promise<Row[]>;
}

/**
 * A nested delete of soft-deleted rows becomes the nested update that marks them (Prisma still
 * answers "not found" for a row that is not there), their dependants marked before it, at the same
 * time. Undefined when the related model is not soft-deleted.
 */
async function softDeleted(
  scope: WriteScope,
  relation: RelationWrite,
  op: 'update' | 'updateMany',
  items: SoftDeleteItem[],
): Promise<Branches | undefined> {
  const { target } = relation;
  const softDelete = scope.set.softDelete(target.name);
  if (!softDelete) return undefined;
  const at = scope.checks.deletedAt();
  const data = deletedAt(scope.set, target, at);
  const branches = new Branches();
  for (const { where, rows } of items) {
    if (softDelete.cascade?.length) await markDependants(scope, target, await rows(), at);
    branches.add(op, where === undefined ? { data } : { where, data });
  }
  return branches;
}

const NESTED_WRITES: Record<string, NestedHandler> = {
  create: (scope, relation, value, path) => createData(scope, relation, value, 'create', path),
  createMany: async (scope, relation, value, path) => {
    if (!isPlainObject(value)) return value;
    return { ...value, data: await createData(scope, relation, value.data, 'createMany', [...path, 'data']) };
  },
  connectOrCreate: (scope, relation, value, path) =>
    mapMany(value, path, async (item: Data, itemPath) => {
      await linkChange(scope, relation, item.where, itemPath);
      return {
        ...item,
        where: await visibleWhere(scope, relation, item.where, linkAction(relation)),
        create: await createData(scope, relation, item.create, 'connectOrCreate', [...itemPath, 'create']),
      };
    }),
  connect: (scope, relation, value, path) =>
    mapMany(value, path, async (item, itemPath) => {
      await linkChange(scope, relation, item, itemPath);
      return visibleWhere(scope, relation, item, linkAction(relation));
    }),
  set: async (scope, relation, value, path) => {
    // `set` also unlinks every current related row, which the caller may not even see.
    if (relation.changesTarget) {
      requireUnconditional(scope, relation, 'update', 'set');
      await relatedChange(scope, relation, 'link', linkedRows(scope, relation, undefined), path);
    }
    return mapMany(value, path, async (item, itemPath) => {
      await linkChange(scope, relation, item, itemPath);
      return visibleWhere(scope, relation, item, linkAction(relation));
    });
  },
  disconnect: async (scope, relation, value, path) => {
    if (!relation.field.isList) {
      if (relation.changesTarget) {
        requireUnconditional(scope, relation, 'update', 'disconnect');
        if (relation.linked) await relatedChange(scope, relation, 'link', linkedRows(scope, relation, undefined), path);
      }
      return value;
    }
    return mapMany(value, path, async (item, itemPath) => {
      await linkChange(scope, relation, item, itemPath);
      return visibleWhere(scope, relation, item, linkAction(relation));
    });
  },
  update: (scope, relation, value, path) => {
    if (!relation.field.isList) return updateToOne(scope, relation, value, path);
    return mapMany(value, path, (item: Data, itemPath) =>
      updateListItem(scope, relation, item.where, item.data, [...itemPath, 'data']),
    );
  },
  updateMany: (scope, relation, value, path) =>
    mapMany(value, path, async (item: Data, itemPath) => {
      const { where, rows } = await restrictBulk(scope, relation, item.where, 'update');
      if (rows) scope.checks.updatedRows(relation.target, rows);
      const node: DataNode = {
        kind: 'update',
        path: [...itemPath, 'data'],
        rows: linkedRows(scope, relation, where),
      };
      await relatedChange(scope, relation, 'update', node.rows!, node.path);
      return { where, data: await checkWriteData(scope, relation.target, item.data, node) };
    }),
  upsert: (scope, relation, value, path) => {
    if (resolvesUpserts(scope, relation)) return resolveUpsert(scope, relation, value, path);
    return mapMany(value, path, async (item: Data, itemPath) => {
      requireUnconditional(scope, relation, 'update', 'upsert');
      requireUnconditional(scope, relation, 'postUpdate', 'upsert');
      const checked: Data = {
        ...item,
        create: await createData(scope, relation, item.create, 'upsert', [...itemPath, 'create']),
        update: await checkWriteData(scope, relation.target, item.update, {
          kind: 'update',
          path: [...itemPath, 'update'],
        }),
      };
      if (item.where !== undefined) {
        checked.where = relation.field.isList
          ? await visibleWhere(scope, relation, item.where)
          : restrictMany(scope, relation, item.where, 'update');
      }
      return checked;
    });
  },
  delete: async (scope, relation, value, path) => {
    if (!relation.field.isList) {
      const where = restrictMany(scope, relation, value, 'delete');
      const rows = linkedRows(scope, relation, where === true ? undefined : where);
      if (relation.linked) await relatedChange(scope, relation, 'delete', rows, path);
      return (
        (await softDeleted(scope, relation, 'update', [{ where: where === true ? undefined : where, rows }])) ?? where
      );
    }
    const items = (await Promise.all(
      many(value).map(async (item, index) => {
        const itemPath = Array.isArray(value) ? [...path, index] : path;
        const where = await visibleWhere(scope, relation, item, 'delete');
        const rows = linkedRows(scope, relation, isPlainObject(where) ? expandUnique(relation.target, where) : where);
        await relatedChange(scope, relation, 'delete', rows, itemPath);
        return { where, rows };
      }),
    )) as SoftDeleteItem[];
    const wheres = items.map((item) => item.where);
    return (await softDeleted(scope, relation, 'update', items)) ?? (Array.isArray(value) ? wheres : wheres[0]);
  },
  deleteMany: async (scope, relation, value, path) => {
    const items = await Promise.all(
      many(value).map(async (item, index) => {
        const { where } = await restrictBulk(scope, relation, item, 'delete');
        const rows = linkedRows(scope, relation, where);
        await relatedChange(scope, relation, 'delete', rows, Array.isArray(value) ? [...path, index] : path);
        return { where, rows };
      }),
    );
    const wheres = items.map((item) => item.where);
    return (await softDeleted(scope, relation, 'updateMany', items)) ?? (Array.isArray(value) ? wheres : wheres[0]);
  },
};
