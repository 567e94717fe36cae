import { CrudApiError } from '../errors/crud-api.error.js';
import { jsonPointer } from './json-pointer.js';

export interface JsonDepthOptions {
  /** Where `value` sits in the request body, for the error's pointer. Default: the body itself. */
  path?: readonly (string | number)[];
}

interface Visit {
  value: unknown;
  depth: number;
  parent?: Visit;
  key?: string | number;
}

function pathOf(visit: Visit, base: readonly (string | number)[]): (string | number)[] {
  const path: (string | number)[] = [];
  for (let node: Visit | undefined = visit; node?.parent; node = node.parent) path.unshift(node.key!);
  return [...base, ...path];
}

/**
 * Refuses a parsed JSON value nested deeper than `maxDepth` (an object or array at the top is depth
 * 1), with a 400 `invalid-payload` pointing at the first value too deep, before any recursive code
 * (ours, Prisma's, the driver's) sees it. Iterative, so no input can overflow the stack here.
 */
export function assertJsonDepth(value: unknown, maxDepth: number, options: JsonDepthOptions = {}): void {
  const base = options.path ?? [];
  const stack: Visit[] = [{ value, depth: 1 }];
  while (stack.length) {
    const visit = stack.pop()!;
    if (typeof visit.value !== 'object' || visit.value === null) continue;
    if (visit.depth > maxDepth) {
      const pointer = jsonPointer(pathOf(visit, base));
      throw new CrudApiError('invalid-payload', `The request body is nested deeper than ${maxDepth} levels.`, {
        source: { pointer },
      });
    }
    const entries = Array.isArray(visit.value) ? visit.value.entries() : Object.entries(visit.value);
    for (const [key, child] of entries) stack.push({ value: child, depth: visit.depth + 1, parent: visit, key });
  }
}
