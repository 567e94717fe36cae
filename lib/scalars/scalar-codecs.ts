import type { FieldMeta, ScalarType } from '../metadata/model-meta.types.js';
import { DATE_TIME_PATTERN, parseIsoDateTime, toIsoString } from './date-time.js';
import { isDecimalNumber, isDecimalText, isNumberText, NUMBER_PATTERN } from './decimal.js';

/** Returned by a parser for a value its type cannot take. */
export const INVALID = Symbol('invalid');
/** A Prisma value, or `INVALID`. */
export type Parsed = unknown;

/** An OpenAPI (JSON Schema) fragment. */
type Schema = Record<string, unknown>;

/**
 * One Prisma scalar type as both interfaces read and write it. `fromJson` reads a JSON value (a
 * REST attribute, an RPC argument in superjson's `json` part), `fromText` a query string value
 * (REST filters); both answer the value handed to Prisma, or `INVALID`.
 */
export interface ScalarCodec {
  fromJson(value: unknown): Parsed;
  fromText(text: string): Parsed;
  /** The JSON value of a stored value (a JSON:API attribute). */
  format(value: unknown): unknown;
  /** What a refused value should have been, for the refusal's message. */
  expected: string;
  /** The OpenAPI schema of a value the server writes, and of one it reads. */
  schema: { response: Schema; request: Schema };
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
/** An integer's text; leading zeros allowed (`007`), as both interfaces read them before. */
const INTEGER_TEXT = /^-?\d+$/;
/** Digits of the largest 64-bit integer: a longer text (leading zeros aside) is out of range unread. */
const INT64_DIGITS = 19;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether a value is an Int (a 32-bit integer number). */
export function isInt32(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= INT32.min && (value as number) <= INT32.max;
}

/** Whether a bigint is within a BigInt (64 bits). */
export function isInt64(value: bigint): boolean {
  return value >= INT64.min && value <= INT64.max;
}

function readInt(value: unknown): Parsed {
  return isInt32(value) ? value : INVALID;
}

function readFloat(value: unknown): Parsed {
  return typeof value === 'number' && Number.isFinite(value) ? value : INVALID;
}

function readBigInt(value: unknown): Parsed {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : INVALID;
  if (typeof value !== 'string' || !INTEGER_TEXT.test(value)) return INVALID;
  if (value.replace(/^-?0*/, '').length > INT64_DIGITS) return INVALID;
  const integer = BigInt(value);
  return isInt64(integer) ? integer : INVALID;
}

/** Prisma takes a Decimal's exact text; a JSON number is as exact as its shortest text. */
function readDecimal(value: unknown): Parsed {
  if (typeof value === 'number') return isDecimalNumber(value) ? String(value) : INVALID;
  return typeof value === 'string' && isDecimalText(value) ? value : INVALID;
}

function readDateTime(value: unknown): Parsed {
  return (typeof value === 'string' && parseIsoDateTime(value)) || INVALID;
}

function readBytes(value: unknown): Parsed {
  if (typeof value !== 'string' || value.length % 4 !== 0 || !BASE64.test(value)) return INVALID;
  return new Uint8Array(Buffer.from(value, 'base64'));
}

/**
 * Whether a value fits the Json type: JSON, plus valid dates (Prisma stores their ISO string; RPC
 * values may hold one). Bigints, byte arrays and other class instances have no JSON form.
 */
function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (value instanceof Date) return !Number.isNaN(value.getTime());
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isJsonValue);
}

function readJsonText(text: string): Parsed {
  try {
    return JSON.parse(text);
  } catch {
    return INVALID;
  }
}

/** A number's text read as JSON reads it, then as its JSON value. */
const numberText = (parse: (value: unknown) => Parsed) => (text: string) =>
  isNumberText(text) ? parse(Number(text)) : INVALID;

/** Reads or writes a value as it is (a String, a number, an enum value). */
export const VERBATIM = (value: unknown): unknown => value;
const INT32_SCHEMA: Schema = { type: 'integer', minimum: INT32.min, maximum: INT32.max };
/** The grammar of an integer text (BigInt values, ids), for the OpenAPI documents. */
export const INTEGER_PATTERN = INTEGER_TEXT.source;
const BYTES_SCHEMA: Schema = { type: 'string', contentEncoding: 'base64', description: 'Bytes, Base64.' };
const JSON_SCHEMA: Schema = { description: 'Any JSON value.' };

/** The codec of each Prisma scalar type. */
export const SCALAR_CODECS: Readonly<Record<ScalarType, ScalarCodec>> = {
  String: {
    fromJson: (v) => (typeof v === 'string' ? v : INVALID),
    fromText: VERBATIM,
    format: VERBATIM,
    expected: 'a string',
    schema: { response: { type: 'string' }, request: { type: 'string' } },
  },
  Boolean: {
    fromJson: (v) => (typeof v === 'boolean' ? v : INVALID),
    fromText: (t) => (t === 'true' ? true : t === 'false' ? false : INVALID),
    format: VERBATIM,
    expected: 'a boolean',
    schema: { response: { type: 'boolean' }, request: { type: 'boolean' } },
  },
  Int: {
    fromJson: readInt,
    fromText: (t) => (INTEGER_TEXT.test(t) ? readInt(Number(t)) : INVALID),
    format: VERBATIM,
    expected: 'an integer between -2147483648 and 2147483647',
    schema: { response: INT32_SCHEMA, request: INT32_SCHEMA },
  },
  Float: {
    fromJson: readFloat,
    fromText: numberText(readFloat),
    format: VERBATIM,
    expected: 'a finite number',
    schema: { response: { type: 'number' }, request: { type: 'number' } },
  },
  Decimal: {
    fromJson: readDecimal,
    fromText: readDecimal,
    format: String,
    expected: 'a decimal below 1e35 in magnitude (a number, or its text)',
    schema: {
      response: {
        type: 'string',
        // SQLite keeps Decimal in a REAL, so an out-of-range value reads back as ±Infinity.
        pattern: `^(${NUMBER_PATTERN.slice(1, -1)}|-?Infinity|NaN)$`,
        description: 'Decimal, as its exact decimal text (SQLite stores a value beyond its range as Infinity).',
      },
      request: {
        type: ['string', 'number'],
        pattern: NUMBER_PATTERN,
        description: 'Decimal: a decimal string (exact) or a number, below 1e35 in magnitude.',
      },
    },
  },
  BigInt: {
    fromJson: readBigInt,
    fromText: readBigInt,
    format: String,
    expected: 'a 64-bit integer (a safe integer, or an integer text)',
    schema: {
      response: { type: 'string', pattern: INTEGER_PATTERN, description: 'BigInt (64-bit), as its decimal text.' },
      request: {
        type: ['string', 'integer'],
        pattern: INTEGER_PATTERN,
        description: 'BigInt (64-bit): an integer string or a safe integer.',
      },
    },
  },
  DateTime: {
    fromJson: readDateTime,
    fromText: readDateTime,
    format: (v) => (v instanceof Date ? toIsoString(v) : v),
    expected: 'an RFC 3339 date-time with its offset (Z or ±hh:mm), year 0000 to 9999',
    schema: {
      response: { type: 'string', format: 'date-time', description: 'DateTime, RFC 3339 in UTC.' },
      request: {
        type: 'string',
        format: 'date-time',
        pattern: DATE_TIME_PATTERN,
        description: 'DateTime: an RFC 3339 date-time with its offset, year 0000-9999.',
      },
    },
  },
  Bytes: {
    fromJson: readBytes,
    fromText: readBytes,
    format: (v) => Buffer.from(v as Uint8Array).toString('base64'),
    expected: 'a Base64 string',
    schema: { response: BYTES_SCHEMA, request: BYTES_SCHEMA },
  },
  Json: {
    fromJson: (v) => (isJsonValue(v) ? v : INVALID),
    fromText: readJsonText,
    format: VERBATIM,
    expected: 'a JSON value',
    schema: { response: JSON_SCHEMA, request: JSON_SCHEMA },
  },
};

const NUMERIC_TYPES: ReadonlySet<string> = new Set<ScalarType>(['Int', 'Float', 'Decimal', 'BigInt']);
const ORDERED_TYPES: ReadonlySet<string> = new Set<string>([...NUMERIC_TYPES, 'DateTime', 'String']);

/** Whether a field holds one number: `_sum`/`_avg` and the arithmetic update operators take it. */
export function isNumericField(field: Pick<FieldMeta, 'kind' | 'type' | 'isList'>): boolean {
  return field.kind === 'scalar' && !field.isList && NUMERIC_TYPES.has(field.type);
}

/** Whether a field's values are ordered: the `lt`/`lte`/`gt`/`gte` filters take it. */
export function isOrderedType(field: Pick<FieldMeta, 'kind' | 'type'>): boolean {
  return field.kind === 'scalar' && ORDERED_TYPES.has(field.type);
}

/** Types a database cannot order by. */
const UNSORTABLE_TYPES: ReadonlySet<string> = new Set<ScalarType>(['Json', 'Bytes']);

/** Whether a (non-relation, non-list) field's type can be sorted by. */
export function isSortableType(type: string): boolean {
  return !UNSORTABLE_TYPES.has(type);
}

function enumCodec(values: readonly string[]): ScalarCodec {
  const parse = (v: unknown) => (typeof v === 'string' && values.includes(v) ? v : INVALID);
  const schema = { type: 'string', enum: [...values] };
  return {
    fromJson: parse,
    fromText: parse,
    format: VERBATIM,
    expected: `one of ${values.map((v) => `"${v}"`).join(', ')}`,
    schema: { response: schema, request: schema },
  };
}

/** The codec of a scalar or enum field; undefined for a type no codec reads. */
export function codecOf(
  field: Pick<FieldMeta, 'kind' | 'type'>,
  enums: Readonly<Record<string, readonly string[]>>,
): ScalarCodec | undefined {
  if (field.kind === 'enum') return enumCodec(enums[field.type] ?? []);
  return Object.hasOwn(SCALAR_CODECS, field.type) ? SCALAR_CODECS[field.type as ScalarType] : undefined;
}
