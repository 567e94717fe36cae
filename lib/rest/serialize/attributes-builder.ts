import type { AttributeEncoder } from '../attribute-codec.js';

type Row = Record<string, unknown>;

/** An attribute and how its stored value is written. */
export interface AttributeSlot {
  readonly name: string;
  readonly encode: AttributeEncoder;
  /** The value is written as stored (strings, numbers, booleans, enums, Json). */
  readonly verbatim: boolean;
}

/** A resource's `attributes` member from its row. */
export type AttributesBuilder = (row: Row) => Record<string, unknown>;

/**
 * The model's `attributes` as one object literal, compiled once per model: V8 then builds every
 * resource's attributes with one hidden class and named stores, as a hand-written renderer does,
 * where assigning computed names one by one costs a megamorphic keyed store per attribute. Field
 * names come from the generated metadata and are emitted as JSON string literals, so no name can be code. A field the row lacks (left out
 * of a `select`) is `undefined`, which JSON leaves out as the generic loop does. Where code
 * generation is disabled (`--disallow-code-generation-from-strings`), the generic loop is used.
 */
export function compileAttributesBuilder(slots: readonly AttributeSlot[]): AttributesBuilder {
  const members = slots.map(({ name, verbatim }, index) => {
    const key = JSON.stringify(name);
    // A literal `"__proto__": …` would set the prototype; a computed key defines the member.
    const member = name === '__proto__' ? `[${key}]` : key;
    return verbatim
      ? `${member}: row[${key}]`
      : `${member}: (value = row[${key}]) == null ? value : encoders[${index}](value)`;
  });
  const source = `return function attributes(row) {\n  let value;\n  return {\n    ${members.join(',\n    ')}\n  };\n};`;
  try {
    return new Function('encoders', source)(slots.map((slot) => slot.encode)) as AttributesBuilder;
  } catch {
    return (row) => pickAttributes(slots, row);
  }
}

/** The same one attribute at a time, leaving out what the row lacks, and keeping only `fieldset`'s members when given. */
export function pickAttributes(
  slots: readonly AttributeSlot[],
  row: Row,
  fieldset?: ReadonlySet<string>,
): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const { name, encode } of slots) {
    const value = row[name];
    if (value !== undefined && (!fieldset || fieldset.has(name))) defineMember(attributes, name, encode(value));
  }
  return attributes;
}

/** `object[name] = value`, except that `__proto__` becomes a member instead of setting the prototype. */
export function defineMember(object: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
  else object[name] = value;
}
