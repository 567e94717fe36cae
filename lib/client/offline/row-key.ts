type Row = Record<string, unknown>;

const isObject = (value: unknown): value is Row => typeof value === 'object' && value !== null;

/** Whether two values of a column are the same: Dates by their time, BigInts and Decimals by their text. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (isObject(a) || isObject(b) || typeof a === 'bigint' || typeof b === 'bigint')
    return a !== null && b !== null && a !== undefined && b !== undefined && String(a) === String(b);
  return a === b;
}

/** Whether a row has the values of a unique `where`: `{ id }`, or a compound key's object (`{ userId_postId: { ... } }`). */
export function hasKey(row: Row, where: Row): boolean {
  return Object.entries(where).every(([name, value]) =>
    Object.hasOwn(row, name)
      ? sameValue(row[name], value)
      : isObject(value) && !Array.isArray(value) && !(value instanceof Date) && hasKey(row, value),
  );
}
