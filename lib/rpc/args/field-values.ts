import type { FieldMeta } from '../../metadata/model-meta.types.js';
import type { ArgPath } from './arg-path.js';
import { type ArgsContext, fail, manyOf, type Value } from './args-context.js';
import { scalarValue } from './scalar-values.js';

/** One value of a scalar or enum field (a list field's item); `null` only where `nullable`. */
export function fieldValue(
  ctx: ArgsContext,
  field: FieldMeta,
  value: Value,
  path: ArgPath | undefined,
  nullable = false,
): Value {
  if (value === null) {
    if (nullable) return null;
    fail(ctx, path, `"${field.name}" cannot be null here`);
  }
  const parsed = scalarValue(field, value, ctx.registry.meta.enums);
  return 'problem' in parsed ? fail(ctx, path, parsed.problem) : parsed.value;
}

/** An array of values of the field's type. */
export function fieldValues(ctx: ArgsContext, field: FieldMeta, value: Value, path: ArgPath | undefined): Value {
  return manyOf((c, item, itemPath) => fieldValue(c, field, item, itemPath))(ctx, value, path);
}

/** What a write stores in a field: a value of its type, an array for a list, `null` when optional. */
export function storedValue(ctx: ArgsContext, field: FieldMeta, value: Value, path: ArgPath | undefined): Value {
  if (field.isList) return value === null && field.isOptional ? null : fieldValues(ctx, field, value, path);
  return fieldValue(ctx, field, value, path, field.isOptional && field.type !== 'Json');
}
