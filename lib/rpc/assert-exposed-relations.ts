import { CrudApiError } from '../filters/crud-api.error.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import type { ModelRegistry } from '../metadata/model-registry.js';

/**
 * Refuses arguments that reach a model the `models` option does not expose, wherever Prisma's
 * argument grammar names a relation: include, select, `_count`, where (relation filters), orderBy,
 * nested writes. A key that is a field of the current model moves the walk to that field's model;
 * any other key (AND, some, create, select...) keeps the walk on the current model. Scalar values
 * (including Json) are not walked.
 */
export function assertExposedRelations(registry: ModelRegistry, model: ModelMeta, args: unknown): void {
  if (Array.isArray(args)) {
    for (const item of args) assertExposedRelations(registry, model, item);
    return;
  }
  if (args === null || typeof args !== 'object' || args instanceof Date || ArrayBuffer.isView(args)) return;
  for (const [key, value] of Object.entries(args)) {
    const field = Object.hasOwn(model.fields, key) ? model.fields[key] : undefined;
    if (!field) {
      assertExposedRelations(registry, model, value);
    } else if (field.relation) {
      const target = registry.findByModelName(field.relation.model);
      if (!target) throw new CrudApiError('invalid-argument', `Unknown field "${key}" on model "${model.name}".`);
      assertExposedRelations(registry, target, value);
    }
  }
}
