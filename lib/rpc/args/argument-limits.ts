import { PROTOTYPE_KEYS } from '../../shared/prototype-keys.js';
import { type ArgPath, child } from './arg-path.js';

export interface ArgumentLimits {
  /** Deepest nesting of objects and arrays. */
  maxArgumentDepth: number;
  /** Most values (object members and array items) in all. */
  maxArgumentNodes: number;
}

/** Arrays and plain objects; dates, decimals and byte arrays restored by superjson are single values. */
function isContainer(value: unknown): value is object {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

type Fail = (path: ArgPath | undefined, problem: string) => never;

/**
 * Checks the size and depth of parsed JSON and refuses prototype keys anywhere (Json values
 * included). Iterative, stops at the first excess and visits each value once, so no input can
 * overflow the stack or cost more than linear time. Runs before anything recursive (superjson,
 * the grammar walk) sees the input.
 */
export function assertArgumentLimits(json: unknown, limits: ArgumentLimits, fail: Fail): void {
  const stack: { value: unknown; path: ArgPath | undefined; depth: number }[] = [
    { value: json, path: undefined, depth: 0 },
  ];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (!isContainer(value)) continue;
    if (depth >= limits.maxArgumentDepth) {
      fail(path, `nested deeper than ${limits.maxArgumentDepth} levels (limit maxArgumentDepth)`);
    }
    const keys = Array.isArray(value) ? undefined : Object.keys(value);
    const size = keys ? keys.length : (value as unknown[]).length;
    if (nodes + size > limits.maxArgumentNodes) {
      fail(path, `more than ${limits.maxArgumentNodes} values in all (limit maxArgumentNodes)`);
    }
    nodes += size;
    if (!keys) {
      (value as unknown[]).forEach((item, index) =>
        stack.push({ value: item, path: child(path, index), depth: depth + 1 }),
      );
      continue;
    }
    for (const key of keys) {
      if (PROTOTYPE_KEYS.has(key)) fail(child(path, key), `"${key}" is not allowed as a key`);
      stack.push({ value: (value as Record<string, unknown>)[key], path: child(path, key), depth: depth + 1 });
    }
  }
}
