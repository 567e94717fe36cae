import { CrudApiError } from '../errors/crud-api.error.js';
import { historyRows, purgeExpired, recordHistory } from '../history/history-writer.js';
import { idSelect } from '../metadata/id-select.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import {
  type HistoryOperationName,
  operationNames,
  type PrismaOperationName,
  type ReadOperationName,
} from '../metadata/prisma-operations.js';
import { LazyTransaction } from '../prisma/lazy-transaction.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { RETURNING } from '../prisma/provider-capabilities.js';
import {
  applyDeleteRules,
  modelRules,
  type RuleRun,
  throwIssues,
  validateComputed,
} from '../rules/apply-write-rules.js';
import { deliverChanges } from '../rules/change-delivery.js';
import { throwInvalidValues } from '../rules/invalid-value.js';
import type { ChangeListener } from '../rules/rules.types.js';
import { AS_OF_PARAMETER } from '../shared/history.constants.js';
import { ChangeCapture, type RowHolder } from './change-capture.js';
import { checkWriteData, type DataNode } from './check-write-data.js';
import { checkClientIds } from './client-ids.js';
import { finishRead } from './finish-read.js';
import { bulkWriteWhere } from './foreign-key-guards.js';
import { readAsOf, restoreVersion, versions } from './history-operations.js';
import { assertUnique, expandUnique, planRead } from './plan-read.js';
import { isResultNotReadable, policyViolation, resultNotReadable } from './policy.error.js';
import type { CommitHook, PolicyAction, TransactionBounds } from './policy.types.js';
import type { PolicySet } from './policy-set.js';
import { andUniqueWhere, andWhere, anyOfIds, idWhere, noRows } from './rule-where.js';
import { markDeleted, restoreDeleted } from './soft-delete.js';
import { transformWhere } from './transform-where.js';
import { WriteChecks } from './write-checks.js';

/** Where an operation runs: the client (a transaction client inside a transaction) and the caller's policies. */
export interface OperationScope {
  client: PrismaClientLike;
  set: PolicySet;
  inTransaction: boolean;
  /** Listeners of committed changes, when the application has any. */
  listeners?: readonly ChangeListener[];
  /** Work on a transaction's changes in it, just before it commits (the outbox writes its rows). */
  beforeCommit?: CommitHook;
  /** The changes of the transaction the scope runs in (with listeners or `beforeCommit` only). */
  capture?: ChangeCapture;
  /** Prisma's options (`maxWait`, `timeout`) for the transactions the scope opens. */
  transactionOptions?: TransactionBounds;
  /** The request the client serves (its `X-Request-Id`), recorded with its changes' history. */
  requestId?: string;
  /** False for an operation that writes no model with history (its changes need not be read for it). */
  recordsHistory?: boolean;
}

type Args = Record<string, any>;
type Row = Record<string, any>;
export type Operation = (scope: OperationScope, model: ModelMeta, args: Args) => Promise<unknown>;

const delegate = (client: PrismaClientLike, model: ModelMeta) => client[toTypeName(model.name)];

/** Whether the changes of the scope's writes are read: something listens to them or keeps them. */
const captures = (scope: Pick<OperationScope, 'listeners' | 'beforeCommit' | 'set' | 'recordsHistory'>): boolean =>
  scope.listeners !== undefined ||
  scope.beforeCommit !== undefined ||
  (scope.recordsHistory !== false && scope.set.history !== undefined);

/** Whether no access policy judges the rows an operation touches and no listener is told of them. */
export const noPoliciesOrCapture = (scope: OperationScope): boolean => !scope.set.hasPolicies && !captures(scope);

/**
 * Whether an operation enforces write rules at most: no policies nor captured changes, and reaching
 * no soft-deleted model (whose live rows only it may touch), so nothing has to be read after the write.
 */
const rulesAlone = (scope: OperationScope, model: ModelMeta, args: Args): boolean =>
  noPoliciesOrCapture(scope) && !scope.set.reachesSoftDeleted(model, args);

/**
 * An interactive transaction in which an unreadable result does not undo the write: the
 * RESULT_NOT_READABLE error leaves the callback, the transaction commits, then the error is thrown.
 * With change listeners, a `beforeCommit` hook or models with history, the transaction's changes are
 * read before the commit, recorded in the history and handed to the hook in the transaction, and
 * delivered to the listeners after the commit.
 */
export async function runTransaction<T>(
  client: PrismaClientLike,
  fn: (tx: PrismaClientLike, capture?: ChangeCapture) => Promise<T>,
  options?: unknown,
  scope?: Pick<OperationScope, 'listeners' | 'set' | 'beforeCommit' | 'requestId' | 'recordsHistory'>,
): Promise<T> {
  let deferred: unknown;
  const capture = scope && captures(scope) ? new ChangeCapture(scope.set) : undefined;
  const result = await client.$transaction(async (tx: PrismaClientLike) => {
    let value: T;
    try {
      value = await fn(tx, capture);
    } catch (error) {
      if (!isResultNotReadable(error)) throw error;
      deferred = error;
      value = undefined as T;
    }
    if (capture) {
      await capture.settle(tx);
      const history = scope!.set.history;
      if (history)
        await recordHistory(
          tx,
          history.settings,
          historyRows(history.settings, history.models, capture.events, scope!.requestId),
        );
      await scope!.beforeCommit?.(tx, capture.events);
    }
    return value;
  }, options);
  if (capture && scope!.listeners) deliverChanges(scope!.listeners, capture.events);
  const history = capture && scope!.set.history;
  if (history) purgeExpired(client, history.settings);
  if (deferred) throw deferred;
  return result;
}

/**
 * Runs a write in the caller's transaction, or in a new one. With change listeners, the write's
 * changes are read at its end (also when its result turns out unreadable), before the next write.
 */
async function inTransaction<T>(
  scope: OperationScope,
  fn: (tx: PrismaClientLike, capture?: ChangeCapture) => Promise<T>,
): Promise<T> {
  if (!scope.inTransaction) return runTransaction(scope.client, fn, scope.transactionOptions, scope);
  try {
    const value = await fn(scope.client, scope.capture);
    await scope.capture?.settle(scope.client);
    return value;
  } catch (error) {
    if (isResultNotReadable(error)) await scope.capture?.settle(scope.client);
    throw error;
  }
}

/** Primary-key selector of a row as a `WhereUniqueInput` (compound keys by their Prisma name). */
function uniqueIdWhere(model: ModelMeta, row: Row): Row {
  if (model.idFields.length === 1) return idWhere(model, row);
  return { [model.uniqueConstraints[0]!.name]: idWhere(model, row) };
}

async function read(scope: OperationScope, model: ModelMeta, operation: string, args: Args): Promise<unknown> {
  if (args[AS_OF_PARAMETER] !== undefined) return readAsOf(scope, model, operation, args);
  const plan = planRead(scope.set, model, operation, args);
  if (plan.cursor) {
    const anchor = await delegate(scope.client, model).findFirst({
      where: andWhere(plan.cursor, scope.set.rule(model.name, 'read')),
      select: idSelect(model),
    });
    // A cursor on a row the caller cannot read behaves like a cursor on no row.
    if (!anchor) plan.args = { ...plan.args, where: noRows(model), cursor: undefined };
  }
  const result = await delegate(scope.client, model)[operation](plan.args);
  return plan.shape ? finishRead(scope.client, scope.set, plan.shape, result) : result;
}

/** The written rows as the caller may read them, in the order given; throws RESULT_NOT_READABLE otherwise. */
async function readBack(
  scope: OperationScope,
  tx: PrismaClientLike,
  model: ModelMeta,
  rows: Row[],
  args: Args,
  whole = false,
): Promise<Row[]> {
  if (rows.length === 0) return [];
  // Whole rows every caller may read, answered whole: what the read would answer.
  if (whole && answersWholeRows(scope.set, model, args) && scope.set.rule(model.name, 'read') === true) return rows;
  const selection = { select: args.select, include: args.include, omit: args.omit };
  const found = (await read({ ...scope, client: tx }, model, 'findMany', {
    where: anyOfIds(model, rows),
    ...selection,
  })) as Row[];
  if (found.length < rows.length) throw resultNotReadable(model.name);
  const key = (row: Row) => model.idFields.map((field) => String(row[field])).join('\u0000');
  const byKey = new Map(found.map((row) => [key(row), row]));
  // Keep the written order when the selection kept the key; otherwise the database's order.
  return rows.every((row) => byKey.has(key(row))) ? rows.map((row) => byKey.get(key(row))!) : found;
}

/**
 * The readable row a unique selector names, after checking `action`'s rule on it: whole (every
 * column, as stored) when `whole`, else its key.
 */
async function locate(
  scope: OperationScope,
  tx: PrismaClientLike,
  model: ModelMeta,
  unique: Args,
  action: PolicyAction,
  whole = false,
): Promise<Row | undefined> {
  assertUnique(model, unique);
  const where = transformWhere(scope.set, model, unique);
  const row = await delegate(tx, model).findFirst({
    where: andWhere(expandUnique(model, where), scope.set.rule(model.name, 'read')),
    ...selectKeys(model, !whole),
  });
  if (!row) return undefined;
  const rule = scope.set.rule(model.name, action);
  const permitted =
    rule === true ||
    (!scope.set.denies(model.name, action) &&
      (await delegate(tx, model).findFirst({ where: { AND: [idWhere(model, row), rule] }, select: idSelect(model) })));
  if (!permitted) throw policyViolation(`The access policy does not let you ${action} this ${model.name}`);
  return row;
}

/** Lets Prisma answer "record not found" for a row the caller cannot see, exactly as for a missing one. */
function notFound(
  tx: PrismaClientLike,
  model: ModelMeta,
  operation: 'update' | 'delete',
  unique: Args,
): Promise<never> {
  return delegate(tx, model)[operation]({
    where: andUniqueWhere(unique, noRows(model)),
    ...(operation === 'update' ? { data: {} } : {}),
  });
}

/**
 * Runs one write with its data checked: the foreign keys it names are verified before it, and the
 * rows it changed (those nested writes recorded, plus `changed` of the result) against the
 * post-update rule after it.
 */
async function checkedWrite<T>(
  scope: OperationScope,
  tx: PrismaClientLike,
  model: ModelMeta,
  data: unknown,
  run: (data: any) => Promise<T>,
  options: {
    node: Omit<DataNode, 'path'>;
    /** Where the data stands in the arguments (`['update']` for an upsert's update). */
    path?: (string | number)[];
    capture?: ChangeCapture;
    changed?: (result: T) => Row[];
  },
): Promise<T> {
  const path = options.path ?? ['data'];
  const checks = new WriteChecks();
  const write = { tx, set: scope.set, checks, run: ruleRun(scope, tx), capture: options.capture };
  const checked = Array.isArray(data)
    ? await Promise.all(
        data.map((item: unknown, index) =>
          checkWriteData(write, model, item, { ...options.node, path: [...path, index] }),
        ),
      )
    : await checkWriteData(write, model, data, { ...options.node, path });
  if (write.run) throwIssues(write.run);
  await checks.verifyReferences(tx, scope.set);
  const result = await run(checked);
  if (write.run?.computed.length) {
    await validateComputed(write.run, (check) =>
      delegate(tx, check.model).findMany({ where: anyOfIds(check.model, check.rows) }),
    );
  }
  if (options.changed) checks.updatedRows(model, options.changed(result));
  await checks.verifyUpdated(tx, scope.set);
  return result;
}

/** The application's rules for one write in `tx`, or undefined when it has none. */
function ruleRun(scope: OperationScope, tx: PrismaClientLike): RuleRun | undefined {
  const { writeRules: rules, context } = scope.set;
  return rules && { rules, context, tx, issues: [], computed: [], model: (name) => scope.set.model(name) };
}

/** Every column of the rows matching `where`, as hooks and change listeners see them. */
const storedRows = (tx: PrismaClientLike, model: ModelMeta, where: unknown): Promise<Row[]> =>
  delegate(tx, model).findMany({ where, orderBy: model.idFields.map((field) => ({ [field]: 'asc' })) });

/** Selects a written row's key alone, or (`false`: the change capture takes the write's answer) every column. */
const selectKeys = (model: ModelMeta, keysOnly: boolean): { select?: Row } =>
  keysOnly ? { select: idSelect(model) } : {};

/** Whether a write answers whole rows with nothing hidden: Prisma's own answer, with no selection to plan. */
const answersWholeRows = (set: PolicySet, model: ModelMeta, args: Args): boolean =>
  args.select === undefined &&
  args.include === undefined &&
  args.omit === undefined &&
  set.hiddenFields(model.name).size === 0;

/** A lazy value computed at most once (rows both a hook and the change listeners need). */
function once<T>(compute: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= compute());
}

async function checkCreated(scope: OperationScope, tx: PrismaClientLike, model: ModelMeta, rows: Row[]): Promise<void> {
  const rule = scope.set.rule(model.name, 'create');
  if (rule === true || rows.length === 0) return;
  const permitted = await delegate(tx, model).count({ where: { AND: [anyOfIds(model, rows), rule] } });
  if (permitted < rows.length) throw policyViolation(`The access policy does not let you create this ${model.name}`);
}

function assertMayCreate(scope: OperationScope, model: ModelMeta): void {
  if (scope.set.denies(model.name, 'create'))
    throw policyViolation(`The access policy does not let you create ${model.name} rows`);
}

async function create(scope: OperationScope, model: ModelMeta, args: Args, path = ['data']): Promise<unknown> {
  assertMayCreate(scope, model);
  checkClientIds(scope.set, model, args.data);
  if (rulesAlone(scope, model, args)) return createAlone(scope, model, args, path);
  return inTransaction(scope, async (tx, capture) => {
    const self: RowHolder = {};
    capture?.created(model, self);
    const row: Row = await checkedWrite(
      scope,
      tx,
      model,
      args.data,
      (data) => delegate(tx, model).create({ data, ...selectKeys(model, !capture) }),
      { node: { kind: 'create', self }, path, capture },
    );
    self.rows = [row];
    self.whole = capture !== undefined;
    await checkCreated(scope, tx, model, [row]);
    return (await readBack(scope, tx, model, [row], args, self.whole))[0];
  });
}

/** The selection of a write's answer, as the caller may read it; none for a whole row with nothing hidden. */
type Selection = { select?: unknown; include?: unknown; omit?: unknown } | undefined;

/**
 * Runs a write under write rules alone (no access policy to check the written row against, no
 * listener to tell): nothing reads after the write, so it writes and answers the row as the caller
 * selected it in one statement, Prisma's own. Outside a transaction, one begins only when something
 * (a hook, the rows a hook sees) first uses `tx`, and the write then joins it.
 */
async function writeAlone(
  scope: OperationScope,
  model: ModelMeta,
  args: Args,
  write: (tx: PrismaClientLike, current: () => PrismaClientLike, selection: Selection) => Promise<Row>,
): Promise<unknown> {
  const { select, include, omit } = args;
  const plan = answersWholeRows(scope.set, model, args)
    ? undefined
    : planRead(scope.set, model, 'findMany', { select, include, omit });
  const selection = plan && { select: plan.args.select, include: plan.args.include, omit: plan.args.omit };
  const row = scope.inTransaction
    ? await write(scope.client, () => scope.client, selection)
    : await new LazyTransaction(scope.client, scope.transactionOptions).run((lazy) =>
        write(lazy.client, () => lazy.current(), selection),
      );
  return plan?.shape ? finishRead(scope.client, scope.set, plan.shape, row) : row;
}

function createAlone(scope: OperationScope, model: ModelMeta, args: Args, path: string[]): Promise<unknown> {
  return writeAlone(scope, model, args, (tx, current, selection) =>
    checkedWrite(scope, tx, model, args.data, (data) => delegate(current(), model).create({ ...selection, data }), {
      node: { kind: 'create', self: {} },
      path,
    }),
  );
}

/**
 * An update under write rules alone, by the caller's unique selector. The rows a hook sees, and a
 * column the update computes (validated once written), are read in the transaction they begin; with
 * a hook, a missing row fails before it runs, as Prisma's own "record not found".
 */
function updateAlone(scope: OperationScope, model: ModelMeta, args: Args, path: string[]): Promise<unknown> {
  assertUnique(model, args.where);
  const where = transformWhere(scope.set, model, args.where);
  const target = expandUnique(model, where);
  const hooked = modelRules(scope.set.writeRules, model.name)?.beforeUpdate !== undefined;
  return writeAlone(scope, model, args, async (tx, current, selection) => {
    const rows = once(() => storedRows(tx, model, target));
    if (hooked && (await rows()).length === 0) return notFound(current(), model, 'update', args.where);
    return checkedWrite(
      scope,
      tx,
      model,
      args.data,
      (data) => delegate(current(), model).update({ ...selection, where, data }),
      { node: { kind: 'update', parentRow: target, rows, self: {} }, path },
    );
  });
}

const isUniqueViolation = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'P2002';

/** createMany one row at a time, for databases without RETURNING: the only way to learn the created keys. */
async function createOneByOne(
  tx: PrismaClientLike,
  model: ModelMeta,
  items: unknown[],
  skipDuplicates: boolean,
  keysOnly: boolean,
) {
  const rows: Row[] = [];
  for (const data of items) {
    try {
      rows.push(await delegate(tx, model).create({ data, ...selectKeys(model, keysOnly) }));
    } catch (error) {
      // MySQL keeps the transaction usable after a failed statement, as skipDuplicates needs.
      if (!skipDuplicates || !isUniqueViolation(error)) throw error;
    }
  }
  return rows;
}

async function createMany(scope: OperationScope, model: ModelMeta, args: Args, returning: boolean): Promise<unknown> {
  assertMayCreate(scope, model);
  checkClientIds(scope.set, model, args.data);
  const conditional = scope.set.rule(model.name, 'create') !== true;
  return inTransaction(scope, async (tx, capture) => {
    const items = Array.isArray(args.data) ? args.data : [args.data];
    const node = { node: { kind: 'create' } as const, capture };
    if (!conditional && !returning && !capture)
      return checkedWrite(scope, tx, model, items, (data) => delegate(tx, model).createMany({ ...args, data }), node);
    // The created rows are checked and reported by id, which only createManyAndReturn gives at once.
    const provider = scope.set.modelMeta.provider;
    const returns = RETURNING.supports(provider) && typeof delegate(tx, model).createManyAndReturn === 'function';
    if (!returns && conditional) {
      throw policyViolation(
        `createMany on ${model.name} cannot be checked against its conditional create rule on ${provider}, which has no createManyAndReturn (no RETURNING clause); create the rows one at a time`,
      );
    }
    const { select: _select, include: _include, omit: _omit, ...rest } = args;
    const rows: Row[] = await checkedWrite(
      scope,
      tx,
      model,
      items,
      (data) =>
        returns
          ? delegate(tx, model).createManyAndReturn({ ...rest, data, ...selectKeys(model, !capture) })
          : createOneByOne(tx, model, data, args.skipDuplicates === true, !capture),
      node,
    );
    capture?.created(model, { rows, whole: true });
    await checkCreated(scope, tx, model, rows);
    return returning ? readBack(scope, tx, model, rows, args, capture !== undefined) : { count: rows.length };
  });
}

async function update(scope: OperationScope, model: ModelMeta, args: Args, path = ['data']): Promise<unknown> {
  if (rulesAlone(scope, model, args)) return updateAlone(scope, model, args, path);
  return inTransaction(scope, async (tx, capture) => {
    const row = await locate(scope, tx, model, args.where, 'update', capture !== undefined);
    if (!row) return notFound(tx, model, 'update', args.where);
    const stored = capture ? async () => [row] : once(() => storedRows(tx, model, idWhere(model, row)));
    const after = capture?.changing(model, 'update', [row]);
    const updated: Row = await checkedWrite(
      scope,
      tx,
      model,
      args.data,
      (data) => delegate(tx, model).update({ where: uniqueIdWhere(model, row), data, ...selectKeys(model, !capture) }),
      {
        node: { kind: 'update', parentRow: idWhere(model, row), rows: stored, self: { rows: [row] } },
        path,
        capture,
        changed: (result) => [result],
      },
    );
    if (after) Object.assign(after, { rows: [updated], whole: true });
    return (await readBack(scope, tx, model, [updated], args, after !== undefined))[0];
  });
}

async function upsert(scope: OperationScope, model: ModelMeta, args: Args): Promise<unknown> {
  const { where, create: createData, update: updateData, ...selection } = args;
  assertUnique(model, where);
  return inTransaction(scope, async (tx, capture) => {
    const txScope = { ...scope, client: tx, inTransaction: true, capture };
    const existing = await delegate(tx, model).findFirst({
      where: andWhere(expandUnique(model, transformWhere(scope.set, model, where)), scope.set.rule(model.name, 'read')),
      select: idSelect(model),
    });
    // The branch that does not run is never written, but a value of the wrong type in it is still refused.
    if (existing) throwInvalidValues(createData, ['create']);
    else throwInvalidValues(updateData, ['update']);
    return existing
      ? update(txScope, model, { ...selection, where: uniqueIdWhere(model, existing), data: updateData }, ['update'])
      : create(txScope, model, { ...selection, data: createData }, ['create']);
  });
}

async function remove(
  scope: OperationScope,
  model: ModelMeta,
  args: Args,
  action: 'delete' | 'hardDelete',
): Promise<unknown> {
  return inTransaction(scope, async (tx, capture) => {
    const row = await locate(scope, tx, model, args.where, action, capture !== undefined);
    if (!row) return notFound(tx, model, 'delete', args.where);
    const stored = capture ? async () => [row] : once(() => storedRows(tx, model, idWhere(model, row)));
    const run = ruleRun(scope, tx);
    if (run) await applyDeleteRules(run, model, [], stored);
    capture?.changing(model, 'delete', [row]);
    const [deleted] = await readBack(scope, tx, model, [row], args, capture !== undefined);
    if (action === 'delete' && scope.set.softDelete(model.name))
      await markDeleted({ tx, set: scope.set, run, capture }, model, [row], new Date());
    else {
      await capture?.deleting(tx, model, await stored());
      await delegate(tx, model).delete({ where: uniqueIdWhere(model, row), select: idSelect(model) });
    }
    return deleted;
  });
}

/**
 * Brings back a soft-deleted row the `restore` rule permits, with the dependants deleted with it. A
 * row that is not deleted, that the caller may not restore, or that its `read` rule does not cover
 * (the row as restored would be unreadable) is not found: as for every write, an unreadable row
 * answers exactly as a missing one, and nothing is written.
 */
async function restore(scope: OperationScope, model: ModelMeta, args: Args): Promise<unknown> {
  assertUnique(model, args.where);
  const { field } = scope.set.softDelete(model.name)!;
  return inTransaction(scope, async (tx, capture) => {
    const unique = expandUnique(model, transformWhere(scope.set, model, args.where));
    const deleted = { AND: [unique, { [field]: { not: null } }] };
    const row: Row | null = await delegate(tx, model).findFirst({
      where: andWhere(
        andWhere(deleted, scope.set.rule(model.name, 'restore')),
        scope.set.policyRule(model.name, 'read'),
      ),
    });
    if (!row) return notFound(tx, model, 'update', args.where);
    capture?.changing(model, 'update', [row]);
    try {
      await restoreDeleted({ tx, set: scope.set, capture }, model, [row], row[field]);
    } catch (error) {
      // Not the client's malformed input (as a create's duplicate is): the row's own value was taken meanwhile.
      if (isUniqueViolation(error))
        throw new CrudApiError(
          'conflict',
          `A live ${model.name} row has a unique value of this one: it cannot be restored`,
        );
      throw error;
    }
    return (await readBack(scope, tx, model, [row], args))[0];
  });
}

/** `where` of a bulk write: only rows the caller may read and `action` on. */
function bulkWhere(scope: OperationScope, model: ModelMeta, where: unknown, action: PolicyAction): unknown {
  const own = transformWhere(scope.set, model, where);
  return andWhere(andWhere(own, scope.set.rule(model.name, 'read')), scope.set.rule(model.name, action)) ?? {};
}

async function updateMany(scope: OperationScope, model: ModelMeta, args: Args, returning: boolean): Promise<unknown> {
  return inTransaction(scope, async (tx, capture) => {
    let where = await bulkWriteWhere(tx, scope.set, model, bulkWhere(scope, model, args.where, 'update'));
    // Rows checked after the change, or reported to the listeners, are named before it: the change
    // may move them out of `where`.
    const tracked = scope.set.rule(model.name, 'postUpdate') !== true || capture !== undefined;
    const before: Row[] = tracked ? await storedRows(tx, model, where) : [];
    if (tracked) where = { AND: [where, anyOfIds(model, before)] };
    const after = capture?.changing(model, 'update', before);
    const node = {
      kind: 'update',
      rows: once(() => (tracked ? Promise.resolve(before) : storedRows(tx, model, where))),
    } as const;
    // The change capture takes the updated rows from the update's answer where the database can give it.
    const returns =
      returning ||
      (capture !== undefined &&
        RETURNING.supports(scope.set.modelMeta.provider) &&
        typeof delegate(tx, model).updateManyAndReturn === 'function');
    if (!returns) {
      return checkedWrite(
        scope,
        tx,
        model,
        args.data,
        (data) => delegate(tx, model).updateMany({ ...args, where, data }),
        {
          node,
          capture,
          changed: () => before,
        },
      );
    }
    const { select: _select, include: _include, omit: _omit, ...rest } = args;
    const rows: Row[] = await checkedWrite(
      scope,
      tx,
      model,
      args.data,
      (data) => delegate(tx, model).updateManyAndReturn({ ...rest, where, data, ...selectKeys(model, !capture) }),
      { node, capture, changed: (result) => result },
    );
    if (after) Object.assign(after, { rows, whole: true });
    return returning ? readBack(scope, tx, model, rows, args, after !== undefined) : { count: rows.length };
  });
}

async function deleteMany(scope: OperationScope, model: ModelMeta, args: Args): Promise<unknown> {
  return inTransaction(scope, async (tx, capture) => {
    const where = await bulkWriteWhere(tx, scope.set, model, bulkWhere(scope, model, args.where, 'delete'));
    const softDelete = scope.set.softDelete(model.name);
    const hooked = modelRules(scope.set.writeRules, model.name)?.beforeDelete !== undefined;
    if (!hooked && !capture && !softDelete?.cascade?.length) {
      return softDelete
        ? delegate(tx, model).updateMany({ where, data: { [softDelete.field]: new Date() }, limit: args.limit })
        : delegate(tx, model).deleteMany({ ...args, where });
    }
    // The hook and the listeners see the rows the delete removes, and the delete removes exactly those.
    const rows = await storedRows(tx, model, where);
    const run = ruleRun(scope, tx);
    if (run) await applyDeleteRules(run, model, [], async () => rows);
    capture?.changing(model, 'delete', rows);
    if (softDelete) {
      const marked = args.limit === undefined ? rows : rows.slice(0, args.limit);
      await markDeleted({ tx, set: scope.set, run, capture }, model, marked, new Date());
      return { count: marked.length };
    }
    await capture?.deleting(tx, model, rows);
    return delegate(tx, model).deleteMany({ ...args, where: { AND: [where, anyOfIds(model, rows)] } });
  });
}

/** The policy client's read operation of that name: it reads only the rows the read policy allows. */
const readOperation =
  (operation: string): Operation =>
  (scope, model, args) =>
    read(scope, model, operation, args ?? {});

/** Every read of Prisma's in the operation table, planned and finished by the same `read`. */
const READS = Object.fromEntries(
  [...operationNames((operation) => operation.access === 'read' && !operation.historyOnly)].map((name) => [
    name,
    readOperation(name),
  ]),
) as Record<Exclude<ReadOperationName, HistoryOperationName>, Operation>;

/**
 * Every model operation a policy client offers, by the operation table (soft-deleted models' own
 * among them); anything else on a delegate is not reachable.
 */
export const POLICY_OPERATIONS: Readonly<Record<PrismaOperationName, Operation>> = {
  ...READS,
  create: (scope, model, args) => create(scope, model, args ?? {}),
  createMany: (scope, model, args) => createMany(scope, model, args ?? {}, false),
  createManyAndReturn: (scope, model, args) => createMany(scope, model, args ?? {}, true),
  update: (scope, model, args) => update(scope, model, args ?? {}),
  updateMany: (scope, model, args) => updateMany(scope, model, args ?? {}, false),
  updateManyAndReturn: (scope, model, args) => updateMany(scope, model, args ?? {}, true),
  upsert: (scope, model, args) => upsert(scope, model, args ?? {}),
  delete: (scope, model, args) => remove(scope, model, args ?? {}, 'delete'),
  deleteMany: (scope, model, args) => deleteMany(scope, model, args ?? {}),
  restore: (scope, model, args) => restore(scope, model, args ?? {}),
  hardDelete: (scope, model, args) => remove(scope, model, args ?? {}, 'hardDelete'),
  history: (scope, model, args) => versions(scope, model, args ?? {}),
  restoreVersion: (scope, model, args) =>
    restoreVersion(scope, model, args ?? {}, (updateArgs) => update(scope, model, updateArgs)),
};
