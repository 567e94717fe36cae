import type { ModelMeta } from '../../metadata/model-meta.types.js';
import { INVALID, isInt32, SCALAR_CODECS } from '../../scalars/scalar-codecs.js';
import type { ArgPath } from './arg-path.js';
import { type ArgsContext, fail, type Rule, type Value } from './args-context.js';
import { fieldNames, isScalarField } from './order-by.js';
import { whereUniqueInput } from './where.js';

/** `take`: an Int (negative reads backwards from the cursor). */
export const take: Rule = (ctx, value, path) =>
  isInt32(value) ? value : fail(ctx, path, 'expected an integer between -2147483648 and 2147483647');

/** `skip` and `limit`: a non-negative Int. */
export const count: Rule = (ctx, value, path) =>
  isInt32(value) && value >= 0 ? value : fail(ctx, path, 'expected a non-negative integer up to 2147483647');

export const boolean: Rule = (ctx, value, path) =>
  typeof value === 'boolean' ? value : fail(ctx, path, 'expected a boolean');

export const text: Rule = (ctx, value, path) =>
  typeof value === 'string' ? value : fail(ctx, path, 'expected a string');

/** One of the given strings. */
export const oneOf =
  (values: readonly string[]): Rule =>
  (ctx, value, path) =>
    typeof value === 'string' && values.includes(value)
      ? value
      : fail(ctx, path, `expected one of ${values.map((v) => `"${v}"`).join(', ')}`);

/** A time: a Date, or its RFC 3339 text with an offset (the DateTime codec's grammar and range). */
export const instant: Rule = (ctx, value, path) => {
  const valid = !(value instanceof Date) || !Number.isNaN(value.getTime());
  const parsed = valid ? SCALAR_CODECS.DateTime.fromJson(value instanceof Date ? value.toISOString() : value) : INVALID;
  return parsed === INVALID ? fail(ctx, path, `expected ${SCALAR_CODECS.DateTime.expected}`) : parsed;
};

/** `distinct` and `by`: names of scalar fields. */
export function scalarFieldNames(model: ModelMeta): Rule {
  return fieldNames(model, isScalarField);
}

export function cursor(model: ModelMeta): Rule {
  return (ctx: ArgsContext, value: Value, path: ArgPath | undefined) => whereUniqueInput(ctx, model, value, path);
}
