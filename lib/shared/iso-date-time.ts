/**
 * `2024-01-02`, `2024-01-02T03:04`, `2024-01-02T03:04:05.678+01:00`: an RFC 3339 date or date-time,
 * the zone optional (UTC when absent, so the answer never depends on the server's zone).
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/i;

/** The years every supported database stores (PostgreSQL and MySQL go further, SQLite anywhere). */
const MIN_YEAR = 0;
const MAX_YEAR = 9999;

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

/**
 * The instant an ISO 8601 text names, or undefined: a calendar date that exists (no 30 February),
 * a time of day within 00:00:00-23:59:59, a zone within ±23:59, and a UTC year within 0-9999.
 * `Date.parse` accepts far more (`'1'` is 2001, `2024-02-30` is 1 March), which a client could not
 * have meant.
 */
export function parseIsoDateTime(text: string): Date | undefined {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone, sign, zh = '0', zm = '0'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || Number(zh) > 23 || Number(zm) > 59) return undefined;
  const offsetMinutes = zone && sign ? (sign === '-' ? -1 : 1) * (Number(zh) * 60 + Number(zm)) : 0;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offsetMinutes, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const utcYear = date.getUTCFullYear();
  return utcYear >= MIN_YEAR && utcYear <= MAX_YEAR ? date : undefined;
}
