import { quoteInput } from '../errors/quote-input.js';
import { PROTOTYPE_KEYS } from '../shared/prototype-keys.js';

/** The members of superjson's meta: its type annotations, its shared references and its format version. */
const META_MEMBERS: ReadonlySet<string> = new Set(['values', 'referentialEqualities', 'v']);

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

const INDEX = /^(0|[1-9]\d*)$/;

/**
 * A superjson path (`where.createdAt.gte`) as its segments, the way superjson reads it: from format
 * version 1 on, `\.` is a dot and `\\` a backslash within a segment, any other `\` is malformed;
 * before it, only `\.` is special. Undefined when malformed.
 */
function parsePath(path: string, legacy: boolean): string[] | undefined {
  const segments: string[] = [];
  let segment = '';
  for (let i = 0; i < path.length; i++) {
    const char = path[i]!;
    const next = path[i + 1];
    if (char === '\\' && (next === '.' || (!legacy && next === '\\'))) {
      segment += next;
      i++;
    } else if (char === '\\' && !legacy) return undefined;
    else if (char === '.') {
      segments.push(segment);
      segment = '';
    } else segment += char;
  }
  segments.push(segment);
  return segments;
}

/** Where a path leads in the arguments' JSON: the container of its last segment and that segment. */
interface Place {
  parent: unknown;
  key: string;
}

/** Whether `key` is a member of `container`: an own key of an object, an index of an array. */
function holds(container: unknown, key: string): boolean {
  if (Array.isArray(container)) return INDEX.test(key) && Number(key) < container.length;
  return typeof container === 'object' && container !== null && Object.hasOwn(container, key);
}

/** The place a path names, when every container on the way exists (the last member need not). */
function placeOf(json: unknown, segments: readonly string[]): Place | undefined {
  let parent: unknown = { '': json };
  let key = '';
  for (const segment of segments) {
    if (!holds(parent, key)) return undefined;
    parent = (parent as Record<string, unknown>)[key];
    key = segment;
  }
  return typeof parent === 'object' && parent !== null ? { parent, key } : undefined;
}

/**
 * Whether an annotation fits what it annotates: every type the interface accepts is a string in the
 * JSON, except `undefined`, which superjson writes as `null` (a member some JSON writer left out
 * of an object is taken as well).
 */
function annotates(place: Place | undefined, annotation: unknown): boolean {
  if (!place) return false;
  const { parent, key } = place;
  const value = holds(parent, key) ? (parent as Record<string, unknown>)[key] : undefined;
  if (annotation === 'undefined') return value === null || (value === undefined && !Array.isArray(parent));
  return typeof value === 'string';
}

const named = (segments: readonly string[]) => quoteInput(segments.join('.'));

/** Why a path is refused, or undefined. */
function pathProblem(path: unknown, legacy: boolean): string | undefined {
  const segments = typeof path === 'string' ? parsePath(path, legacy) : undefined;
  if (!segments) return `has the malformed path ${quoteInput(String(path))}`;
  if (segments.some((segment) => PROTOTYPE_KEYS.has(segment)))
    return `names the path ${quoteInput(String(path))}, which is not allowed`;
  return undefined;
}

/**
 * Why superjson's `values` tree does not describe the arguments, or undefined. The tree is either
 * `[annotation]` (every type the interface accepts is a leaf: no children) or `{ path: tree }`,
 * paths relative to where the tree stands. Every annotated path must name a value of the JSON,
 * once. The caller has already bounded the tree's size and depth, so an explicit stack suffices.
 */
function valuesProblem(values: unknown, json: unknown, legacy: boolean): string | undefined {
  const stack: { tree: unknown; at: string[] }[] = [{ tree: values, at: [] }];
  const annotated = new Set<string>();
  while (stack.length > 0) {
    const { tree, at } = stack.pop()!;
    if (Array.isArray(tree)) {
      const [annotation] = tree;
      if (!isAllowedAnnotation(annotation))
        return `names the type ${quoteInput(typeof annotation === 'string' ? annotation : JSON.stringify(annotation))}, which the RPC interface does not accept (only Date, bigint, undefined, Decimal and Bytes)`;
      if (tree.length !== 1) return `has a malformed "values" tree at ${named(at)}`;
      const key = JSON.stringify(at);
      if (annotated.has(key)) return `annotates the path ${named(at)} twice`;
      annotated.add(key);
      if (!annotates(placeOf(json, at), annotation))
        return `names the path ${named(at)}, which is not a value of that type in the arguments`;
      continue;
    }
    if (typeof tree !== 'object' || tree === null) return 'has a malformed "values" tree';
    for (const [path, subtree] of Object.entries(tree)) {
      const problem = pathProblem(path, legacy);
      if (problem) return problem;
      stack.push({ tree: subtree, at: [...at, ...parsePath(path, legacy)!] });
    }
  }
  return undefined;
}

/**
 * Why superjson's `referentialEqualities` do not describe the arguments, or undefined. Either
 * `{ path: [paths] }` or `[[paths identical to the root], { path: [paths] }?]`; every path must
 * name a member of the JSON. They are checked, not applied: see `parseRpcArgs`.
 */
function referencesProblem(references: unknown, json: unknown, legacy: boolean): string | undefined {
  const isPathList = (value: unknown): value is unknown[] => Array.isArray(value);
  const groups: unknown[][] = [];
  let byPath: unknown = references;
  if (Array.isArray(references)) {
    const [root, rest, ...more] = references;
    if (!isPathList(root) || more.length > 0) return 'has malformed "referentialEqualities"';
    groups.push(root);
    byPath = rest ?? {};
  }
  if (typeof byPath !== 'object' || byPath === null || Array.isArray(byPath))
    return 'has malformed "referentialEqualities"';
  for (const [path, identical] of Object.entries(byPath)) {
    if (!isPathList(identical)) return 'has malformed "referentialEqualities"';
    groups.push([path, ...identical]);
  }
  for (const path of groups.flat()) {
    const problem = pathProblem(path, legacy);
    if (problem) return problem;
    const segments = parsePath(path as string, legacy)!;
    const place = placeOf(json, segments);
    if (!place || !holds(place.parent, place.key))
      return `names the path ${named(segments)}, which the arguments do not have`;
  }
  return undefined;
}

/**
 * Why a superjson meta (`{ values?, referentialEqualities?, v? }`) does not describe the JSON it
 * was sent with, or undefined: no other members, format version 1 or none (the older path syntax),
 * every annotation of a type the interface accepts, and every path a member of the JSON.
 */
export function serializationMetaProblem(meta: Record<string, unknown>, json: unknown): string | undefined {
  const stray = Object.keys(meta).find((member) => !META_MEMBERS.has(member));
  if (stray !== undefined)
    return `has the member ${quoteInput(stray)}; a superjson meta has only values, referentialEqualities and v`;
  if (meta.v !== undefined && meta.v !== 1) return 'has an unknown format version "v" (only 1)';
  const legacy = meta.v === undefined;
  return (
    (meta.values === undefined ? undefined : valuesProblem(meta.values, json, legacy)) ??
    (meta.referentialEqualities === undefined ? undefined : referencesProblem(meta.referentialEqualities, json, legacy))
  );
}
