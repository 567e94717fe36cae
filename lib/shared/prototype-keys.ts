/**
 * Keys that reach an object's prototype machinery when assigned (`out[key] = value` with an own
 * `"__proto__"` key, which `JSON.parse` creates, replaces the copy's prototype): never accepted
 * from a client, in any position.
 */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

interface Visit {
  value: unknown;
  key: string;
  parent?: Visit;
}

function pathOf(visit: Visit): string[] {
  const path: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** Plain objects and arrays: what JSON and superjson produce (Dates, Decimals, Buffers are values). */
function isContainer(value: unknown): value is Record<string, unknown> {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The path to the first prototype key in a JSON-like value (`['data', '__proto__']`), or undefined.
 * Iterative, so no nesting depth can overflow the stack.
 */
export function findPrototypeKey(value: unknown): string[] | undefined {
  const stack: Visit[] = [{ value, key: '' }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    if (!isContainer(visit.value)) continue;
    for (const key of Object.keys(visit.value)) {
      const child: Visit = { value: visit.value[key], key, parent: visit };
      if (PROTOTYPE_KEYS.has(key)) return pathOf(child);
      stack.push(child);
    }
  }
  return undefined;
}
