import { CrudApiError } from '../errors/crud-api.error.js';
import { quoteInput } from '../errors/quote-input.js';
import type { ModelMeta, ScalarType } from '../metadata/model-meta.types.js';
import { INVALID, SCALAR_CODECS } from '../scalars/scalar-codecs.js';

/** The values of a model's id fields, by field name. */
export type IdValues = Record<string, unknown>;

/** The types an id may have. */
const ID_TYPES: ReadonlySet<string> = new Set<ScalarType>(['Int', 'BigInt', 'String']);

/** One id part from the URL, read as a filter value of its field's type; undefined when it cannot be one. */
function parseIdPart(type: string, raw: string): unknown {
  const parsed = ID_TYPES.has(type) ? SCALAR_CODECS[type as ScalarType].fromText(raw) : INVALID;
  return parsed === INVALID ? undefined : parsed;
}

/**
 * The id values a URL or identifier names, or undefined when it is malformed for the model
 * (a malformed id names no resource: callers answer 404, never 500).
 */
export function tryParseResourceId(model: ModelMeta, raw: string | number, divider: string): IdValues | undefined {
  const text = String(raw);
  const parts = model.idFields.length === 1 ? [text] : text.split(divider);
  if (parts.length !== model.idFields.length) return undefined;
  const values: IdValues = {};
  for (const [index, name] of model.idFields.entries()) {
    const value = parseIdPart(model.fields[name]!.type, parts[index]!);
    if (value === undefined) return undefined;
    values[name] = value;
  }
  return values;
}

/** Like `tryParseResourceId`, answering 404 for a malformed id. */
export function parseResourceId(model: ModelMeta, typeName: string, raw: string | number, divider: string): IdValues {
  const values = tryParseResourceId(model, raw, divider);
  if (!values) throw new CrudApiError('not-found', `No ${typeName} with id ${quoteInput(raw)}.`);
  return values;
}

/** The Prisma unique selector for id values: `{ id }`, or `{ userId_postId: { userId, postId } }`. */
export function uniqueWhere(model: ModelMeta, values: IdValues): Record<string, unknown> {
  if (model.idFields.length === 1) return values;
  const constraint = model.uniqueConstraints.find(
    (candidate) =>
      candidate.fields.length === model.idFields.length && candidate.fields.every((f, i) => f === model.idFields[i]),
  );
  return { [constraint?.name ?? model.idFields.join('_')]: values };
}

/** The JSON:API id of a row: a number for a single integer id, else the id fields joined by the divider. */
export function formatResourceId(model: ModelMeta, row: Record<string, unknown>, divider: string): string | number {
  const names = model.idFields;
  return names.length === 1
    ? formatIdValue(row[names[0]!])
    : formatIdParts(
        names.map((name) => row[name]),
        divider,
      );
}

/** The JSON:API id of id values given in id-field order (as a row's foreign key holds them). */
export function formatIdParts(parts: readonly unknown[], divider: string): string | number {
  return parts.length === 1 ? formatIdValue(parts[0]) : parts.map(String).join(divider);
}

/** A single-field id: integers stay numbers, everything else is a string. */
export function formatIdValue(value: unknown): string | number {
  return typeof value === 'number' ? value : String(value);
}
