import type { DataModelMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { type BatchStep, TRANSACTION_MODEL } from '../offline/offline-mode.js';
import { hasKey } from '../offline/row-key.js';
import type { OfflineWrite } from '../offline/write-queue.js';

type Row = Record<string, unknown>;

/** A cached read of the hooks: its model (on the client), operation and arguments (plain JSON). */
export interface CachedRead {
  model: string;
  operation: string;
  args: unknown;
  /** A fluent read (`findUnique(...).author()`) answers related rows: no queued write is applied to it. */
  fluent: boolean;
}

const isRow = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** Number operations of an update's data, as the database applies them. */
const NUMBER_OPERATIONS: Record<string, (value: number, operand: number) => number> = {
  increment: (value, operand) => value + operand,
  decrement: (value, operand) => value - operand,
  multiply: (value, operand) => value * operand,
  divide: (value, operand) => value / operand,
};

/**
 * The columns a write's data sets, as the row will have them: scalar values, `{ set }`, number
 * operations on a known value, and the foreign key of a relation it connects. Nested writes of
 * other rows are left to the answer that follows.
 */
function writtenColumns(model: ModelMeta | undefined, row: Row, data: unknown): Row {
  const columns: Row = {};
  if (!isRow(data)) return columns;
  for (const [name, value] of Object.entries(data)) {
    // Only the model's own fields: an unknown name (`__proto__`...) is the server's to refuse.
    if (model && !Object.hasOwn(model.fields, name)) continue;
    const field = model?.fields[name];
    if (field?.kind === 'relation') {
      const connected = isRow(value) && isRow(value.connect) ? value.connect : undefined;
      const relation = field.relation;
      relation?.fields.forEach((column, index) => {
        const key = connected?.[relation.references[index]!];
        if (key !== undefined) columns[column] = key;
      });
    } else if (!isRow(value) || typeof value.toFixed === 'function') {
      columns[name] = value;
    } else if ('set' in value) {
      columns[name] = value.set;
    } else {
      const [operation, operand] = Object.entries(value)[0] ?? [];
      const apply = operation === undefined ? undefined : NUMBER_OPERATIONS[operation];
      if (apply && typeof row[name] === 'number' && typeof operand === 'number')
        columns[name] = apply(row[name], operand);
    }
  }
  return columns;
}

/** Whether a read's arguments filter its rows (a created row may not belong to it). */
const filters = (args: unknown) => isRow(args) && isRow(args.where) && Object.keys(args.where).length > 0;

/** Whether a list is ordered newest first by its first key: a created row goes first, else last. */
function newestFirst(args: unknown): boolean {
  const orderBy = isRow(args) ? args.orderBy : undefined;
  const first = Array.isArray(orderBy) ? orderBy[0] : orderBy;
  const direction = isRow(first) ? Object.values(first)[0] : undefined;
  return direction === 'desc' || (isRow(direction) && direction.sort === 'desc');
}

/** One step of a write on one model: a batch's writes are its steps'. */
interface Step {
  model: string;
  operation: string;
  args: Row;
  placeholders?: Record<string, unknown>;
}

/** The writes of a queued write on one model each: itself, or a batch's steps. */
export function stepsOf(write: Pick<OfflineWrite, 'model' | 'operation' | 'args' | 'placeholders'>): Step[] {
  if (write.model !== TRANSACTION_MODEL) return [{ ...write, args: isRow(write.args) ? write.args : {} }];
  const steps = Array.isArray(write.args) ? (write.args as BatchStep[]) : [];
  return steps.map((step) => ({ model: step.model, operation: step.op, args: isRow(step.args) ? step.args : {} }));
}

/**
 * A read's cached data with a queued write applied, as the server is expected to answer once it is
 * applied: updated rows changed, deleted rows gone, created rows (with their placeholder ids) in
 * the unfiltered lists and counts of their model. Reads it cannot predict are left as they are;
 * the answers read after the write is applied replace them.
 */
export function withQueuedWrite(
  meta: DataModelMeta,
  modelName: (clientName: string) => string,
  read: CachedRead,
  data: unknown,
  write: OfflineWrite,
): unknown {
  if (read.fluent) return data;
  let result = data;
  for (const step of stepsOf(write)) {
    if (step.model !== read.model) continue;
    const model = meta.models[modelName(step.model)];
    result = withStep(model, read, result, step);
  }
  return result;
}

function withStep(model: ModelMeta | undefined, read: CachedRead, data: unknown, step: Step): unknown {
  const where = isRow(step.args.where) ? step.args.where : undefined;
  const matches = (row: unknown): row is Row => isRow(row) && where !== undefined && hasKey(row, where);
  const created = () => {
    const values = step.operation === 'upsert' ? step.args.create : step.args.data;
    return { ...writtenColumns(model, {}, values), ...step.placeholders };
  };
  const existing = Array.isArray(data) ? data.some(matches) : matches(data);
  switch (step.operation) {
    case 'update':
    case 'upsert': {
      if (step.operation === 'upsert' && !existing) return withCreated(read, data, created());
      const values = step.operation === 'upsert' ? step.args.update : step.args.data;
      const change = (row: Row) => ({ ...row, ...writtenColumns(model, row, values) });
      if (Array.isArray(data)) return data.map((row) => (matches(row) ? change(row) : row));
      return matches(data) ? change(data) : data;
    }
    case 'delete':
      if (Array.isArray(data)) return data.filter((row) => !matches(row));
      return matches(data) ? null : data;
    case 'create':
      return withCreated(read, data, created());
    default:
      return data;
  }
}

/** A created row added to an unfiltered list, or counted by an unfiltered count. */
function withCreated(read: CachedRead, data: unknown, row: Row): unknown {
  if (filters(read.args)) return data;
  if (read.operation === 'count' && typeof data === 'number') return data + 1;
  if (read.operation !== 'findMany' || !Array.isArray(data)) return data;
  return newestFirst(read.args) ? [row, ...data] : [...data, row];
}
