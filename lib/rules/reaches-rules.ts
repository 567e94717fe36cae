import type { ModelMeta } from '../metadata/model-meta.types.js';
import { InvalidValue } from './invalid-value.js';
import type { CrudApiRules } from './rules.types.js';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

/**
 * Whether an operation's arguments on `model` can involve a model that has rules: the model itself,
 * or any model a key of the arguments leads to through a relation (in data, filters or selections,
 * at any depth). An over-approximation: keys that are no field (`AND`, `some`, `create`, `where`...)
 * keep the walk on the same model. Arguments that reach no ruled model need nothing of the rules,
 * unless they hold a value the interface found invalid, which the rules report.
 */
export function reachesRules(
  rules: CrudApiRules,
  model: ModelMeta,
  value: unknown,
  modelOf: (name: string) => ModelMeta,
): boolean {
  if (Object.hasOwn(rules, model.name) || value instanceof InvalidValue) return true;
  if (Array.isArray(value)) return value.some((item) => reachesRules(rules, model, item, modelOf));
  if (!isObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const [key, child] of Object.entries(value)) {
    const field = Object.hasOwn(model.fields, key) ? model.fields[key] : undefined;
    // A relation reaches its model whatever it holds (`include: { author: true }`).
    if (field?.relation) {
      if (child && reachesRules(rules, modelOf(field.relation.model), child, modelOf)) return true;
    } else if (isObject(child) && reachesRules(rules, model, child, modelOf)) return true;
  }
  return false;
}
