import type { CrudApiRules, SoftDelete } from './rules.types.js';

const found = new WeakMap<object, ReadonlyMap<string, SoftDelete>>();
const NONE: ReadonlyMap<string, SoftDelete> = new Map();

/** The soft-deleted models of the rules, by name, with their setting (found once per rules object). */
export function softDeletedModels(rules: CrudApiRules | undefined): ReadonlyMap<string, SoftDelete> {
  if (!rules) return NONE;
  let models = found.get(rules);
  if (!models) {
    models = new Map(
      Object.entries(rules).flatMap(([name, model]) => (model.softDelete ? [[name, model.softDelete] as const] : [])),
    );
    found.set(rules, models);
  }
  return models;
}
