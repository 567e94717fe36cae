import { IsOptional } from 'class-validator';

/** One option or sub-option: how start-up validation checks it and what applies when it is absent. */
export interface OptionSpec<V = unknown> {
  /** class-validator property decorators, applied in this order to the option's property. */
  readonly rules: readonly PropertyDecorator[];
  /** The value that applies when the option is absent. */
  readonly default?: V;
  /** What docs/options.md states when the option is absent, where that is no value (`required`, `off`). */
  readonly documented?: string;
  /** The sub-options of an object option (of each item, for an array of objects). */
  readonly options?: SomeOptionTable;
  /** One of the few options most applications set (listed first in the docs and the README). */
  readonly core?: true;
}

/**
 * A spec for every property of `T` and no other: an option added to the interface without a spec,
 * or a spec without an option, fails to compile where a table `satisfies` this.
 */
export type OptionTable<T> = { readonly [K in keyof Required<T>]: OptionSpec<Exclude<T[K], undefined>> };

/** A table of any options (`OptionTable` checks each against its interface). */
export type SomeOptionTable = Readonly<Record<string, OptionSpec>>;

/** The defaults a table states, typed by its entries. */
export type DefaultsOf<T> = {
  -readonly [K in keyof T as T[K] extends { default: unknown } ? K : never]: T[K] extends { default: infer D }
    ? D
    : never;
};

/** The `default` of every entry of a table that has one. */
export function defaultsOf<T extends SomeOptionTable>(table: T): DefaultsOf<T> {
  return Object.fromEntries(
    Object.entries(table).flatMap(([name, spec]) => ('default' in spec ? [[name, spec.default]] : [])),
  ) as DefaultsOf<T>;
}

/** The rules of an option that may be left out. */
export const optional = (...rules: PropertyDecorator[]): PropertyDecorator[] => [IsOptional(), ...rules];

/** What options resolve to: the given ones, and the default of each one left out or `undefined`. */
export type WithDefaults<T, D> = Omit<T, keyof D> & {
  [K in keyof D]: K extends keyof T ? Exclude<T[K], undefined> : D[K];
};

/** The given options over the defaults; `undefined` counts as left out, as for any optional property. */
export function withDefaults<T extends object, D extends object>(
  defaults: D,
  given: T | undefined,
): WithDefaults<T, D> {
  const present = Object.entries(given ?? {}).filter(([, value]) => value !== undefined);
  return { ...defaults, ...Object.fromEntries(present) } as WithDefaults<T, D>;
}

/** A class-validator schema class per option table, its properties decorated with the table's rules. */
const schemas = new WeakMap<SomeOptionTable, new () => object>();

function schemaOf(table: SomeOptionTable): new () => object {
  let schema = schemas.get(table);
  if (!schema) {
    schema = class {};
    for (const [name, spec] of Object.entries(table))
      for (const rule of spec.rules) rule(schema.prototype as object, name);
    schemas.set(table, schema);
  }
  return schema;
}

/** Options as instances of their tables' schema classes, as class-validator's nested validation needs. */
function candidate(table: SomeOptionTable, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => candidate(table, item));
  if (typeof value !== 'object' || value === null) return value;
  const instance = Object.assign(new (schemaOf(table))(), value) as Record<string, unknown>;
  for (const [name, spec] of Object.entries(table))
    if (spec.options) instance[name] = candidate(spec.options, instance[name]);
  return instance;
}

/** What class-validator's `validateSync` checks options against their table with. */
export const validationCandidate = (table: SomeOptionTable, options: object): object =>
  candidate(table, options) as object;
