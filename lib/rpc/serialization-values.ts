import { quoteInput } from '../errors/quote-input.js';
import { PROTOTYPE_KEYS } from '../shared/prototype-keys.js';

/**
 * The superjson type annotations the RPC wire format needs: dates, bigints, Prisma's Decimal and
 * Bytes (custom values), and `undefined` for optional values a client left unset. Anything else
 * (regexp, set, map, Error, class, symbol, typed arrays, NaN/Infinity `number`...) would hand
 * Prisma a value it cannot take, or run a constructor chosen by the client.
 */
function isAllowedAnnotation(annotation: unknown): boolean {
  if (annotation === 'Date' || annotation === 'bigint' || annotation === 'undefined') return true;
  return (
    Array.isArray(annotation) &&
    annotation.length === 2 &&
    annotation[0] === 'custom' &&
    (annotation[1] === 'Decimal' || annotation[1] === 'Bytes')
  );
}

/** A superjson path (`where.createdAt.gte`, dots escaped as `\.`) naming a prototype key. */
function namesPrototypeKey(path: string): boolean {
  return path.split(/(?<!\\)\./).some((segment) => PROTOTYPE_KEYS.has(segment));
}

/**
 * Why superjson's `meta.values` tree cannot be accepted, or undefined when it can. The tree is
 * either `[annotation, children?]` or `{ path: tree }`; the caller has already bounded its size
 * and depth, so an explicit stack suffices.
 */
export function serializationValuesProblem(values: unknown): string | undefined {
  const stack: unknown[] = [values];
  while (stack.length > 0) {
    const tree = stack.pop();
    if (tree === undefined) continue;
    if (Array.isArray(tree)) {
      const [annotation, children] = tree;
      if (!isAllowedAnnotation(annotation))
        return `names the type ${quoteInput(typeof annotation === 'string' ? annotation : JSON.stringify(annotation))}, which the RPC interface does not accept (only Date, bigint, undefined, Decimal and Bytes)`;
      stack.push(children);
      continue;
    }
    if (typeof tree !== 'object' || tree === null) return 'has a malformed "values" tree';
    for (const [path, subtree] of Object.entries(tree)) {
      if (namesPrototypeKey(path)) return `names the path ${quoteInput(path)}, which is not allowed`;
      stack.push(subtree);
    }
  }
  return undefined;
}
