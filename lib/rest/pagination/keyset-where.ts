import type { SortKey } from './sort-keys.js';

type Where = Record<string, unknown>;

/** Rows strictly past `value` in the key's order, nulls counting as greater than any value; undefined when none can be. */
function beyond({ field, descending }: SortKey, value: unknown): Where | undefined {
  const name = field.name;
  if (value === null) return descending ? { [name]: { not: null } } : undefined;
  if (descending) return { [name]: { lt: value } };
  return field.isOptional ? { OR: [{ [name]: { gt: value } }, { [name]: null }] } : { [name]: { gt: value } };
}

/**
 * The rows after a cursor position in the order of `keys` (a keyset, or "seek", condition):
 * `k1 > v1 OR (k1 = v1 AND k2 > v2) OR ...`, with `keys` ending in the id fields so no two rows
 * share a position. Ask for the rows before a position with `reversedKeys(keys)`. Unlike OFFSET,
 * the database starts reading at the position through an index on the keys, whatever the depth.
 */
export function keysetWhere(keys: readonly SortKey[], values: readonly unknown[]): Where {
  const branches: Where[] = [];
  keys.forEach((key, index) => {
    const past = beyond(key, values[index]);
    if (!past) return;
    const ties = keys.slice(0, index).map((tied, at) => ({ [tied.field.name]: values[at] }));
    branches.push(ties.length ? { AND: [...ties, past] } : past);
  });
  return { OR: branches };
}
