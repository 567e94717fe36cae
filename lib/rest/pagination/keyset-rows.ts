import type { Keyset } from './collection-page.js';

/** A `select` that also loads the sort keys, which a cursor is made of (linkage selects only the ids). */
export function withKeysetFields(select: Record<string, unknown>, keyset: Keyset | undefined): Record<string, unknown> {
  if (!keyset) return select;
  return { ...select, ...Object.fromEntries(keyset.keys.map((key) => [key.field.name, true])) };
}

/**
 * Each item's cursor as `meta.page.cursor`, as the cursor pagination profile has it, so a client can
 * resume from any item of a page, not only its ends.
 */
export function withItemCursors<T extends object>(items: T[], cursors: readonly string[] | undefined): T[] {
  if (!cursors) return items;
  return items.map((item, index) => ({ ...item, meta: { page: { cursor: cursors[index] } } }));
}
