import type { ModelMeta } from '../metadata/model-meta.types.js';
import type { ModelRegistry } from '../metadata/model-registry.js';
import { answersRows, operationNames } from '../metadata/prisma-operations.js';
import { compileResultWriter, type RpcResultWriter } from './rpc-result-writer.js';

/** Operations that answer with rows of their model (or null), shaped by `select`, `include` and `omit`. */
export const ROW_OPERATIONS: ReadonlySet<string> = operationNames(answersRows);

const SELECTION_KEYS = ['select', 'include', 'omit'] as const;

/** A longer selection is rare enough for the generic walk, and keeps the cache's keys small. */
const MAX_SHAPE_LENGTH = 1_000;

/** Compiled writers kept; past it the oldest goes. */
const DEFAULT_CAPACITY = 200;

/**
 * The canonical text of the `select`/`include`/`omit` tree of an operation's arguments (an empty
 * string when there is none): the members of each, in order, with the nested trees of relations
 * and `_count`. Other arguments (`where`, `orderBy`, `take`) do not change what a row holds.
 */
export function selectionShape(args: unknown): string {
  if (typeof args !== 'object' || args === null) return '';
  let text = '';
  for (const key of SELECTION_KEYS) {
    const selection = (args as Record<string, unknown>)[key];
    if (typeof selection !== 'object' || selection === null) continue;
    text += `${key}{`;
    for (const [name, entry] of Object.entries(selection))
      text += `${JSON.stringify(name)}:${typeof entry === 'object' && entry !== null ? `(${selectionShape(entry)})` : String(entry)},`;
    text += '}';
  }
  return text;
}

/**
 * The compiled result writers of one module instance, by model and selection shape: each place
 * of a selection then meets rows of one key order, compiled once (rpc-result-writer.ts). A map in
 * insertion order, bounded, so clients sending ever new selections cannot grow it.
 */
export class RpcResultWriters {
  private readonly writers = new Map<string, RpcResultWriter>();

  constructor(
    private readonly registry: ModelRegistry,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  /** The writer for results of `operation` on `model` called with `args`; undefined for the generic walk. */
  find(model: ModelMeta, operation: string, args: unknown): RpcResultWriter | undefined {
    if (!ROW_OPERATIONS.has(operation)) return undefined;
    const shape = selectionShape(args);
    if (shape.length > MAX_SHAPE_LENGTH) return undefined;
    const key = `${model.name}\n${shape}`;
    let writer = this.writers.get(key);
    if (!writer) {
      if (this.writers.size >= this.capacity) this.writers.delete(this.writers.keys().next().value!);
      writer = compileResultWriter(this.registry, model);
      this.writers.set(key, writer);
    }
    return writer;
  }
}
