import type { DataModelMeta } from '../../metadata/model-meta.types.js';

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The model and every model its arguments reach through relation fields: nested writes in `data`
 * (create, connect, upsert... at any depth), `include`/`select` and relation filters. It may name
 * more models than a call touches (a Json value with a relation's name), never fewer, so an
 * invalidation by it is never missing.
 */
export function modelsInArgs(meta: DataModelMeta, model: string, args: unknown): Set<string> {
  const models = new Set<string>([model]);
  const walk = (current: string, value: unknown): void => {
    if (Array.isArray(value)) return value.forEach((item) => walk(current, item));
    if (!isPlainContainer(value)) return;
    const fields = meta.models[current]?.fields ?? {};
    for (const [key, member] of Object.entries(value)) {
      const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
      if (field?.kind === 'relation') {
        models.add(field.type);
        walk(field.type, member);
      } else if (isPlainContainer(member)) {
        walk(current, member);
      }
    }
  };
  walk(model, args);
  return models;
}

/**
 * The operations that remove rows or bring them back, and with them rows of related models: a
 * delete's cascades and `SetNull`, a soft delete's cascade, a restore of the rows deleted with it.
 */
const REMOVALS: ReadonlySet<string> = new Set(['delete', 'deleteMany', 'hardDelete', 'restore']);

/**
 * The models whose rows a mutation may change: those its arguments reach, and on a delete (or a
 * restore) the models related to it too.
 */
export function mutatedModels(meta: DataModelMeta, model: string, operation: string, args: unknown): Set<string> {
  const models = modelsInArgs(meta, model, args);
  if (REMOVALS.has(operation)) {
    for (const field of Object.values(meta.models[model]?.fields ?? {})) {
      if (field.kind === 'relation') models.add(field.type);
    }
  }
  return models;
}
