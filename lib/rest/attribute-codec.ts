import { CrudApiError } from '../errors/crud-api.error.js';
import type { FieldMeta } from '../metadata/model-meta.types.js';
import { decimalNumberInRange, decimalTextInRange } from '../shared/decimal-range.js';
import { parseIsoDateTime, toIsoString } from '../shared/iso-date.js';

/** Returned by a converter for a value its type cannot take. */
const INVALID = Symbol('invalid');
type Converted = unknown | typeof INVALID;

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The ranges of Prisma's Int (32-bit) and BigInt (64-bit) on every database: SQLite would store a
 * larger value where PostgreSQL fails, so the API refuses it on all of them alike.
 */
const INT_RANGE = [-(2 ** 31), 2 ** 31 - 1] as const;
const BIGINT_RANGE = [-(2n ** 63n), 2n ** 63n - 1n] as const;

function toDate(value: unknown): Converted {
  return (typeof value === 'string' && parseIsoDateTime(value)) || INVALID;
}

function toInt(value: unknown): Converted {
  return typeof value === 'number' && Number.isInteger(value) && value >= INT_RANGE[0] && value <= INT_RANGE[1]
    ? value
    : INVALID;
}

function toFloat(value: unknown): Converted {
  return typeof value === 'number' && Number.isFinite(value) ? value : INVALID;
}

/** Longest text of a 64-bit integer (`-9223372036854775808`): longer ones are not converted at all. */
const MAX_BIGINT_TEXT = 20;

function toBigInt(value: unknown): Converted {
  const isText = typeof value === 'string' && value.length <= MAX_BIGINT_TEXT && INTEGER.test(value);
  const integer =
    typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : isText ? BigInt(value) : undefined;
  return integer !== undefined && integer >= BIGINT_RANGE[0] && integer <= BIGINT_RANGE[1] ? integer : INVALID;
}

function toDecimalString(value: unknown): Converted {
  if (typeof value === 'number' && decimalNumberInRange(value)) return String(value);
  return typeof value === 'string' && DECIMAL.test(value) && decimalTextInRange(value) ? value : INVALID;
}

function toBytes(value: unknown): Converted {
  if (typeof value !== 'string' || value.length % 4 !== 0 || !BASE64.test(value)) return INVALID;
  return new Uint8Array(Buffer.from(value, 'base64'));
}

interface ScalarCodec {
  /** JSON:API attribute value of a stored value. */
  encode(value: unknown): unknown;
  /** Prisma value of a JSON body value. */
  fromJson(value: unknown): Converted;
  /** Prisma value of a query string value. */
  fromText(text: string): Converted;
}

const identity = (value: unknown) => value;

/** Per scalar type: how it looks on the wire (DateTime ISO, Decimal/BigInt strings, Bytes Base64). */
const SCALAR_CODECS: Readonly<Record<string, ScalarCodec>> = {
  String: {
    encode: identity,
    fromJson: (v) => (typeof v === 'string' ? v : INVALID),
    fromText: (t) => t,
  },
  Int: { encode: identity, fromJson: toInt, fromText: (t) => (INTEGER.test(t) ? toInt(Number(t)) : INVALID) },
  Float: { encode: identity, fromJson: toFloat, fromText: (t) => (DECIMAL.test(t) ? toFloat(Number(t)) : INVALID) },
  Decimal: { encode: (v) => String(v), fromJson: toDecimalString, fromText: toDecimalString },
  BigInt: { encode: (v) => String(v), fromJson: toBigInt, fromText: toBigInt },
  Boolean: {
    encode: identity,
    fromJson: (v) => (typeof v === 'boolean' ? v : INVALID),
    fromText: (t) => (t === 'true' ? true : t === 'false' ? false : INVALID),
  },
  DateTime: { encode: (v) => (v instanceof Date ? toIsoString(v) : v), fromJson: toDate, fromText: toDate },
  Bytes: { encode: (v) => Buffer.from(v as Uint8Array).toString('base64'), fromJson: toBytes, fromText: toBytes },
  Json: {
    encode: identity,
    fromJson: identity,
    fromText: (t) => {
      try {
        return JSON.parse(t);
      } catch {
        return INVALID;
      }
    },
  },
};

function enumCodec(values: readonly string[]): ScalarCodec {
  const check = (v: unknown) => (typeof v === 'string' && values.includes(v) ? v : INVALID);
  return { encode: identity, fromJson: check, fromText: check };
}

function codecOf(field: FieldMeta, enums: Readonly<Record<string, readonly string[]>>): ScalarCodec {
  if (field.kind === 'enum') return enumCodec(enums[field.type] ?? []);
  const codec = SCALAR_CODECS[field.type];
  if (!codec) throw new CrudApiError('internal-error', `No codec for field type ${field.type}.`);
  return codec;
}

function expected(field: FieldMeta, enums: Readonly<Record<string, readonly string[]>>): string {
  if (field.kind === 'enum') return `one of ${(enums[field.type] ?? []).join(', ')}`;
  const forms: Record<string, string> = {
    DateTime: 'an ISO 8601 date-time string with a year from 0000 to 9999',
    Decimal: 'a decimal number or string below 1e35 in magnitude',
    BigInt: 'a signed 64-bit integer or integer string',
    Bytes: 'a Base64 string',
    Int: 'a signed 32-bit integer',
    Float: 'a finite number',
  };
  return forms[field.type] ?? `a ${field.type.toLowerCase()}`;
}

/** Writes a stored value of one field as its attribute value. */
export type AttributeEncoder = (value: unknown) => unknown;

/**
 * The encoder of a field's attribute values, chosen once per field: rendering calls it for every
 * attribute of every resource. Enum, String, number, Boolean and Json values are written as they are.
 */
export function attributeEncoder(field: FieldMeta): AttributeEncoder {
  if (field.kind === 'enum') return identity;
  const codec = SCALAR_CODECS[field.type];
  if (!codec) throw new CrudApiError('internal-error', `No codec for field type ${field.type}.`);
  const encode = codec.encode;
  if (encode === identity) return identity;
  if (field.isList)
    return (value) => (value == null ? null : Array.isArray(value) ? value.map((item) => encode(item)) : encode(value));
  return (value) => (value == null ? null : encode(value));
}

/** Whether an encoder writes values as they are stored. */
export function encodesVerbatim(encoder: AttributeEncoder): boolean {
  return encoder === identity;
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
  const codec = codecOf(field, enums);
  if (field.isList && !Array.isArray(value)) return { problem: `"${field.name}" must be an array.` };
  const items = field.isList ? (value as unknown[]) : [value];
  const converted = items.map((item) => codec.fromJson(item));
  if (converted.includes(INVALID)) return { problem: `"${field.name}" must be ${expected(field, enums)}.` };
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
  const converted = codecOf(field, enums).fromText(text);
  if (converted === INVALID)
    throw new CrudApiError('invalid-query-parameter', `"${field.name}" must be ${expected(field, enums)}.`, {
      source: { parameter },
    });
  return converted;
}
