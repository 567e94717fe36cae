import type { FieldMeta } from '../metadata/model-meta.types.js';
import { type JsonSchema, nullable } from './openapi.types.js';

/** Which side of the wire: what the server writes, or what it reads from a client. */
export type Direction = 'response' | 'request';

type Enums = Readonly<Record<string, readonly string[]>>;

const INT32: JsonSchema = { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };
const INTEGER_TEXT = '^-?\\d+$';
const DECIMAL_TEXT = '^[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?$';
/** What the server writes: SQLite keeps Decimal in a REAL, so an out-of-range value reads back as ±Infinity. */
const DECIMAL_OUTPUT = '^([+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|-?Infinity|NaN)$';
/** The ISO 8601 forms the server reads (a date alone, minutes, seconds, fractions; zone optional, UTC when absent). */
const DATE_TIME_TEXT = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}:?\\d{2})?)?$';

/** One scalar value's schema per type and direction: the wire forms of `attribute-codec` and of superjson's `json` part. */
const SCALAR_SCHEMAS: Readonly<Record<string, Record<Direction, JsonSchema>>> = {
  String: { response: { type: 'string' }, request: { type: 'string' } },
  Boolean: { response: { type: 'boolean' }, request: { type: 'boolean' } },
  Int: { response: INT32, request: INT32 },
  Float: { response: { type: 'number' }, request: { type: 'number' } },
  Decimal: {
    response: {
      type: 'string',
      pattern: DECIMAL_OUTPUT,
      description: 'Decimal, as its exact decimal text (SQLite stores a value beyond its range as Infinity).',
    },
    request: {
      type: ['string', 'number'],
      pattern: DECIMAL_TEXT,
      description: 'Decimal: a decimal string (exact) or a number.',
    },
  },
  BigInt: {
    response: { type: 'string', pattern: INTEGER_TEXT, description: 'BigInt (64-bit), as its decimal text.' },
    request: {
      type: ['string', 'integer'],
      pattern: INTEGER_TEXT,
      description: 'BigInt (64-bit): an integer string or a safe integer.',
    },
  },
  DateTime: {
    response: { type: 'string', format: 'date-time', description: 'DateTime, ISO 8601 in UTC.' },
    request: {
      type: 'string',
      pattern: DATE_TIME_TEXT,
      description: 'DateTime: ISO 8601 (a date, or a date-time; UTC when no zone), year 0000-9999.',
    },
  },
  Bytes: {
    response: { type: 'string', contentEncoding: 'base64', description: 'Bytes, Base64.' },
    request: { type: 'string', contentEncoding: 'base64', description: 'Bytes, Base64.' },
  },
  Json: { response: { description: 'Any JSON value.' }, request: { description: 'Any JSON value.' } },
};

/** One value of a scalar or enum type (list items included). */
export function scalarSchema(field: Pick<FieldMeta, 'kind' | 'type'>, enums: Enums, direction: Direction): JsonSchema {
  if (field.kind === 'enum') return { type: 'string', enum: [...(enums[field.type] ?? [])] };
  const schema = SCALAR_SCHEMAS[field.type];
  if (!schema) throw new Error(`No OpenAPI schema for field type ${field.type}.`);
  return schema[direction];
}

/** A field's value: a list is an array, an optional field may be `null` (Json is any value already). */
export function fieldValueSchema(field: FieldMeta, enums: Enums, direction: Direction): JsonSchema {
  const item = scalarSchema(field, enums, direction);
  if (field.isList) return { type: 'array', items: item };
  return field.isOptional && field.type !== 'Json' ? nullable(item) : item;
}
