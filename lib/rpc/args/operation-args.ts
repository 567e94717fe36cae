import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { ArgsGrammarName } from '../../metadata/prisma-operations.js';
import { AS_OF_PARAMETER } from '../../shared/history.constants.js';
import { AGGREGATE_KEYS, aggregateSelection } from './aggregates.js';
import { oneOrMany, type Rule } from './args-context.js';
import { orderBy } from './order-by.js';
import { boolean, count, cursor, instant, oneOf, scalarFieldNames, take, text } from './paging.js';
import { selection, type SelectionKey } from './selection.js';
import { whereInput, whereUniqueInput } from './where.js';
import { createData, topLevelShape, updateData } from './write-data.js';

/** The rules of one argument, built for a model. */
type ArgRule = (model: ModelMeta) => Rule;

const where: ArgRule = (model) => (ctx, value, path) => whereInput(ctx, model, value, path);
const whereUnique: ArgRule = (model) => (ctx, value, path) => whereUniqueInput(ctx, model, value, path);
const select =
  (key: SelectionKey): ArgRule =>
  (model) =>
  (ctx, value, path) =>
    selection(ctx, model, key, value, path!);
const sort: ArgRule = (model) => (ctx, value, path) => orderBy(ctx, model, value, path);
const create: ArgRule = (model) => (ctx, value, path) => createData(ctx, topLevelShape(model, false), value, path);
const createMany: ArgRule = (model) =>
  oneOrMany((ctx, value, path) => createData(ctx, topLevelShape(model, true), value, path));
const update: ArgRule = (model) => (ctx, value, path) => updateData(ctx, topLevelShape(model, false), value, path);
const updateMany: ArgRule = (model) => (ctx, value, path) => updateData(ctx, topLevelShape(model, true), value, path);
const fixed =
  (rule: Rule): ArgRule =>
  () =>
    rule;

const SELECTION = { select: select('select'), include: select('include'), omit: select('omit') };
const PAGING = { orderBy: sort, cursor, take: fixed(take), skip: fixed(count) };
const AGGREGATES = Object.fromEntries(
  AGGREGATE_KEYS.map((key) => [key, (model: ModelMeta) => aggregateSelection(model, key)]),
);

/** `asOf` of a read: the rows as they were at that time (docs/history.md). */
const AS_OF = { [AS_OF_PARAMETER]: fixed(instant) };
const FIND_MANY = { where, ...SELECTION, ...PAGING, distinct: scalarFieldNames, ...AS_OF };
/** One row named by a unique `where`, with its selection: a delete (and soft delete's restore and hardDelete). */
const ONE_ROW = { where: whereUnique, ...SELECTION };

/**
 * The top-level arguments of every grammar of the operation table (its `args` column), as in Prisma
 * 7's generated `*Args` types: a soft-deleted model's `restore` and `hardDelete` take `delete`'s.
 */
export const OPERATION_ARGS: Readonly<Record<ArgsGrammarName, Readonly<Record<string, ArgRule>>>> = {
  findMany: FIND_MANY,
  findFirst: FIND_MANY,
  findFirstOrThrow: FIND_MANY,
  findUnique: { ...ONE_ROW, ...AS_OF },
  findUniqueOrThrow: { ...ONE_ROW, ...AS_OF },
  count: { where, ...PAGING, select: (model) => aggregateSelection(model, '_count'), ...AS_OF },
  aggregate: { where, ...PAGING, ...AGGREGATES },
  groupBy: {
    by: scalarFieldNames,
    where,
    orderBy: (model) => (ctx, value, path) => orderBy(ctx, model, value, path, 'aggregation'),
    having: (model) => (ctx, value, path) => whereInput(ctx, model, value, path, 'having'),
    take: fixed(take),
    skip: fixed(count),
    ...AGGREGATES,
  },
  create: { data: create, ...SELECTION },
  createMany: { data: createMany, skipDuplicates: fixed(boolean) },
  createManyAndReturn: { data: createMany, skipDuplicates: fixed(boolean), ...SELECTION },
  update: { where: whereUnique, data: update, ...SELECTION },
  updateMany: { where, data: updateMany, limit: fixed(count) },
  updateManyAndReturn: { where, data: updateMany, limit: fixed(count), ...SELECTION },
  upsert: { where: whereUnique, create, update, ...SELECTION },
  delete: ONE_ROW,
  deleteMany: { where, limit: fixed(count) },
  history: {
    where: whereUnique,
    since: fixed(instant),
    until: fixed(instant),
    actor: fixed(text),
    order: fixed(oneOf(['asc', 'desc'])),
    skip: fixed(count),
    take: fixed(count),
  },
  restoreVersion: { where: whereUnique, version: fixed(count), ...SELECTION },
};
