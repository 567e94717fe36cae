/**
 * The largest magnitude of a Decimal: Prisma maps `Decimal` to `DECIMAL(65,30)` on PostgreSQL and
 * MySQL, 35 digits before the point. SQLite would store a larger value as a float (`1e99999`
 * as Infinity) where the others fail or match nothing, so the API refuses it on all of them alike.
 */
export const MAX_DECIMAL_DIGITS = 35;

/**
 * A number's text: JSON's number grammar (no `+`, no `.5`, no `1.`), leading zeros allowed
 * (`007`, as both interfaces read them before they shared this grammar).
 */
const NUMBER_TEXT = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** The grammar of a number's text, for the OpenAPI documents. */
export const NUMBER_PATTERN = NUMBER_TEXT.source;

/** Whether a text is a number's text (Float and Decimal values in text form). */
export function isNumberText(text: string): boolean {
  return NUMBER_TEXT.test(text);
}

/**
 * Whether a number's text is a Decimal below 10^35 in magnitude, read from its digits and
 * exponent without building the number (`1e99999` would be 100000 digits).
 */
export function isDecimalText(text: string): boolean {
  const match = NUMBER_TEXT.exec(text);
  if (!match) return false;
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const integer = whole.replace(/^0+/, '');
  const leadingZeros = /^0*/.exec(fraction)![0].length;
  if (integer === '' && leadingZeros === fraction.length) return true; // zero
  // The power of ten of the first significant digit.
  const order = (integer === '' ? -(leadingZeros + 1) : integer.length - 1) + Number(exponent);
  return order < MAX_DECIMAL_DIGITS;
}

/** Whether a number is finite and below 10^35 in magnitude. */
export function isDecimalNumber(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) < 10 ** MAX_DECIMAL_DIGITS;
}

export interface DecimalLike {
  d: number[];
  e: number;
  s: number;
  toFixed(): string;
}

/** The same duck test Prisma applies: several copies of decimal.js may be loaded (a bundled client names its class `Decimal2`). */
export function isDecimalLike(value: unknown): value is DecimalLike {
  const candidate = value as DecimalLike | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    Array.isArray(candidate.d) &&
    typeof candidate.e === 'number' &&
    typeof candidate.s === 'number' &&
    typeof candidate.toFixed === 'function'
  );
}
