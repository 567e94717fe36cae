import type { SuperJSONResult } from 'superjson';

import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import type { ModelRegistry } from '../metadata/model-registry.js';
import {
  BIGINT,
  DATE,
  escapeKey,
  isPlainNumber,
  isPlainRecord,
  isRefusedKey,
  type ResultWalk,
  runResultWalk,
  UNSUPPORTED,
} from './rpc-result-walk.js';

/**
 * Writes what superjson's `serialize` would for one result of a model-returning operation, or
 * returns undefined when the result is not one it is sure of (the caller then walks it generically).
 */
export type RpcResultWriter = (result: unknown) => SuperJSONResult | undefined;

/** Writes one member of a row; `prefix` is the row's path followed by a dot ('' at the root). */
type MemberWriter = (walk: ResultWalk, value: unknown, prefix: string) => unknown;

/** Writes a row's copy, its members in one key order. */
type LayoutWriter = (walk: ResultWalk, row: Record<string, unknown>, prefix: string) => unknown;

interface Layout {
  readonly keys: readonly string[];
  readonly write: LayoutWriter;
}

/**
 * Key orders kept per place of a selection: Prisma writes every row of a query in one order
 * (the arguments' and the model's); rows a hook or policy rebuilt may differ, and past this many
 * orders the generic walk serves them rather than compiling without end.
 */
const MAX_LAYOUTS = 4;

/**
 * The writer of a model's results, rows or a list of them, nested relations compiled as their
 * rows are met. It writes the same `json` and `meta` as the generic walk (rpc-result-walk.ts) by
 * calling into the same walk: typed fields whose values are of the expected kind take a fast
 * path, every other value is the walk's own member, and a row with a key that is not a field of
 * its model (or `_count`), a row that is not a plain object or a shared row leaves the whole
 * result to the generic walk.
 */
export function compileResultWriter(registry: ModelRegistry, model: ModelMeta): RpcResultWriter {
  const rows = new RowsWriter(registry, model);
  return (result) => {
    if (Array.isArray(result)) return runResultWalk((walk) => walk.records(() => rows.list(walk, result, '')));
    if (typeof result === 'object' && result !== null && isPlainRecord(result))
      return runResultWalk((walk) => walk.records(() => rows.row(walk, result, '')));
    return undefined;
  };
}

/** The rows of one model at one place of a selection (the root, or a relation under it). */
class RowsWriter {
  private readonly layouts: Layout[] = [];
  private readonly relations = new Map<string, RowsWriter>();

  constructor(
    private readonly registry: ModelRegistry,
    private readonly model: ModelMeta,
  ) {}

  /** A to-many relation's rows, or the list a `findMany` returns. */
  list(walk: ResultWalk, rows: readonly unknown[], prefix: string): unknown[] {
    walk.enter(rows);
    const copy: unknown[] = new Array(rows.length);
    for (let index = 0; index < rows.length; index++) copy[index] = this.row(walk, rows[index], `${prefix}${index}.`);
    return copy;
  }

  /** One row: a plain object, met once, whose keys are fields of the model. */
  row(walk: ResultWalk, row: unknown, prefix: string): unknown {
    if (typeof row !== 'object' || row === null || !isPlainRecord(row)) throw UNSUPPORTED;
    walk.enter(row);
    return this.layout(Object.keys(row)).write(walk, row as Record<string, unknown>, prefix);
  }

  /** The compiled writer of rows with these keys in this order. */
  private layout(keys: readonly string[]): Layout {
    for (const layout of this.layouts) if (sameKeys(layout.keys, keys)) return layout;
    if (this.layouts.length === MAX_LAYOUTS) throw UNSUPPORTED;
    const layout = {
      keys,
      write: compileLayout(
        keys,
        keys.map((key) => this.member(key)),
      ),
    };
    this.layouts.push(layout);
    return layout;
  }

  private member(key: string): MemberWriter {
    const field = this.registry.findField(this.model, key);
    if (field && !isRefusedKey(key)) return field.relation ? this.relationWriter(field) : scalarWriter(field);
    // `_count: { posts: 2 }` holds numbers only: the generic walk copies it quickly.
    if (key === '_count') return (walk, value, prefix) => walk.field(value, key, prefix);
    throw UNSUPPORTED;
  }

  private relationWriter(field: FieldMeta): MemberWriter {
    let rows = this.relations.get(field.name);
    if (!rows) {
      const target = this.registry.findByModelName(field.relation!.model);
      if (!target) throw UNSUPPORTED;
      rows = new RowsWriter(this.registry, target);
      this.relations.set(field.name, rows);
    }
    const related = rows;
    const { name } = field;
    const path = escapeKey(name);
    if (field.isList)
      return (walk, value, prefix) =>
        Array.isArray(value) ? related.list(walk, value, `${prefix}${path}.`) : walk.field(value, name, prefix);
    return (walk, value, prefix) => (value === null ? null : related.row(walk, value, `${prefix}${path}.`));
  }
}

/**
 * A scalar or enum member: the values a field of its type holds take a fast path (written as
 * they are, or annotated without asking which annotation applies); any other value, null included,
 * is the generic walk's. Decimal, Bytes, Json and list fields are always the generic walk's: it
 * tells Decimal instances from plain objects and walks arbitrary Json as superjson does.
 */
function scalarWriter(field: FieldMeta): MemberWriter {
  const { name } = field;
  const path = escapeKey(name);
  const generic: MemberWriter = (walk, value, prefix) => walk.field(value, name, prefix);
  if (field.isList) return generic;
  if (field.kind === 'enum')
    return (walk, value, prefix) => (typeof value === 'string' ? value : generic(walk, value, prefix));
  switch (field.type) {
    case 'String':
      return (walk, value, prefix) => (typeof value === 'string' ? value : generic(walk, value, prefix));
    case 'Boolean':
      return (walk, value, prefix) => (typeof value === 'boolean' ? value : generic(walk, value, prefix));
    case 'Int':
    case 'Float':
      return (walk, value, prefix) =>
        typeof value === 'number' && isPlainNumber(value) ? value : generic(walk, value, prefix);
    case 'DateTime':
      return (walk, value, prefix) =>
        value instanceof Date && !Number.isNaN(value.getTime())
          ? walk.annotated(value, DATE, prefix + path)
          : generic(walk, value, prefix);
    case 'BigInt':
      return (walk, value, prefix) =>
        typeof value === 'bigint' ? walk.annotated(value, BIGINT, prefix + path) : generic(walk, value, prefix);
    default:
      return generic;
  }
}

function sameKeys(expected: readonly string[], actual: readonly string[]): boolean {
  if (expected.length !== actual.length) return false;
  for (let index = 0; index < expected.length; index++) if (expected[index] !== actual[index]) return false;
  return true;
}

/**
 * A row's copy as one object literal, compiled once per key order as the REST attributes are
 * (attributes-builder.ts): one hidden class and named stores per row instead of a keyed store per
 * member, members written left to right so `meta.values` keeps the key order. Keys are field
 * names of the metadata (never `__proto__`), emitted as JSON string literals. Where code
 * generation is disabled, a loop writes the same object.
 */
function compileLayout(keys: readonly string[], members: readonly MemberWriter[]): LayoutWriter {
  const entries = keys.map((key, index) => {
    const name = JSON.stringify(key);
    return `${name}: members[${index}](walk, row[${name}], prefix)`;
  });
  const source = `return function writeRow(walk, row, prefix) {\n  return {\n    ${entries.join(',\n    ')}\n  };\n};`;
  try {
    return new Function('members', source)(members) as LayoutWriter;
  } catch {
    return (walk, row, prefix) => {
      const copy: Record<string, unknown> = {};
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index]!;
        copy[key] = members[index]!(walk, row[key], prefix);
      }
      return copy;
    };
  }
}
