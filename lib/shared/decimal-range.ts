/**
 * The largest magnitude of a Decimal: Prisma maps `Decimal` to `DECIMAL(65,30)` on PostgreSQL and
 * MySQL, 35 digits before the point. SQLite would store a larger value as a float (`1e99999`
 * as Infinity) where the others fail or match nothing, so the API refuses it on all of them alike.
 */
export const MAX_DECIMAL_DIGITS = 35;

const DECIMAL_PARTS = /^[+-]?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/**
 * Whether a decimal text (already known to be one) is below 10^35 in magnitude, read from its
 * digits and exponent without building the number (`1e99999` would be 100000 digits).
 */
export function decimalTextInRange(text: string): boolean {
  const [, whole = '', fraction = '', exponent = '0'] = DECIMAL_PARTS.exec(text) ?? [];
  const integer = whole.replace(/^0+/, '');
  const leadingZeros = /^0*/.exec(fraction)![0].length;
  if (integer === '' && leadingZeros === fraction.length) return true; // zero
  // The power of ten of the first significant digit.
  const order = (integer === '' ? -(leadingZeros + 1) : integer.length - 1) + Number(exponent);
  return order < MAX_DECIMAL_DIGITS;
}

/** Whether a number is finite and below 10^35 in magnitude. */
export function decimalNumberInRange(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) < 10 ** MAX_DECIMAL_DIGITS;
}
