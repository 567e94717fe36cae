import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { whereMatches } from '../prisma/row-filter.js';
import type { ReadFootprint, RowChange } from './read-footprint.js';
import { isSlotValue, whereShape } from './where-shape.js';

type Row = Readonly<Record<string, unknown>>;

/** The footprints whose condition on a model is one `where`, with how many times each holds it. */
interface Variant {
  where: unknown;
  /** The where's slot values (`WhereShape`). */
  values: unknown[];
  footprints: Map<ReadFootprint, number>;
}

/**
 * The conditions on one model whose wheres share a shape (`whereShape`), by their slot values.
 * When the wheres differ in one slot only (each caller's id), a changed row is checked twice
 * whatever their number: once with the where whose slot holds the row's own value, once with any
 * other, which answers for all the others alike (their equality is false, or unknown on a NULL).
 */
class Shape {
  private readonly variants = new Map<string, Variant>();
  /** Per slot, how many variants hold each value. */
  private readonly counts: Map<unknown, number>[];
  /** The variants by the value of the one slot they differ in; null when they differ in none or several. */
  private bySlot?: { field: FieldMeta; variants: Map<unknown, Variant> } | null;

  constructor(
    private readonly model: ModelMeta,
    private readonly fields: FieldMeta[],
  ) {
    this.counts = fields.map(() => new Map());
  }

  get empty(): boolean {
    return this.variants.size === 0;
  }

  add(footprint: ReadFootprint, where: unknown, values: unknown[]): void {
    const key = JSON.stringify(values);
    let variant = this.variants.get(key);
    if (!variant) {
      variant = { where, values, footprints: new Map() };
      this.variants.set(key, variant);
      this.count(values, 1);
    }
    variant.footprints.set(footprint, (variant.footprints.get(footprint) ?? 0) + 1);
  }

  remove(footprint: ReadFootprint, values: unknown[]): void {
    const key = JSON.stringify(values);
    const variant = this.variants.get(key);
    const held = variant?.footprints.get(footprint);
    if (!variant || held === undefined) return;
    if (held > 1) variant.footprints.set(footprint, held - 1);
    else variant.footprints.delete(footprint);
    if (variant.footprints.size > 0) return;
    this.variants.delete(key);
    this.count(values, -1);
  }

  private count(values: unknown[], delta: number): void {
    values.forEach((value, slot) => {
      const counts = this.counts[slot]!;
      const count = (counts.get(value) ?? 0) + delta;
      if (count > 0) counts.set(value, count);
      else counts.delete(value);
    });
    this.bySlot = undefined;
  }

  /** Adds to `into` the footprints whose condition `row` may satisfy (`whereMatches` not false). */
  collect(row: Row, provider: string, into: Set<ReadFootprint>): void {
    const matches = (variant: Variant) => whereMatches(this.model, variant.where, row, provider) !== false;
    const bySlot = this.slotIndex();
    const cell = bySlot && row[bySlot.field.name];
    // A string the slots' values may equal byte for byte without being the same string: each is checked.
    if (!bySlot || (typeof cell === 'string' && !isSlotValue(cell))) {
      for (const variant of this.variants.values()) if (matches(variant)) addAll(variant, into);
      return;
    }
    const own = bySlot.variants.get(cell);
    if (own && matches(own)) addAll(own, into);
    const other = firstOther(bySlot.variants, own);
    if (other && matches(other))
      for (const variant of this.variants.values()) if (variant !== own) addAll(variant, into);
  }

  private slotIndex(): { field: FieldMeta; variants: Map<unknown, Variant> } | null {
    if (this.bySlot !== undefined) return this.bySlot;
    const varying = this.counts.flatMap((counts, slot) => (counts.size > 1 ? [slot] : []));
    if (varying.length !== 1) return (this.bySlot = null);
    const slot = varying[0]!;
    const variants = new Map<unknown, Variant>();
    for (const variant of this.variants.values()) variants.set(variant.values[slot], variant);
    return (this.bySlot = { field: this.fields[slot]!, variants });
  }
}

function addAll(variant: Variant, into: Set<ReadFootprint>): void {
  for (const footprint of variant.footprints.keys()) into.add(footprint);
}

/** A variant other than `own`: one of the first two. */
function firstOther(variants: Map<unknown, Variant>, own: Variant | undefined): Variant | undefined {
  for (const variant of variants.values()) if (variant !== own) return variant;
  return undefined;
}

/** The footprints that reach one model: those that cannot tell which rows, and the conditions of the others. */
interface ModelFootprints {
  reaching: Set<ReadFootprint>;
  undecided: Set<ReadFootprint>;
  shapes: Map<string, Shape>;
  /** Footprints with a condition of no shape, checked one by one. */
  unshaped: Set<ReadFootprint>;
}

/**
 * The footprints of the live queries' answers and who holds each (the subscribers of one run
 * share its footprint), indexed so that a commit's changed rows find the footprints they concern
 * without checking each: the same answers as `ReadFootprint.concerns` for every footprint, or
 * more (never fewer), at a cost that grows with the shapes of the queries rather than with their
 * number. A footprint is indexed while someone holds it.
 */
export class FootprintIndex<Holder> {
  private readonly held = new Map<ReadFootprint, Set<Holder>>();
  private readonly models = new Map<string, ModelFootprints>();

  /** `provider`: the database whose semantics the conditions are evaluated with (`whereMatches`). */
  constructor(private readonly provider: string) {}

  add(footprint: ReadFootprint, holder: Holder): void {
    const holders = this.held.get(footprint);
    if (holders) holders.add(holder);
    else {
      this.held.set(footprint, new Set([holder]));
      this.index(footprint, true);
    }
  }

  remove(footprint: ReadFootprint, holder: Holder): void {
    const holders = this.held.get(footprint);
    if (!holders?.delete(holder) || holders.size > 0) return;
    this.held.delete(footprint);
    this.index(footprint, false);
  }

  private index(footprint: ReadFootprint, adding: boolean): void {
    for (const model of footprint.models) {
      const entry = this.entry(model);
      const toggle = (set: Set<ReadFootprint>) => (adding ? set.add(footprint) : set.delete(footprint));
      toggle(entry.reaching);
      if (footprint.undecided.has(model)) toggle(entry.undecided);
      for (const { model: meta, where } of footprint.conditions.get(model) ?? []) {
        const shape = whereShape(meta, where);
        if (!shape) {
          toggle(entry.unshaped);
          continue;
        }
        let shaped = entry.shapes.get(shape.key);
        if (!shaped) entry.shapes.set(shape.key, (shaped = new Shape(meta, shape.fields)));
        if (adding) shaped.add(footprint, where, shape.values);
        else shaped.remove(footprint, shape.values);
        if (shaped.empty) entry.shapes.delete(shape.key);
      }
      if (entry.reaching.size === 0) this.models.delete(model);
    }
  }

  private entry(model: string): ModelFootprints {
    let entry = this.models.get(model);
    if (!entry) {
      entry = { reaching: new Set(), undecided: new Set(), shapes: new Map(), unshaped: new Set() };
      this.models.set(model, entry);
    }
    return entry;
  }

  /** The holders of the footprints that `changes` may concern. */
  concerned(changes: readonly RowChange[]): Set<Holder> {
    const holders = new Set<Holder>();
    for (const footprint of this.footprints(changes))
      for (const holder of this.held.get(footprint)!) holders.add(holder);
    return holders;
  }

  private footprints(changes: readonly RowChange[]): Set<ReadFootprint> {
    const found = new Set<ReadFootprint>();
    for (const change of changes) {
      const entry = this.models.get(change.model);
      if (!entry) continue;
      const rows = [change.before, change.after].filter((row) => row !== undefined);
      const all = rows.length === 0 ? entry.reaching : entry.undecided;
      for (const footprint of all) found.add(footprint);
      if (rows.length === 0) continue;
      for (const footprint of entry.unshaped) if (footprint.concerns(change)) found.add(footprint);
      for (const shape of entry.shapes.values()) for (const row of rows) shape.collect(row, this.provider, found);
    }
    return found;
  }
}
