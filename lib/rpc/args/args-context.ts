import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';
import { type ModelFieldModes, NO_FIELD_MODES, virtualField, writeAccess } from '../../rules/field-modes.js';
import { type ArgPath, child } from './arg-path.js';
import { argsError, type ArgsOrigin, unknownKey } from './args.error.js';

/** What every step of the grammar walk needs: the schema as the caller may see it, and how to fail. */
export interface ArgsContext {
  readonly registry: ModelRegistry;
  readonly provider: string;
  readonly origin: ArgsOrigin;
  readonly maxSelectionDepth: number;
  /** Fields the caller's policies hide, by Prisma model name. */
  readonly hiddenFields?: (modelName: string) => ReadonlySet<string>;
  /** How the caller may use each model's fields, by the rules (write-only, server-set, internal, virtual). */
  readonly fieldModes?: (modelName: string) => ModelFieldModes;
}

export type Value = unknown;
/** One production of the grammar: checks a value at a path and returns it normalised. */
export type Rule = (ctx: ArgsContext, value: Value, path: ArgPath | undefined) => Value;

export function fail(ctx: ArgsContext, path: ArgPath | undefined, problem: string): never {
  throw argsError(ctx.origin, path, problem);
}

/**
 * A field the caller may name: it exists, is not hidden by the policies and, for a relation,
 * leads to an exposed model. Anything else is answered as an unknown key.
 */
export function visibleField(ctx: ArgsContext, model: ModelMeta, name: string): FieldMeta | undefined {
  const field = ctx.registry.findField(model, name);
  if (!field || ctx.hiddenFields?.(model.name).has(name)) return undefined;
  return field;
}

/** A field a write's data may give, as the rules let the caller: a column or relation, a virtual field, or one the server sets. */
export interface WriteField {
  readonly field: FieldMeta;
  readonly mode: 'column' | 'virtual' | 'server-set';
}

const NONE: ReadonlySet<string> = new Set();

/**
 * The write-side lookup: write-only columns (hidden for reads) are given, virtual fields as a scalar
 * of their type, server-set ones found so they can be refused as such. Internal columns, hidden
 * fields and anything else the caller may not name are undefined (answered as unknown keys).
 */
export function writeField(ctx: ArgsContext, model: ModelMeta, name: string): WriteField | undefined {
  const modes = ctx.fieldModes?.(model.name) ?? NO_FIELD_MODES;
  const field = ctx.registry.findField(model, name);
  if (!field) {
    const virtual = virtualField(modes, name);
    return virtual && { field: virtual, mode: 'virtual' };
  }
  const access = writeAccess(modes, ctx.hiddenFields?.(model.name) ?? NONE, name);
  if (access === 'unknown') return undefined;
  return { field, mode: access === 'server-set' ? 'server-set' : 'column' };
}

/** The related model of a visible relation field (exposed by construction). */
export function relatedModel(ctx: ArgsContext, field: FieldMeta): ModelMeta {
  return ctx.registry.findByModelName(field.relation!.model)!;
}

/** A JSON object from the client (not an array, not a Date, Decimal or byte array). */
export function isRecord(value: Value): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function expectRecord(
  ctx: ArgsContext,
  value: Value,
  path: ArgPath | undefined,
  what = 'an object',
): Record<string, unknown> {
  if (!isRecord(value)) fail(ctx, path, `expected ${what}`);
  return value;
}

/**
 * Walks the members of an object: `member` returns the normalised value of a known key, or
 * `undefined`-the-symbol NOT_ALLOWED for a key that is not part of the grammar there. Members set
 * to `undefined` (superjson's unset optionals) are dropped, as Prisma drops them. The result is
 * built with `Object.fromEntries`, which defines own properties and never calls a prototype setter.
 */
export const UNKNOWN = Symbol('unknown key');

export function mapMembers(
  ctx: ArgsContext,
  value: Value,
  path: ArgPath | undefined,
  member: (key: string, value: Value, path: ArgPath) => Value | typeof UNKNOWN,
  what?: string,
): Record<string, unknown> {
  const record = expectRecord(ctx, value, path, what);
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(record)) {
    const memberPath = child(path, key);
    if (record[key] === undefined) continue;
    const result = member(key, record[key], memberPath);
    if (result === UNKNOWN) fail(ctx, memberPath, unknownKey(key));
    entries.push([key, result]);
  }
  return Object.fromEntries(entries);
}

/** A value or an array of values, each checked by `rule`. */
export function oneOrMany(rule: Rule): Rule {
  return (ctx, value, path) => (Array.isArray(value) ? manyOf(rule)(ctx, value, path) : rule(ctx, value, path));
}

/** An array, each item checked by `rule`. */
export function manyOf(rule: Rule): Rule {
  return (ctx, value, path) => {
    if (!Array.isArray(value)) fail(ctx, path, 'expected an array');
    return value.map((item, index) => rule(ctx, item, child(path, index)));
  };
}

/** Rules by key: the grammar of an object with a fixed set of optional members. */
export function objectOf(members: Readonly<Record<string, Rule>>, what?: string): Rule {
  const rules = new Map(Object.entries(members));
  return (ctx, value, path) =>
    mapMembers(
      ctx,
      value,
      path,
      (key, member, memberPath) => {
        const rule = rules.get(key);
        return rule ? rule(ctx, member, memberPath) : UNKNOWN;
      },
      what,
    );
}
