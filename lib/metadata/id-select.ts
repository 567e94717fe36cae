import type { ModelMeta } from './model-meta.types.js';

/** A Prisma `select` of just the primary key fields. */
export function idSelect(model: ModelMeta): Record<string, true> {
  return Object.fromEntries(model.idFields.map((field) => [field, true as const]));
}
