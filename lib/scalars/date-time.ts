const MS_PER_DAY = 86_400_000;
const [ZERO, DASH, COLON, DOT, T, Z] = [...'0-:.TZ'].map((char) => char.charCodeAt(0));

/** The character code of the decimal digit of `value` at `unit` (1000, 100, 10, 1). */
function digit(value: number, unit: number): number {
  return ZERO + (Math.floor(value / unit) % 10);
}

/**
 * `date.toISOString()` computed with integer arithmetic (days to civil date as in Howard
 * Hinnant's `civil_from_days`) and written as one flat string from its character codes: V8's own
 * is several times slower, and both interfaces write every date of every row. Joining it from
 * pieces would allocate intermediate strings that JSON.stringify then has to flatten.
 * Years outside 0000-9999 (written with a sign) and invalid dates are left to `toISOString`, whose
 * output and RangeError they keep.
 */
export function toIsoString(date: Date): string {
  const time = date.getTime();
  const days = Math.floor(time / MS_PER_DAY);
  let rest = time - days * MS_PER_DAY;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  // prettier-ignore
  return String.fromCharCode(
    digit(year, 1000), digit(year, 100), digit(year, 10), digit(year, 1), DASH, digit(month, 10), digit(month, 1), DASH, digit(day, 10), digit(day, 1),
    T, digit(hours, 10), digit(hours, 1), COLON, digit(minutes, 10), digit(minutes, 1), COLON, digit(seconds, 10), digit(seconds, 1),
    DOT, digit(millis, 100), digit(millis, 10), digit(millis, 1), Z,
  );
}

/**
 * `2024-01-02T03:04:05Z`, `2024-01-02T03:04:05.678+01:00`: an RFC 3339 date-time, its offset
 * required (a text without one names no instant, and Prisma refuses it), `T` and `Z` upper case.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/;

/** The grammar of a DateTime text, for the OpenAPI documents. */
export const DATE_TIME_PATTERN = DATE_TIME.source;

/** The years every supported database stores (PostgreSQL and MySQL go further, SQLite anywhere). */
const MIN_YEAR = 0;
const MAX_YEAR = 9999;

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

/** Whether a date is valid and its UTC year within 0-9999. */
export function dateInRange(date: Date): boolean {
  const year = date.getUTCFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

/**
 * The instant an RFC 3339 date-time names, or undefined: a calendar date that exists (no 30
 * February), a time of day within 00:00:00-23:59:59, an offset within ±23:59, and a UTC year within
 * 0-9999. Fractions beyond milliseconds are cut, as Prisma does. `Date.parse` accepts far more
 * (`'1'` is 2001, `2024-02-30` is 1 March), which a client could not have meant.
 */
export function parseIsoDateTime(text: string): Date | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction = '', , sign, zh = '0', zm = '0'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || Number(zh) > 23 || Number(zm) > 59) return undefined;
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(zh) * 60 + Number(zm));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offsetMinutes, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  return dateInRange(date) ? date : undefined;
}
