import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { FieldMeta } from '../../metadata/model-meta.types.js';
import { literalLike, literalLikeRefusal } from '../../prisma/literal-like.js';
import { FULL_TEXT_PROVIDERS, supportsInsensitiveMode, toFullTextQuery } from '../../prisma/provider-capabilities.js';
import { isOrderedType } from '../../scalars/scalar-codecs.js';

/** Which fields an operator applies to. */
export type OperatorTarget = 'scalar' | 'nullable' | 'comparable' | 'string' | 'list';

/**
 * How the parameter value is read: `each` splits on commas and matches any value; `list` splits
 * on commas into one array; `text` takes the whole value; `boolean` takes `true`/`false`.
 */
export type OperatorValue = 'each' | 'list' | 'text' | 'boolean';

export interface FilterContext {
  /** Datasource provider (`sqlite`, `postgresql`, ...). */
  provider: string;
}

export interface FilterOperator {
  target: OperatorTarget;
  value: OperatorValue;
  /** The Prisma field condition for one value (`null` means "field is null"). */
  condition(value: unknown, context: FilterContext): unknown;
  /** One Prisma condition for several `each` values, when Prisma has one (`in`, `notIn`). */
  several?(values: unknown[]): unknown;
  /** How several `each` values combine without `several`. */
  join: 'OR' | 'AND';
  /** Providers that support it; all when absent. */
  providers?: readonly string[];
}

/**
 * The value of a LIKE operator ($contains, $startsWith, $endsWith, $icontains) made to match
 * itself; 400 where the database cannot (a `%` or `_` on SQLite), never a wildcard match.
 */
function literalValue(value: unknown, provider: string): string {
  const literal = literalLike(String(value), provider);
  if (literal === undefined)
    throw new CrudApiError(
      'invalid-query-parameter',
      `The filter value ${quoteInput(String(value))} is refused: ${literalLikeRefusal(provider)}.`,
    );
  return literal;
}

const like =
  (key: string) =>
  (value: unknown, { provider }: FilterContext) => ({ [key]: literalValue(value, provider) });
const compare = (key: string): FilterOperator => ({
  target: 'comparable',
  value: 'each',
  join: 'OR',
  condition: (v) => ({ [key]: v }),
});
const text = (key: string): FilterOperator => ({ target: 'string', value: 'each', join: 'OR', condition: like(key) });

/** The filter operators (`filter[field$op]`); the empty name is plain equality. */
export const FILTER_OPERATORS: ReadonlyMap<string, FilterOperator> = new Map<string, FilterOperator>([
  [
    '',
    { target: 'scalar', value: 'each', join: 'OR', condition: (v) => ({ equals: v }), several: (vs) => ({ in: vs }) },
  ],
  [
    '$not',
    { target: 'scalar', value: 'each', join: 'AND', condition: (v) => ({ not: v }), several: (vs) => ({ notIn: vs }) },
  ],
  ['$null', { target: 'nullable', value: 'boolean', join: 'OR', condition: (v) => (v ? null : { not: null }) }],
  ['$lt', compare('lt')],
  ['$lte', compare('lte')],
  ['$gt', compare('gt')],
  ['$gte', compare('gte')],
  ['$contains', text('contains')],
  ['$startsWith', text('startsWith')],
  ['$endsWith', text('endsWith')],
  [
    '$icontains',
    {
      target: 'string',
      value: 'each',
      join: 'OR',
      // SQLite's LIKE (ASCII) and MySQL's default collations are already case-insensitive, and refuse `mode`.
      condition: (v, context) => ({
        ...like('contains')(v, context),
        ...(supportsInsensitiveMode(context.provider) ? { mode: 'insensitive' } : {}),
      }),
    },
  ],
  [
    '$search',
    {
      target: 'string',
      value: 'text',
      join: 'OR',
      condition: (v, context) => ({ search: toFullTextQuery(String(v), context.provider) }),
      providers: FULL_TEXT_PROVIDERS,
    },
  ],
  ['$has', { target: 'list', value: 'each', join: 'OR', condition: (v) => ({ has: v }) }],
  ['$hasEvery', { target: 'list', value: 'list', join: 'OR', condition: (v) => ({ hasEvery: v }) }],
  ['$hasSome', { target: 'list', value: 'list', join: 'OR', condition: (v) => ({ hasSome: v }) }],
  ['$isEmpty', { target: 'list', value: 'boolean', join: 'OR', condition: (v) => ({ isEmpty: v }) }],
]);

/** Types Prisma cannot match with `in`/`notIn`. */
const NO_SET_MATCH_TYPES = new Set(['Json', 'Bytes']);

/** Whether an operator can filter a (non-relation) field. */
export function operatorApplies(operator: FilterOperator, field: FieldMeta): boolean {
  if (operator.target === 'list') return field.isList;
  if (field.isList) return false;
  if (operator.target === 'nullable') return field.isOptional;
  if (operator.target === 'string') return field.kind === 'scalar' && field.type === 'String';
  if (operator.target === 'comparable') return isOrderedType(field);
  return true;
}

/** Whether `several` may be used for this field. */
export function supportsSetMatch(field: FieldMeta): boolean {
  return !NO_SET_MATCH_TYPES.has(field.type);
}
