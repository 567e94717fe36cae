import type { SuperJSONResult } from 'superjson';

import { toIsoString } from '../scalars/date-time.js';
import { isDecimalLike } from './rpc-superjson.js';

/**
 * superjson's `serialize` for the values a Prisma result holds, as `rpcSuperJSON` (Decimal and
 * Bytes registered) writes them, without its generic walk: superjson copies the path array and the
 * ancestor list at every node and tries each of its transformation rules on every leaf, which was
 * most of an RPC `findMany`'s CPU time. The output is the same, key order included:
 * - `json`: plain objects and arrays copied, Date → ISO string, bigint → decimal string, Decimal →
 *   `toString()`, Bytes → base64, `undefined` → null, NaN/±Infinity/-0 → their names;
 * - `meta.values`: superjson's flat `{ path: [annotation] }` (or `[annotation]` for a bare value),
 *   in its order;
 * - `meta.referentialEqualities`: superjson tracks the identity of every non-primitive value,
 *   bigints and NaN by value, so equal bigints and a Date shared by two fields are listed as equal.
 *
 * Anything else (a container reached twice or circularly, Map, Set, class instances, invalid
 * dates, prototype keys, sparse arrays, a nested key order superjson's nested annotation objects
 * would reorder) returns undefined: the caller then runs superjson itself.
 */
export function walkRpcResult(value: unknown): SuperJSONResult | undefined {
  return runResultWalk((walk) => walk.root(value));
}

/**
 * Runs a walk over one result: `write` returns its `json` part, writing the rest into the walk
 * (the generic `root`, or a compiled writer that calls the walk's members). Undefined when `write`
 * met what only superjson itself writes the same.
 */
export function runResultWalk(write: (walk: ResultWalk) => unknown): SuperJSONResult | undefined {
  const walk = new ResultWalk();
  try {
    return walk.result(write(walk));
  } catch (error) {
    if (error === UNSUPPORTED) return undefined;
    throw error;
  }
}

/** Thrown inside a walk for a value or shape only superjson itself writes the same. */
export const UNSUPPORTED = Symbol('unsupported by the fast walk');

export type Annotation = readonly unknown[];
export const DATE: Annotation = Object.freeze(['Date']);
export const BIGINT: Annotation = Object.freeze(['bigint']);
const UNDEFINED: Annotation = Object.freeze(['undefined']);
const NUMBER: Annotation = Object.freeze(['number']);
const DECIMAL: Annotation = Object.freeze([Object.freeze(['custom', 'Decimal'])]);
const BYTES: Annotation = Object.freeze([Object.freeze(['custom', 'Bytes'])]);

/** Marks a container in `ResultWalk.seen`; leaves map to the path where they first appeared. */
const CONTAINER = 0;

/** A JavaScript array index, which an object's key order puts before every other key. */
function isIndexKey(key: string): boolean {
  const code = key.charCodeAt(0);
  if (code === 48) return key.length === 1;
  if (!(code >= 49 && code <= 57)) return false;
  for (let i = 1; i < key.length; i++) {
    const digit = key.charCodeAt(i);
    if (digit < 48 || digit > 57) return false;
  }
  return Number(key) < 4294967295;
}

/** superjson's `escapeKey`: `\` and `.` are escaped in paths. */
export function escapeKey(key: string): string {
  return key.includes('.') || key.includes('\\') ? key.replace(/\\/g, '\\\\').replace(/\./g, '\\.') : key;
}

/** Segments of an escaped path: superjson lists equal values' paths shortest (in segments) first. */
export function pathSegmentCount(path: string): number {
  let count = 1;
  for (let i = 0; i < path.length; i++) {
    const char = path.charCodeAt(i);
    if (char === 92) i++;
    else if (char === 46) count++;
  }
  return count;
}

/** A number superjson writes as it is: finite and not -0. */
export function isPlainNumber(value: number): boolean {
  return Number.isFinite(value) && !(value === 0 && 1 / value < 0);
}

/** A plain object the walk copies member by member: not one superjson's Decimal rule would take. */
export function isPlainRecord(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !isDecimalLike(value);
}

/** Member names superjson refuses (prototype pollution): the result is left to it. */
export function isRefusedKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}

function bytesToBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * The state of one result's walk: the generic walk of any value (`root`), and the members a
 * compiled writer (rpc-result-writer.ts) calls for the values it knows, so both write one
 * `meta` in one order.
 */
export class ResultWalk {
  private values: Record<string, Annotation> | Annotation | undefined;
  /** Every non-primitive value met (bigints and NaN by value, as superjson's identity map has them). */
  private readonly seen = new Map<unknown, string | typeof CONTAINER>();
  /** Further paths of leaves met more than once. */
  private repeats: Map<unknown, string[]> | undefined;
  /** Annotations written so far under `values`. */
  private annotations = 0;
  /** No member of the current container has been annotated under a key other than an array index. */
  private ordered = true;

  /** The whole result, once `json` has been written. */
  result(json: unknown): SuperJSONResult {
    const equalities = this.referentialEqualities();
    if (this.values === undefined && equalities === undefined) return { json: json as SuperJSONResult['json'] };
    const meta: Record<string, unknown> = {};
    if (this.values !== undefined) meta.values = this.values;
    if (equalities !== undefined) meta.referentialEqualities = equalities;
    meta.v = 1;
    return { json: json as SuperJSONResult['json'], meta: meta as SuperJSONResult['meta'] };
  }

  /** The generic walk of the whole result; returns its `json`. */
  root(value: unknown): unknown {
    const leaf = this.leafAnnotation(value);
    if (leaf === null) return value;
    if (leaf !== undefined) {
      this.values = leaf;
      return this.transformLeaf(value, leaf, '');
    }
    return this.records(() => this.container(value as object, '', false));
  }

  /**
   * `json` of a root plain object or array that `write` copies: annotations go to a flat object,
   * left out when there are none.
   */
  records(write: () => unknown): unknown {
    this.values = {};
    const json = write();
    if (this.annotations === 0) this.values = undefined;
    return json;
  }

  /**
   * Notes a plain object or array about to be copied: one reached twice (shared or circular) is
   * left to superjson itself, which lists it as a referential equality.
   */
  enter(source: object): void {
    // One lookup: a container is never a leaf, so `set` leaves the size alone only for one met before.
    const { size } = this.seen;
    this.seen.set(source, CONTAINER);
    if (this.seen.size === size) throw UNSUPPORTED;
  }

  /**
   * The annotation of a leaf, null for a value written as is (string, boolean, null, finite
   * number), undefined for a plain object or array. Throws UNSUPPORTED for anything else.
   */
  private leafAnnotation(value: unknown): Annotation | null | undefined {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return null;
      case 'number':
        return isPlainNumber(value) ? null : NUMBER;
      case 'bigint':
        return BIGINT;
      case 'undefined':
        return UNDEFINED;
      case 'object': {
        if (value === null) return null;
        if (Array.isArray(value)) return undefined;
        const prototype = Object.getPrototypeOf(value);
        if (prototype === Object.prototype || prototype === null) {
          if (isDecimalLike(value)) throw UNSUPPORTED;
          return undefined;
        }
        if (value instanceof Date) {
          if (Number.isNaN(value.getTime())) throw UNSUPPORTED;
          return DATE;
        }
        if (isDecimalLike(value)) return DECIMAL;
        if (value instanceof Uint8Array) return BYTES;
        throw UNSUPPORTED;
      }
      default:
        throw UNSUPPORTED;
    }
  }

  /** The JSON form of an annotated leaf at `path`, recording its identity as superjson does. */
  private transformLeaf(value: unknown, annotation: Annotation, path: string): unknown {
    // -0, ±Infinity and undefined are primitives to superjson: no identity. NaN and bigints are not.
    if (annotation !== UNDEFINED && (annotation !== NUMBER || Number.isNaN(value))) this.noteLeaf(value, path);
    if (annotation === DATE) return toIsoString(value as Date);
    if (annotation === BIGINT) return (value as bigint).toString();
    if (annotation === DECIMAL) return (value as { toString(): string }).toString();
    if (annotation === BYTES) return bytesToBase64(value as Uint8Array);
    if (annotation === UNDEFINED) return null;
    if (Number.isNaN(value)) return 'NaN';
    if (value === 0) return '-0';
    return (value as number) > 0 ? 'Infinity' : '-Infinity';
  }

  private noteLeaf(value: unknown, path: string): void {
    const first = this.seen.get(value);
    if (first === undefined) {
      this.seen.set(value, path);
      return;
    }
    this.repeats ??= new Map();
    const more = this.repeats.get(value);
    if (more) more.push(path);
    else this.repeats.set(value, [path]);
  }

  /**
   * Copies an array or plain object; `prefix` is its path followed by a dot ('' at the root).
   * superjson builds one annotation object per container and flattens it into its parent's, so an
   * array index key annotated after another key would be moved ahead of it there; that order is
   * left to superjson itself.
   */
  private container(source: object, prefix: string, nested: boolean): unknown {
    this.enter(source);
    const outerOrdered = this.ordered;
    this.ordered = true;
    let copy: unknown;
    if (Array.isArray(source)) {
      const array: unknown[] = new Array(source.length);
      for (let index = 0; index < source.length; index++) {
        if (!(index in source)) throw UNSUPPORTED;
        array[index] = this.member(source[index], String(index), true, prefix, nested);
      }
      copy = array;
    } else {
      const record = source as Record<string, unknown>;
      const object: Record<string, unknown> = {};
      for (const key of Object.keys(record)) {
        if (isRefusedKey(key)) throw UNSUPPORTED;
        object[key] = this.member(record[key], key, false, prefix, nested);
      }
      copy = object;
    }
    this.ordered = outerOrdered;
    return copy;
  }

  /**
   * A member of a plain object under a key that is not an array index (a model's field name), as
   * the generic walk writes it: what a compiled writer has no fast path for.
   */
  field(value: unknown, key: string, prefix: string): unknown {
    return this.member(value, key, false, prefix, prefix !== '');
  }

  /**
   * A leaf whose annotation the caller has checked (a Date or bigint of a typed field), under a
   * key that is not an array index, at its escaped path.
   */
  annotated(value: unknown, annotation: Annotation, path: string): unknown {
    this.ordered = false;
    (this.values as Record<string, Annotation>)[path] = annotation;
    this.annotations++;
    return this.transformLeaf(value, annotation, path);
  }

  /** One member of a container: written as is, annotated, or copied as a nested container. */
  private member(value: unknown, key: string, isArrayIndex: boolean, prefix: string, nested: boolean): unknown {
    const leaf = this.leafAnnotation(value);
    if (leaf === null) return value;
    const path = prefix + (isArrayIndex ? key : escapeKey(key));
    if (leaf === undefined) {
      const before = this.annotations;
      const json = this.container(value as object, `${path}.`, true);
      if (this.annotations > before) this.ordered = false;
      return json;
    }
    if (nested && (isArrayIndex || isIndexKey(key))) {
      if (!this.ordered) throw UNSUPPORTED;
    } else {
      this.ordered = false;
    }
    (this.values as Record<string, Annotation>)[path] = leaf;
    this.annotations++;
    return this.transformLeaf(value, leaf, path);
  }

  /** superjson's `referentialEqualities`: per repeated value, in order of first appearance. */
  private referentialEqualities(): Record<string, string[]> | undefined {
    if (!this.repeats) return undefined;
    const equalities: Record<string, string[]> = {};
    for (const [value, first] of this.seen) {
      const more = this.repeats.get(value);
      if (!more) continue;
      const paths = [first as string, ...more]
        .map((path) => ({ path, segments: pathSegmentCount(path) }))
        .sort((a, b) => a.segments - b.segments)
        .map(({ path }) => path);
      equalities[paths[0]!] = paths.slice(1);
    }
    return equalities;
  }
}
