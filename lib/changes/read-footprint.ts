import type { DataModelMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { isPlainObject } from '../policies/rule-where.js';
import { whereMatches } from '../prisma/row-filter.js';
import { modelsReached } from './read-models.js';

type Row = Readonly<Record<string, unknown>>;

/** A committed change of one model: its row before and after, when they were captured. */
export interface RowChange {
  model: string;
  /** Absent for a create; with `after`, absent when the rows were not captured. */
  before?: Row;
  /** Absent for a delete. */
  after?: Row;
}

/** The rows one query's answer depends on: those its effective `where` matches. */
export interface RowCondition {
  model: ModelMeta;
  where: unknown;
}

/**
 * The queries whose answers depend only on the rows their `where` matches, which a changed row
 * can be checked against: a row that matches neither before nor after the change is in neither
 * answer, and moves no page of them (`skip`, `take` and `orderBy` count matching rows only).
 */
const ROW_READS = new Set(['findMany', 'findFirst', 'findFirstOrThrow', 'findUnique', 'findUniqueOrThrow', 'count']);

/** The arguments those queries may carry (`select`, `include` and `orderBy` further checked): no other. */
const ROW_READ_ARGS = new Set(['where', 'select', 'include', 'omit', 'orderBy', 'cursor', 'take', 'skip', 'distinct']);

/** Whether `key` names a scalar field of the model (or `_all`, what a count may select). */
const isScalar = (model: ModelMeta, key: string): boolean =>
  key === '_all' || (Object.hasOwn(model.fields, key) && model.fields[key]!.kind !== 'relation');

/** A `select`, `include` or `omit` naming this model's scalar fields only (or leaving relations out). */
const scalarSelection = (model: ModelMeta, selection: unknown): boolean =>
  selection === undefined ||
  (isPlainObject(selection) &&
    Object.entries(selection).every(([key, value]) =>
      isScalar(model, key) ? typeof value === 'boolean' : value === false || value === undefined,
    ));

/** An `orderBy` on this model's scalar fields only. */
const scalarOrder = (model: ModelMeta, orderBy: unknown): boolean =>
  [orderBy ?? []]
    .flat()
    .every(
      (entry) => isPlainObject(entry) && Object.keys(entry).every((key) => key !== '_all' && isScalar(model, key)),
    );

/**
 * The row conditions a query's answer depends on, or undefined when something besides the rows of
 * its own model can change it (relations, aggregates, groups, an operation not known here).
 */
export function rowConditions(model: ModelMeta, operation: string, args: unknown): RowCondition[] | undefined {
  if (!ROW_READS.has(operation)) return undefined;
  const given = args ?? {};
  if (!isPlainObject(given) || !Object.keys(given).every((key) => ROW_READ_ARGS.has(key))) return undefined;
  if (!scalarSelection(model, given.select) || !scalarSelection(model, given.include)) return undefined;
  if (!scalarOrder(model, given.orderBy)) return undefined;
  const conditions = [{ model, where: given.where }];
  // A page after a cursor starts from the cursor row, matching or not: its changes count too.
  if (given.cursor !== undefined) conditions.push({ model, where: given.cursor });
  return conditions;
}

/**
 * What the queries of one run of a live query read: every model they reach, and for each model
 * either the conditions of the rows its answer depends on, or none known (`undecided`): then any
 * change to that model may change the answer. A commit re-runs the query only when it concerns
 * the footprint of the run that gave its answer (`concerns`).
 */
export class ReadFootprint {
  /** Every model the queries reached. */
  readonly models = new Set<string>();
  /** Models reached by a query whose answer the changed rows cannot decide. */
  readonly undecided = new Set<string>();
  /** The conditions of the rows the answer depends on, by model, for the models not undecided. */
  readonly conditions = new Map<string, RowCondition[]>();
  /** The database, whose semantics the conditions are evaluated with (`whereMatches`). */
  private provider = '';

  /** Notes a query the run sent: `operation` of `model` with its arguments, policies applied. */
  note(meta: DataModelMeta, model: ModelMeta, operation: string, args: unknown): void {
    this.provider = meta.provider;
    const reached = new Set<string>();
    modelsReached(meta, model, args, reached);
    for (const name of reached) this.models.add(name);
    const conditions = rowConditions(model, operation, args);
    // A filter through a relation reaches another model, whose rows no condition here describes.
    if (!conditions || reached.size > 1) {
      for (const name of reached) this.undecided.add(name);
      return;
    }
    const known = this.conditions.get(model.name);
    if (known) known.push(...conditions);
    else this.conditions.set(model.name, conditions);
  }

  /**
   * Whether `change` may change an answer these queries gave: a change of a model they reached,
   * unless its rows are known and match no condition before nor after. Undecided means yes.
   */
  concerns(change: RowChange): boolean {
    if (!this.models.has(change.model)) return false;
    const rows = [change.before, change.after].filter((row) => row !== undefined);
    if (rows.length === 0 || this.undecided.has(change.model)) return true;
    const conditions = this.conditions.get(change.model) ?? [];
    return conditions.some(({ model, where }) =>
      rows.some((row) => whereMatches(model, where, row, this.provider) !== false),
    );
  }
}
