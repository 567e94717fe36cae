import { CrudApiError } from '../errors/crud-api.error.js';
import {
  changedIds,
  type ChangeSince,
  keyOf,
  mergeSorted,
  orderByOf,
  rowComparator,
  sortKeys,
  statesAt,
} from '../history/as-of.js';
import type { HistoryEntry } from '../history/history-model.js';
import type { HistorySettings } from '../history/history-writer.js';
import { rowKey, sameValue, typedRow } from '../history/stored-row.js';
import { idSelect } from '../metadata/id-select.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import { prismaOperation } from '../metadata/prisma-operations.js';
import { LISTED_ROWS, listedSlices } from '../prisma/bound-values.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { whereMatches } from '../prisma/row-filter.js';
import { SCALAR_CODECS } from '../scalars/scalar-codecs.js';
import { AS_OF_PARAMETER } from '../shared/history.constants.js';
import { isPlainObject } from '../shared/plain-object.js';
import type { RowVersion } from '../shared/row-version.js';
import { assertUnique, expandUnique, planRead } from './plan-read.js';
import { policyViolation } from './policy.error.js';
import type { PolicyWhere } from './policy.types.js';
import type { PolicySet } from './policy-set.js';
import { andWhere, anyOfIds, idWhere } from './rule-where.js';
import { transformWhere } from './transform-where.js';

type Args = Record<string, any>;
type Row = Record<string, any>;

/** What the history operations need of a policy client's scope. */
export interface HistoryScope {
  client: PrismaClientLike;
  set: PolicySet;
}

const delegate = (client: PrismaClientLike, model: ModelMeta) => client[toTypeName(model.name)];

/** The history settings of a model that records its history, or a 400 for one that does not. */
function historyOf(set: PolicySet, model: ModelMeta): HistorySettings {
  const history = set.history;
  if (!history?.models.has(model.name))
    throw new CrudApiError(
      'as-of-unsupported',
      `${model.name} does not record its history (rules.${model.name}.history)`,
    );
  return history.settings;
}

/** The oldest time the history still answers for, with a retention. */
const keptSince = (settings: HistorySettings): Date | undefined =>
  settings.retention === undefined ? undefined : new Date(Date.now() - settings.retention);

/** The time of an `asOf`, refused before the history's retention (its changes since may be gone). */
function asOfTime(value: unknown, settings: HistorySettings): Date {
  // Text follows the DateTime grammar both interfaces take (an offset required), from hand-written code too.
  const parsed = value instanceof Date ? value : SCALAR_CODECS.DateTime.fromJson(value);
  const at = parsed instanceof Date && !Number.isNaN(parsed.getTime()) ? parsed : undefined;
  if (!at)
    throw new CrudApiError(
      'invalid-argument',
      `${AS_OF_PARAMETER} must be a Date or ${SCALAR_CODECS.DateTime.expected}`,
    );
  const since = keptSince(settings);
  if (since && at < since)
    throw new CrudApiError(
      'as-of-before-retention',
      `${AS_OF_PARAMETER} must be at or after ${since.toISOString()}: the history keeps ${settings.retention} ms of changes`,
    );
  return at;
}

/** The readable row a unique selector names, with its history readable by the caller, or a 404 / 403. */
async function rowWithHistory(scope: HistoryScope, model: ModelMeta, unique: unknown): Promise<Row> {
  const { client, set } = scope;
  assertUnique(model, unique);
  const where = expandUnique(model, transformWhere(set, model, unique));
  const row = await delegate(client, model).findFirst({
    where: andWhere(where, set.rule(model.name, 'read')),
    select: idSelect(model),
  });
  if (!row) throw new CrudApiError('not-found', `No ${model.name} row matches the where given`);
  const rule = set.rule(model.name, 'history');
  const permitted =
    rule === true ||
    (!set.denies(model.name, 'history') &&
      (await delegate(client, model).findFirst({
        where: { AND: [idWhere(model, row), rule] },
        select: idSelect(model),
      })));
  if (!permitted) throw policyViolation(`The access policy does not let you read the history of this ${model.name}`);
  return row;
}

/** A stored row as the caller may read it: typed, without hidden fields. */
function visibleRow(model: ModelMeta, hidden: ReadonlySet<string>, stored: Row): Row {
  const row = typedRow(model, stored);
  for (const name of hidden) delete row[name];
  return row;
}

/**
 * The recorded versions of one row the caller may read now, newest first (`order: 'asc'` for oldest
 * first), filtered by time (`since`, `until`, inclusive) and actor, paged by `skip` and `take`.
 */
export async function versions(scope: HistoryScope, model: ModelMeta, args: Args): Promise<RowVersion[]> {
  const settings = historyOf(scope.set, model);
  const row = await rowWithHistory(scope, model, args.where);
  const kept = keptSince(settings);
  const since: Date | undefined = kept && (!args.since || args.since < kept) ? kept : args.since;
  const at = { ...(since ? { gte: since } : {}), ...(args.until ? { lte: args.until } : {}) };
  const entries: HistoryEntry[] = await delegate(scope.client, settings.model).findMany({
    where: {
      model: model.name,
      rowKey: rowKey(idWhere(model, row)),
      ...(since || args.until ? { at } : {}),
      ...(args.actor === undefined ? {} : { actor: args.actor }),
    },
    orderBy: { id: args.order === 'asc' ? 'asc' : 'desc' },
    ...(args.skip === undefined ? {} : { skip: args.skip }),
    ...(args.take === undefined ? {} : { take: args.take }),
  });
  const hidden = scope.set.hiddenFields(model.name);
  return entries.map((entry) => ({
    version: entry.id,
    operation: entry.operation,
    at: entry.at,
    actor: entry.actor,
    requestId: entry.requestId,
    changed: entry.changed.filter((name) => !hidden.has(name) && Object.hasOwn(model.fields, name)),
    data: entry.data && visibleRow(model, hidden, entry.data),
  }));
}

/**
 * The data that puts a row back to a version: the version's values of the fields a client may
 * write that differ from the row's now. Keys, `@updatedAt` and server-set columns stay as they are,
 * as do fields the caller may not read; a protected field that differs is refused by the update.
 */
function restoringData(scope: HistoryScope, model: ModelMeta, version: Row, current: Row): Row {
  const modes = scope.set.fieldModes(model.name);
  const hidden = scope.set.hiddenFields(model.name);
  const softDelete = scope.set.softDelete(model.name)?.field;
  const data: Row = {};
  for (const [name, value] of Object.entries(version)) {
    const field = model.fields[name]!;
    if (field.isId || field.isUpdatedAt || name === softDelete || hidden.has(name) || modes.unwritable.has(name))
      continue;
    if (!sameValue(value, current[name])) data[name] = value;
  }
  return data;
}

/** Puts one row back to a recorded version of it, by `update` (rules, policies, events and history of its own). */
export async function restoreVersion(
  scope: HistoryScope,
  model: ModelMeta,
  args: Args,
  update: (args: Args) => Promise<unknown>,
): Promise<unknown> {
  const settings = historyOf(scope.set, model);
  const row = await rowWithHistory(scope, model, args.where);
  const entry: HistoryEntry | null = await delegate(scope.client, settings.model).findFirst({
    where: { id: args.version, model: model.name, rowKey: rowKey(idWhere(model, row)) },
  });
  if (!entry) throw new CrudApiError('not-found', `${model.name} has no version ${args.version} of this row`);
  if (!entry.data)
    throw new CrudApiError(
      'invalid-argument',
      `Version ${args.version} is the row's delete: there is no row to put back`,
    );
  const current: Row = await delegate(scope.client, model).findFirstOrThrow({ where: idWhere(model, row) });
  const data = restoringData(scope, model, typedRow(model, entry.data), current);
  const { select, include, omit } = args;
  return update({ where: args.where, data, select, include, omit });
}

/** Refuses what a read as of a past time cannot answer: related rows (they have no past here), cursors, `distinct`. */
function refuseUnsupported(model: ModelMeta, args: Args): void {
  const refuse = (what: string): never => {
    throw new CrudApiError('as-of-unsupported', `A read ${AS_OF_PARAMETER} a past time cannot take ${what}`);
  };
  if (args.include !== undefined) refuse('include (related rows)');
  if (isPlainObject(args.select)) {
    for (const [name, value] of Object.entries(args.select)) {
      if (value && (name === '_count' || model.fields[name]?.kind === 'relation'))
        refuse(`a selection of related rows ("${name}")`);
    }
  }
  if (args.cursor !== undefined) refuse('a cursor');
  if (args.distinct !== undefined) refuse('distinct');
  if (typeof args.take === 'number' && args.take < 0) refuse('a negative take');
}

/** The row with only the selected fields the caller may read. */
function project(row: Row, args: Args, hidden: ReadonlySet<string>): Row {
  const select = isPlainObject(args.select) ? args.select : undefined;
  const omit = isPlainObject(args.omit) ? args.omit : undefined;
  const out: Row = {};
  for (const [name, value] of Object.entries(row)) {
    if (hidden.has(name) || (select ? select[name] !== true : omit?.[name] === true)) continue;
    out[name] = value;
  }
  return out;
}

/**
 * A read as the rows were at `args.asOf` (docs/history.md). The rows changed since are taken from
 * the history (each as it was before its first change after that time; those created since are
 * absent), judged against the read's `where` and today's policies in memory, and merged in order
 * with the rows of the table that did not change since, which the database filters, sorts and pages.
 */
export async function readAsOf(scope: HistoryScope, model: ModelMeta, operation: string, args: Args): Promise<unknown> {
  const { set, client } = scope;
  const settings = historyOf(set, model);
  const { [AS_OF_PARAMETER]: asOf, ...rest } = args;
  const at = asOfTime(asOf, settings);
  refuseUnsupported(model, rest);
  const one = prismaOperation(operation)?.rows === 'one';
  if (one) assertUnique(model, rest.where);
  const where = one ? expandUnique(model, rest.where) : rest.where;
  const plan = planRead(set, model, 'findMany', { where, orderBy: rest.orderBy, select: rest.select, omit: rest.omit });
  const changes: ChangeSince[] = await delegate(client, settings.model).findMany({
    where: { model: model.name, at: { gt: at } },
    orderBy: { id: 'asc' },
    select: { rowKey: true, before: true },
  });
  const provider = set.modelMeta.provider;
  const keys = sortKeys(model, rest.orderBy, provider);
  const compare = rowComparator(model, set.modelMeta, keys);
  const candidates = [...statesAt(model, changes).values()].filter(
    (row): row is Row => row !== null && matches(model, plan.args.where, row, provider),
  );
  const past = (await readableNow(scope, model, candidates)).sort(compare);
  const changed = await changedKeys(scope, settings, model, changes);
  const table = new UnchangedRows(scope, model, plan.args.where, changed);
  const skip: number = rest.skip ?? 0;
  const take: number | undefined = operation.startsWith('findFirst') || one ? 1 : rest.take;
  if (operation === 'count') {
    const total = (await table.count()) + past.length;
    const counted = Math.max(0, Math.min(total - skip, take ?? Infinity));
    return isPlainObject(rest.select) ? { _all: counted } : counted;
  }
  // Today's rows that come before the page even with every past row ahead of them: the database skips them.
  const before = Math.max(0, skip - past.length);
  const window = take === undefined ? undefined : skip - before + take;
  const { rows: current, skipped } = await table.from(orderByOf(model, keys), before, window);
  const start = skip - skipped;
  const hidden = set.hiddenFields(model.name);
  const rows = mergeSorted(current, past, compare)
    .slice(start, take === undefined ? undefined : start + take)
    .map((row) => project(row, rest, hidden));
  if (operation === 'findMany') return rows;
  if (rows[0] || !operation.endsWith('OrThrow')) return rows[0] ?? null;
  throw new CrudApiError('not-found', `No ${model.name} row matched as of ${at.toISOString()}`);
}

/** The primary keys of the rows changed since (see `changedIds`), those of rows only created since read from their creation. */
async function changedKeys(
  scope: HistoryScope,
  settings: HistorySettings,
  model: ModelMeta,
  changes: readonly ChangeSince[],
): Promise<Row[]> {
  const { ids, unresolved } = changedIds(model, changes);
  for (const slice of listedSlices(unresolved)) {
    const created: { data: Row }[] = await delegate(scope.client, settings.model).findMany({
      where: { model: model.name, rowKey: { in: slice }, operation: 'create' },
      select: { data: true },
    });
    ids.push(...created.map((entry) => keyOf(model, entry.data)));
  }
  return ids;
}

/**
 * The rows of today that did not change since, among those matching `where`: the changed ones
 * listed out of the statement when they are few, else read past and dropped (one statement can
 * list only so many keys).
 */
class UnchangedRows {
  private readonly keys: Set<string>;

  constructor(
    private readonly scope: HistoryScope,
    private readonly model: ModelMeta,
    private readonly where: PolicyWhere | undefined,
    private readonly changed: Row[],
  ) {
    this.keys = new Set(changed.map((id) => rowKey(id)));
  }

  private get listed(): boolean {
    return this.changed.length <= LISTED_ROWS;
  }

  private get tableWhere(): unknown {
    if (this.changed.length === 0) return this.where;
    return andWhere(this.where, { NOT: anyOfIds(this.model, this.changed) });
  }

  async count(): Promise<number> {
    const rows = delegate(this.scope.client, this.model);
    if (this.listed) return rows.count({ where: this.tableWhere });
    let count: number = await rows.count({ where: this.where });
    for (const slice of listedSlices(this.changed))
      count -= await rows.count({ where: andWhere(this.where, anyOfIds(this.model, slice)) });
    return count;
  }

  /**
   * `take` rows in `orderBy`'s order from the `skip`th (all from it without `take`), and how many
   * before them were skipped: `skip`, or none where the changed rows are read past.
   */
  async from(orderBy: Row[], skip: number, take: number | undefined): Promise<{ rows: Row[]; skipped: number }> {
    const rows = delegate(this.scope.client, this.model);
    if (this.listed) {
      const page = { skip, ...(take === undefined ? {} : { take }) };
      return { rows: await rows.findMany({ where: this.tableWhere, orderBy, ...page }), skipped: skip };
    }
    const read: Row[] = await rows.findMany({
      where: this.where,
      orderBy,
      ...(take === undefined ? {} : { take: skip + take + this.changed.length }),
    });
    return { rows: read.filter((row) => !this.keys.has(rowKey(idWhere(this.model, row)))), skipped: 0 };
  }
}

/**
 * The rows of the past the caller may still read: those deleted since, and those whose row today
 * the read rule permits (a row the caller may not read now shows nothing of its past either). The
 * soft-delete condition is left out: a row deleted since was live then.
 */
async function readableNow(scope: HistoryScope, model: ModelMeta, rows: Row[]): Promise<Row[]> {
  const rule = scope.set.policyRule(model.name, 'read');
  if (rows.length === 0 || rule === true) return rows;
  const key = (row: Row) => rowKey(idWhere(model, row));
  const existing: Row[] = [];
  const readable: Row[] = [];
  // One after the other: the client may be an interactive transaction's.
  for (const slice of listedSlices(rows)) {
    const ids = anyOfIds(model, slice);
    existing.push(...(await delegate(scope.client, model).findMany({ where: ids, select: idSelect(model) })));
    readable.push(
      ...(await delegate(scope.client, model).findMany({ where: { AND: [ids, rule] }, select: idSelect(model) })),
    );
  }
  const exists = new Set(existing.map(key));
  const permitted = new Set(readable.map(key));
  return rows.filter((row) => !exists.has(key(row)) || permitted.has(key(row)));
}

/** Whether a row of the past matches the read's `where`; a 400 when that cannot be told from the row alone. */
function matches(model: ModelMeta, where: unknown, row: Row, provider: string): boolean {
  const matched = where === undefined ? true : whereMatches(model, where, row, provider);
  if (matched === undefined)
    throw new CrudApiError(
      'as-of-unsupported',
      `A read ${AS_OF_PARAMETER} a past time filters rows changed since then in memory, which cannot decide this filter or access rule (relation filters, JSON, Bytes or Decimal values, case-insensitive matching, and string comparisons on ${provider} other than equality)`,
    );
  return matched;
}
