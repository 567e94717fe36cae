import { quoteInput } from '../../errors/quote-input.js';
import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { supportsFullTextSearch } from '../../prisma/provider-capabilities.js';
import { isNumericField } from '../../scalars/scalar-codecs.js';
import type { ArgPath } from './arg-path.js';
import {
  type ArgsContext,
  fail,
  mapMembers,
  objectOf,
  oneOrMany,
  relatedModel,
  type Rule,
  UNKNOWN,
  type Value,
  visibleField,
} from './args-context.js';

/** `orderBy` of reads (fields, relations, `_relevance`) or of groupBy (fields and aggregates). */
export type OrderByKind = 'relation' | 'aggregation';

const AGGREGATES = new Set(['_count', '_avg', '_max', '_min', '_sum']);

export const sortOrder: Rule = (ctx, value, path) =>
  value === 'asc' || value === 'desc' ? value : fail(ctx, path, 'expected "asc" or "desc"');

const nullsOrder: Rule = (ctx, value, path) =>
  value === 'first' || value === 'last' ? value : fail(ctx, path, 'expected "first" or "last"');

/** `'asc' | 'desc'`, or `{ sort, nulls }` for an optional field. */
function fieldSort(ctx: ArgsContext, field: FieldMeta, value: Value, path: ArgPath): Value {
  if (typeof value === 'string' || !field.isOptional) return sortOrder(ctx, value, path);
  return objectOf({ sort: sortOrder, nulls: nullsOrder })(ctx, value, path);
}

/** A field name, or names, of the model that satisfy `accepts`. */
export function fieldNames(model: ModelMeta, accepts: (field: FieldMeta) => boolean): Rule {
  return oneOrMany((ctx, value, path) => {
    const field = typeof value === 'string' ? visibleField(ctx, model, value) : undefined;
    if (!field || !accepts(field))
      fail(ctx, path, typeof value === 'string' ? `unknown field ${quoteInput(value)}` : 'expected a field name');
    return value;
  });
}

export const isScalarField = (field: FieldMeta): boolean => !field.relation;

function relevance(ctx: ArgsContext, model: ModelMeta, value: Value, path: ArgPath): Value {
  const isText = (field: FieldMeta) => field.kind === 'scalar' && field.type === 'String';
  const search: Rule = (c, v, p) => (typeof v === 'string' ? v : fail(c, p, 'expected a string'));
  return objectOf({ fields: fieldNames(model, isText), sort: sortOrder, search })(ctx, value, path);
}

/** `{ field: 'asc' }` inside `_count`/`_min`/... of a groupBy orderBy. */
function aggregateSort(ctx: ArgsContext, model: ModelMeta, aggregate: string, value: Value, path: ArgPath): Value {
  const numericOnly = aggregate === '_avg' || aggregate === '_sum';
  return mapMembers(ctx, value, path, (key, member, memberPath) => {
    const field = visibleField(ctx, model, key);
    if (!field || field.relation || (numericOnly && !isNumericField(field))) return UNKNOWN;
    return sortOrder(ctx, member, memberPath);
  });
}

function orderByMember(
  ctx: ArgsContext,
  model: ModelMeta,
  kind: OrderByKind,
  key: string,
  value: Value,
  path: ArgPath,
): Value {
  if (kind === 'aggregation' && AGGREGATES.has(key)) return aggregateSort(ctx, model, key, value, path);
  if (kind === 'relation' && key === '_relevance' && supportsFullTextSearch(ctx.provider))
    return relevance(ctx, model, value, path);
  const field = visibleField(ctx, model, key);
  if (!field) return UNKNOWN;
  if (!field.relation) return fieldSort(ctx, field, value, path);
  if (kind !== 'relation') return UNKNOWN;
  if (field.isList) return objectOf({ _count: sortOrder })(ctx, value, path);
  return orderByObject(ctx, relatedModel(ctx, field), 'relation', value, path);
}

function orderByObject(
  ctx: ArgsContext,
  model: ModelMeta,
  kind: OrderByKind,
  value: Value,
  path: ArgPath | undefined,
): Value {
  return mapMembers(
    ctx,
    value,
    path,
    (key, member, memberPath) => orderByMember(ctx, model, kind, key, member, memberPath),
    'an orderBy object',
  );
}

/** `orderBy`: one object or an array of them. */
export function orderBy(
  ctx: ArgsContext,
  model: ModelMeta,
  value: Value,
  path: ArgPath | undefined,
  kind: OrderByKind = 'relation',
): Value {
  return oneOrMany((c, item, itemPath) => orderByObject(c, model, kind, item, itemPath))(ctx, value, path);
}
