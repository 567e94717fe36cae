import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { isNumericField } from '../../scalars/scalar-codecs.js';
import { mapMembers, type Rule, UNKNOWN, visibleField } from './args-context.js';
import { boolean } from './paging.js';

const canCount = (field: FieldMeta) => !field.relation;
const canCompare = (field: FieldMeta) => !field.relation && !field.isList && field.type !== 'Json';

/** Which fields each aggregate of aggregate/groupBy takes. */
const AGGREGATE_FIELDS: Readonly<Record<string, (field: FieldMeta) => boolean>> = {
  _count: canCount,
  _sum: isNumericField,
  _avg: isNumericField,
  _min: canCompare,
  _max: canCompare,
};

export const AGGREGATE_KEYS = Object.keys(AGGREGATE_FIELDS);

/**
 * `_count` (`true`, or `{ _all, field: true }`), `_sum`/`_avg` (numeric fields), `_min`/`_max`
 * (comparable fields): each an object of field names set to booleans. The `select` of `count`
 * is the `_count` form.
 */
export function aggregateSelection(model: ModelMeta, aggregate: string): Rule {
  const accepts = AGGREGATE_FIELDS[aggregate];
  return (ctx, value, path) => {
    if (aggregate === '_count' && typeof value === 'boolean') return value;
    return mapMembers(ctx, value, path, (key, member, memberPath) => {
      if (aggregate === '_count' && key === '_all') return boolean(ctx, member, memberPath);
      const field = visibleField(ctx, model, key);
      return field && accepts(field) ? boolean(ctx, member, memberPath) : UNKNOWN;
    });
  };
}
