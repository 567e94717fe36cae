import { CrudApiError } from '../errors/crud-api.error.js';
import type { FieldMeta } from '../metadata/model-meta.types.js';
import { codecOf, INVALID, type ScalarCodec, VERBATIM } from '../scalars/scalar-codecs.js';

function codec(field: FieldMeta, enums: Readonly<Record<string, readonly string[]>>): ScalarCodec {
  const found = codecOf(field, enums);
  if (!found) throw new CrudApiError('internal-error', `No codec for field type ${field.type}.`);
  return found;
}

/** Writes a stored value of one field as its attribute value. */
export type AttributeEncoder = (value: unknown) => unknown;

/**
 * The encoder of a field's attribute values, chosen once per field: rendering calls it for every
 * attribute of every resource. Enum, String, number, Boolean and Json values are written as they are.
 */
export function attributeEncoder(field: FieldMeta): AttributeEncoder {
  const { format } = codec(field, {});
  if (format === VERBATIM) return VERBATIM;
  if (field.isList)
    return (value) => (value == null ? null : Array.isArray(value) ? value.map((item) => format(item)) : format(value));
  return (value) => (value == null ? null : format(value));
}

/** Whether an encoder writes values as they are stored. */
export function encodesVerbatim(encoder: AttributeEncoder): boolean {
  return encoder === VERBATIM;
}

/** An attribute value decoded: its Prisma value, or why it does not fit the field. */
export type DecodedAttribute = { value: unknown } | { problem: string };

/** The Prisma value of an attribute in a request body, or the problem with it. */
export function attributeValue(
  field: FieldMeta,
  value: unknown,
  enums: Readonly<Record<string, readonly string[]>>,
): DecodedAttribute {
  if (value === null) {
    // Prisma needs its own DbNull marker to null a Json column; plain null is refused there.
    const nullable = field.isOptional && !field.isList && field.type !== 'Json';
    return nullable ? { value: null } : { problem: `"${field.name}" cannot be null.` };
  }
  const { fromJson, expected } = codec(field, enums);
  if (field.isList && !Array.isArray(value)) return { problem: `"${field.name}" must be an array.` };
  const items = field.isList ? (value as unknown[]) : [value];
  const converted = items.map(fromJson);
  if (converted.includes(INVALID)) return { problem: `"${field.name}" must be ${expected}.` };
  return { value: field.isList ? converted : converted[0] };
}

/** The Prisma value of an attribute in a request body; 400 with `source.pointer` when it does not fit. */
export function decodeAttribute(
  field: FieldMeta,
  value: unknown,
  enums: Readonly<Record<string, readonly string[]>>,
  pointer: string,
): unknown {
  const decoded = attributeValue(field, value, enums);
  if ('problem' in decoded) throw new CrudApiError('invalid-payload', decoded.problem, { source: { pointer } });
  return decoded.value;
}

/** The Prisma value of one filter value from the query string; 400 with `source.parameter` when it does not parse. */
export function parseQueryValue(
  field: FieldMeta,
  text: string,
  enums: Readonly<Record<string, readonly string[]>>,
  parameter: string,
): unknown {
  const { fromText, expected } = codec(field, enums);
  const converted = fromText(text);
  if (converted === INVALID)
    throw new CrudApiError('invalid-query-parameter', `"${field.name}" must be ${expected}.`, {
      source: { parameter },
    });
  return converted;
}
