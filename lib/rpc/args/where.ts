import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { literalLike, literalLikeRefusal } from '../../prisma/literal-like.js';
import { supportsFullTextSearch, supportsInsensitiveMode } from '../../prisma/provider-capabilities.js';
import { isOrderedType } from '../../scalars/scalar-codecs.js';
import type { ArgPath } from './arg-path.js';
import {
  type ArgsContext,
  fail,
  isRecord,
  manyOf,
  mapMembers,
  oneOrMany,
  relatedModel,
  type Rule,
  UNKNOWN,
  type Value,
  visibleField,
} from './args-context.js';
import { fieldValue, fieldValues } from './field-values.js';

/** Which `where` grammar: a model's full one, the scalar-only one of nested `deleteMany`/`updateMany`, or `having`. */
export type WhereKind = 'full' | 'scalar' | 'having';

const LIKE_OPERATORS = new Set(['contains', 'startsWith', 'endsWith']);
const JSON_STRING_OPERATORS = new Set(['string_contains', 'string_starts_with', 'string_ends_with']);
const JSON_VALUE_OPERATORS = new Set([
  'equals',
  'not',
  'array_starts_with',
  'array_ends_with',
  'array_contains',
  'lt',
  'lte',
  'gt',
  'gte',
]);
const AGGREGATE_FILTERS = new Set(['_count', '_avg', '_sum', '_min', '_max']);

/** The field an aggregate of `field` is compared as (`_count` is an Int, `_avg` a Float or Decimal). */
function aggregateField(field: FieldMeta, aggregate: string): FieldMeta {
  if (aggregate === '_count') return { ...field, kind: 'scalar', type: 'Int', isOptional: false };
  if (aggregate === '_avg') return { ...field, type: field.type === 'Decimal' ? 'Decimal' : 'Float', isOptional: true };
  return { ...field, isOptional: true };
}

/** The text of a LIKE-backed operator, made to match itself (Prisma escapes no wildcard). */
function likeText(ctx: ArgsContext, text: FieldMeta, value: Value, path: ArgPath): Value {
  const literal = literalLike(fieldValue(ctx, text, value, path) as string, ctx.provider);
  return literal ?? fail(ctx, path, literalLikeRefusal(ctx.provider));
}

function filterOperator(
  ctx: ArgsContext,
  field: FieldMeta,
  key: string,
  value: Value,
  path: ArgPath,
  aggregates: boolean,
): Value {
  const isString = field.kind === 'scalar' && field.type === 'String';
  switch (key) {
    case 'equals':
      return fieldValue(ctx, field, value, path, field.isOptional);
    case 'in':
    case 'notIn':
      return fieldValues(ctx, field, value, path);
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return isOrderedType(field) ? fieldValue(ctx, field, value, path) : UNKNOWN;
    case 'not':
      return isRecord(value)
        ? scalarFilter(ctx, field, value, path, false)
        : fieldValue(ctx, field, value, path, field.isOptional);
    case 'mode':
      if (!isString || !supportsInsensitiveMode(ctx.provider)) return UNKNOWN;
      if (value !== 'default' && value !== 'insensitive') fail(ctx, path, 'expected "default" or "insensitive"');
      return value;
    case 'search':
      return isString && supportsFullTextSearch(ctx.provider) ? fieldValue(ctx, field, value, path) : UNKNOWN;
  }
  if (LIKE_OPERATORS.has(key)) return isString ? likeText(ctx, field, value, path) : UNKNOWN;
  if (aggregates && AGGREGATE_FILTERS.has(key))
    return scalarFilter(ctx, aggregateField(field, key), value, path, false);
  return UNKNOWN;
}

/** A filter on a scalar or enum field: a value (equality) or an object of operators. */
function scalarFilter(
  ctx: ArgsContext,
  field: FieldMeta,
  value: Value,
  path: ArgPath | undefined,
  aggregates: boolean,
): Value {
  if (!isRecord(value)) return fieldValue(ctx, field, value, path, field.isOptional);
  return mapMembers(ctx, value, path, (key, member, memberPath) =>
    filterOperator(ctx, field, key, member, memberPath, aggregates),
  );
}

/** A Json filter (`path`, `string_contains`, `array_contains`, `equals`...): always an object. Its string operators are LIKEs too. */
function jsonFilter(
  ctx: ArgsContext,
  field: FieldMeta,
  value: Value,
  path: ArgPath | undefined,
  aggregates: boolean,
): Value {
  const text: FieldMeta = { ...field, type: 'String' };
  return mapMembers(
    ctx,
    value,
    path,
    (key, member, memberPath) => {
      if (JSON_VALUE_OPERATORS.has(key)) return fieldValue(ctx, field, member, memberPath, true);
      if (JSON_STRING_OPERATORS.has(key)) return likeText(ctx, text, member, memberPath);
      if (key === 'path')
        return ctx.provider === 'postgresql'
          ? fieldValues(ctx, text, member, memberPath)
          : fieldValue(ctx, text, member, memberPath);
      if (key === 'mode') return filterOperator(ctx, text, key, member, memberPath, false);
      if (aggregates && (key === '_count' || key === '_min' || key === '_max'))
        return key === '_count'
          ? scalarFilter(ctx, aggregateField(field, key), member, memberPath, false)
          : jsonFilter(ctx, field, member, memberPath, false);
      return UNKNOWN;
    },
    'a Json filter object',
  );
}

/** A filter on a scalar list (PostgreSQL): has, hasEvery, hasSome, isEmpty, equals. */
function listFilter(ctx: ArgsContext, field: FieldMeta, value: Value, path: ArgPath | undefined): Value {
  const item: FieldMeta = { ...field, isList: false, isOptional: false };
  return mapMembers(
    ctx,
    value,
    path,
    (key, member, memberPath) => {
      switch (key) {
        case 'has':
          return fieldValue(ctx, item, member, memberPath, true);
        case 'hasEvery':
        case 'hasSome':
          return fieldValues(ctx, item, member, memberPath);
        case 'equals':
          return member === null ? null : fieldValues(ctx, item, member, memberPath);
        case 'isEmpty':
          return typeof member === 'boolean' ? member : fail(ctx, memberPath, 'expected a boolean');
        default:
          return UNKNOWN;
      }
    },
    'a list filter object',
  );
}

const TO_ONE_FILTER_KEYS = new Set(['is', 'isNot']);

/** `{ is, isNot }` or the shorthand (a where of the related model); `null` for an optional relation. */
function toOneFilter(ctx: ArgsContext, field: FieldMeta, value: Value, path: ArgPath | undefined): Value {
  const target = relatedModel(ctx, field);
  const nullOr = (member: Value, memberPath: ArgPath | undefined) =>
    member === null && field.isOptional ? null : whereInput(ctx, target, member, memberPath);
  if (value === null) return nullOr(value, path);
  const keys = isRecord(value) ? Object.keys(value) : [];
  if (keys.length === 0 || !keys.every((key) => TO_ONE_FILTER_KEYS.has(key)))
    return whereInput(ctx, target, value, path);
  return mapMembers(ctx, value, path, (_key, member, memberPath) => nullOr(member, memberPath));
}

function toManyFilter(ctx: ArgsContext, field: FieldMeta, value: Value, path: ArgPath | undefined): Value {
  const target = relatedModel(ctx, field);
  return mapMembers(ctx, value, path, (key, member, memberPath) =>
    key === 'some' || key === 'every' || key === 'none' ? whereInput(ctx, target, member, memberPath) : UNKNOWN,
  );
}

/** The condition on one field of a where. */
export function fieldFilter(
  ctx: ArgsContext,
  field: FieldMeta,
  value: Value,
  path: ArgPath,
  kind: WhereKind = 'full',
): Value {
  if (field.relation) {
    if (kind !== 'full') return UNKNOWN;
    return field.isList ? toManyFilter(ctx, field, value, path) : toOneFilter(ctx, field, value, path);
  }
  if (field.isList) return listFilter(ctx, field, value, path);
  if (field.type === 'Json') return jsonFilter(ctx, field, value, path, kind === 'having');
  return scalarFilter(ctx, field, value, path, kind === 'having');
}

/** AND / OR / NOT, or a field condition; UNKNOWN for anything else. */
function whereMember(
  ctx: ArgsContext,
  model: ModelMeta,
  kind: WhereKind,
  key: string,
  value: Value,
  path: ArgPath,
): Value {
  const nested: Rule = (c, item, itemPath) => whereInput(c, model, item, itemPath, kind);
  if (key === 'AND' || key === 'NOT') return oneOrMany(nested)(ctx, value, path);
  if (key === 'OR') return manyOf(nested)(ctx, value, path);
  const field = visibleField(ctx, model, key);
  return field ? fieldFilter(ctx, field, value, path, kind) : UNKNOWN;
}

/** A model's `where`. */
export function whereInput(
  ctx: ArgsContext,
  model: ModelMeta,
  value: Value,
  path: ArgPath | undefined,
  kind: WhereKind = 'full',
): Value {
  return mapMembers(
    ctx,
    value,
    path,
    (key, member, memberPath) => whereMember(ctx, model, kind, key, member, memberPath),
    'a where object',
  );
}

/**
 * A unique `where` (findUnique, update, delete, cursor, connect...): a where that names at least
 * one unique selector, unique fields by value and compound selectors (`userId_postId`) as objects
 * of their fields' values.
 */
export function whereUniqueInput(ctx: ArgsContext, model: ModelMeta, value: Value, path: ArgPath | undefined): Value {
  const compounds = new Map(model.uniqueConstraints.filter((c) => c.fields.length > 1).map((c) => [c.name, c]));
  const unique = new Set(model.uniqueConstraints.filter((c) => c.fields.length === 1).map((c) => c.fields[0]));
  let selectors = 0;
  const result = mapMembers(
    ctx,
    value,
    path,
    (key, member, memberPath) => {
      const compound = compounds.get(key);
      if (compound) {
        const fields = compound.fields.map((name) => visibleField(ctx, model, name));
        if (fields.some((field) => !field)) return UNKNOWN;
        selectors++;
        return mapMembers(ctx, member, memberPath, (name, part, partPath) => {
          const field = fields.find((f) => f!.name === name);
          return field ? fieldValue(ctx, field, part, partPath) : UNKNOWN;
        });
      }
      const field = unique.has(key) ? visibleField(ctx, model, key) : undefined;
      if (!field) return whereMember(ctx, model, 'full', key, member, memberPath);
      selectors++;
      return fieldValue(ctx, field, member, memberPath);
    },
    'a unique where object',
  );
  if (selectors === 0) {
    const names = [...unique, ...compounds.keys()].filter(
      (name) => compounds.has(name) || visibleField(ctx, model, name),
    );
    fail(ctx, path, `expected at least one unique selector of ${model.name} (${names.join(', ')})`);
  }
  return result;
}
