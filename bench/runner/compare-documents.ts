/**
 * The first place where two JSON values differ, as a path (`data.attributes.title: "a" vs "b"`),
 * or undefined when they are equal. Object key order is ignored, array order is not.
 */
export function findDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${path}: ${describe(a)} vs ${describe(b)}`;
    if (a.length !== b.length) return `${path}: ${a.length} items vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const difference = findDifference(a[i], b[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    return undefined;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(key in a)) return `${path}.${key}: missing vs ${describe(b[key])}`;
      if (!(key in b)) return `${path}.${key}: ${describe(a[key])} vs missing`;
      const difference = findDifference(a[key], b[key], `${path}.${key}`);
      if (difference) return difference;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : `${path}: ${describe(a)} vs ${describe(b)}`;
}

/** The value with every leaf replaced by its type: what two answers to the same write share. */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item)]));
  return value === null ? 'null' : typeof value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
