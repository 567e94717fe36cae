import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import type { ArgPath } from './arg-path.js';
import { type ArgsContext, fail, mapMembers, relatedModel, UNKNOWN, type Value, visibleField } from './args-context.js';
import { orderBy } from './order-by.js';
import { boolean, count, cursor, scalarFieldNames, take } from './paging.js';
import { whereInput } from './where.js';

/** `select`, `include` or `omit`. */
export type SelectionKey = 'select' | 'include' | 'omit';

/** How many relations deep the current selection is (the top-level `include` is 0). */
type Depth = number;

/** `_count: true` or `{ select: { posts: true | { where } } }`: counts of to-many relations. */
function relationCounts(ctx: ArgsContext, model: ModelMeta, value: Value, path: ArgPath): Value {
  if (typeof value === 'boolean') return value;
  return mapMembers(ctx, value, path, (key, select, selectPath) => {
    if (key !== 'select') return UNKNOWN;
    return mapMembers(ctx, select, selectPath, (name, entry, entryPath) => {
      const field = visibleField(ctx, model, name);
      if (!field?.relation || !field.isList) return UNKNOWN;
      if (typeof entry === 'boolean') return entry;
      const target = relatedModel(ctx, field);
      return mapMembers(ctx, entry, entryPath, (k, where, wherePath) =>
        k === 'where' ? whereInput(ctx, target, where, wherePath) : UNKNOWN,
      );
    });
  });
}

/** The arguments of a relation read inside `select`/`include`: a nested selection, and paging for to-many relations. */
function relationRead(ctx: ArgsContext, field: FieldMeta, value: Value, path: ArgPath, depth: Depth): Value {
  const target = relatedModel(ctx, field);
  return mapMembers(ctx, value, path, (key, member, memberPath) => {
    if (key === 'select' || key === 'include' || key === 'omit')
      return selection(ctx, target, key, member, memberPath, depth);
    if (!field.isList) return UNKNOWN;
    switch (key) {
      case 'where':
        return whereInput(ctx, target, member, memberPath);
      case 'orderBy':
        return orderBy(ctx, target, member, memberPath);
      case 'cursor':
        return cursor(target)(ctx, member, memberPath);
      case 'take':
        return take(ctx, member, memberPath);
      case 'skip':
        return count(ctx, member, memberPath);
      case 'distinct':
        return scalarFieldNames(target)(ctx, member, memberPath);
      default:
        return UNKNOWN;
    }
  });
}

function relationEntry(ctx: ArgsContext, field: FieldMeta, value: Value, path: ArgPath, depth: Depth): Value {
  if (value === false) return value;
  if (depth + 1 > ctx.maxSelectionDepth) {
    fail(
      ctx,
      path,
      `include/select nested through more than ${ctx.maxSelectionDepth} relations (limit maxSelectionDepth)`,
    );
  }
  return value === true ? value : relationRead(ctx, field, value, path, depth + 1);
}

/** `select` (fields, relations, `_count`), `include` (relations, `_count`) or `omit` (fields) of a model. */
export function selection(
  ctx: ArgsContext,
  model: ModelMeta,
  key: SelectionKey,
  value: Value,
  path: ArgPath,
  depth: Depth = 0,
): Value {
  return mapMembers(ctx, value, path, (name, entry, entryPath) => {
    if (name === '_count' && key !== 'omit') return relationCounts(ctx, model, entry, entryPath);
    const field = visibleField(ctx, model, name);
    if (!field) return UNKNOWN;
    if (field.relation) return key === 'omit' ? UNKNOWN : relationEntry(ctx, field, entry, entryPath, depth);
    return key === 'include' ? UNKNOWN : boolean(ctx, entry, entryPath);
  });
}
