/**
 * Most rows (keys) one statement names: SQLite binds at most 999 values per statement, and a row
 * may take a value per key column.
 */
export const LISTED_ROWS = 400;

/** `items` in slices of at most `LISTED_ROWS`, one statement each. */
export function listedSlices<T>(items: readonly T[]): T[][] {
  return Array.from({ length: Math.ceil(items.length / LISTED_ROWS) }, (_, index) =>
    items.slice(index * LISTED_ROWS, (index + 1) * LISTED_ROWS),
  );
}
