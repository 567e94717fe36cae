import type { FieldMeta } from '../../metadata/model-meta.types.js';
import { decimalNumberInRange, decimalTextInRange, MAX_DECIMAL_DIGITS } from '../../shared/decimal-range.js';
import { isDecimalLike } from '../rpc-superjson.js';

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER_TEXT = /^[+-]?\d+$/;
/** ISO-8601 as Prisma reads it; the four-digit year keeps every database's range (0-9999). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function isInt32(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= INT32.min && (value as number) <= INT32.max;
}

function isInt64(value: unknown): boolean {
  if (typeof value === 'bigint') return value >= INT64.min && value <= INT64.max;
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'string' && INTEGER_TEXT.test(value) && isInt64(BigInt(value));
}

function isDecimal(value: unknown): boolean {
  if (typeof value === 'number') return decimalNumberInRange(value);
  if (typeof value === 'string') return DECIMAL_TEXT.test(value) && decimalTextInRange(value);
  // decimal.js's `e` is the power of ten of the first digit: checked before `toFixed` writes the digits out.
  return isDecimalLike(value) && value.e < MAX_DECIMAL_DIGITS && DECIMAL_TEXT.test(value.toFixed());
}

function isDateTime(value: unknown): boolean {
  if (typeof value === 'string')
    return ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)) && isDateTime(new Date(value));
  if (!(value instanceof Date)) return false;
  const year = value.getUTCFullYear();
  return !Number.isNaN(year) && year >= 0 && year <= 9999;
}

/**
 * Whether a value fits the Json type: JSON, plus valid dates (Prisma stores their ISO string).
 * Bigints, byte arrays and other class instances have no JSON form Prisma could store.
 */
function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (value instanceof Date) return !Number.isNaN(value.getTime());
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isJsonValue);
}

const SCALAR_CHECKS: Readonly<Record<string, { accepts(value: unknown): boolean; expected: string }>> = {
  String: { accepts: (v) => typeof v === 'string', expected: 'a string' },
  Boolean: { accepts: (v) => typeof v === 'boolean', expected: 'a boolean' },
  Int: { accepts: isInt32, expected: 'an integer between -2147483648 and 2147483647' },
  BigInt: { accepts: isInt64, expected: 'a 64-bit integer (a bigint, a safe integer or an integer string)' },
  Float: { accepts: (v) => typeof v === 'number' && Number.isFinite(v), expected: 'a finite number' },
  Decimal: {
    accepts: isDecimal,
    expected: 'a decimal below 1e35 in magnitude (a Decimal, a finite number or a numeric string)',
  },
  DateTime: { accepts: isDateTime, expected: 'a date (a Date or an ISO-8601 string with a year from 0 to 9999)' },
  Bytes: { accepts: (v) => v instanceof Uint8Array, expected: 'bytes (a superjson Bytes value)' },
  Json: { accepts: isJsonValue, expected: 'a JSON value' },
};

/**
 * Why a single (non-list) value does not fit the type of a scalar or enum field, or undefined.
 * `null` is for the caller to allow (optional fields).
 */
export function scalarValueProblem(
  field: FieldMeta,
  value: unknown,
  enums: Readonly<Record<string, readonly string[]>>,
): string | undefined {
  if (field.kind === 'enum') {
    const values = enums[field.type] ?? [];
    return typeof value === 'string' && values.includes(value)
      ? undefined
      : `expected one of ${values.map((v) => `"${v}"`).join(', ')}`;
  }
  const check = SCALAR_CHECKS[field.type];
  if (!check) return `the type ${field.type} is not supported`;
  return check.accepts(value) ? undefined : `expected ${check.expected}`;
}

/** Numeric types: the ones `_sum`/`_avg` and the arithmetic update operators take. */
export function isNumericField(field: FieldMeta): boolean {
  return field.kind === 'scalar' && !field.isList && ['Int', 'Float', 'Decimal', 'BigInt'].includes(field.type);
}
