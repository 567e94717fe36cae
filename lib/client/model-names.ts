import type { DataModelMeta } from '../metadata/model-meta.types.js';

/** Prisma model names by their name in URLs and on the client (`post` → `Post`). */
export function modelsByClientName(meta: DataModelMeta): ReadonlyMap<string, string> {
  return new Map(Object.keys(meta.models).map((name) => [name.charAt(0).toLowerCase() + name.slice(1), name]));
}
