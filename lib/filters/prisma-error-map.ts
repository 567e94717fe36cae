import type { PrismaErrorMapping } from '../options/crud-api-options.interface.js';

const TEMPORARILY_UNAVAILABLE: PrismaErrorMapping = {
  status: 503,
  code: 'service-unavailable',
  message: 'The database could not complete the request in time; retry it.',
};

/** A value the client sent that the database cannot store or compare: the client's fault, 400. */
function invalidValue(message: string): PrismaErrorMapping {
  return { status: 400, code: 'data-layer-error', message };
}

const OUT_OF_RANGE = invalidValue('A value is out of range for its field.');
const DATE_OUT_OF_RANGE = invalidValue('A date-time value is out of the range the database stores.');
const UNSTORABLE_CHARACTER = invalidValue('A text value holds a character the database cannot store (such as U+0000).');

/**
 * Prisma error codes (https://www.prisma.io/docs/orm/reference/error-reference) to HTTP.
 * Known request errors missing here, or whose row does not apply, are 400 `data-layer-error`;
 * applications extend or override rows with the `prismaErrorMap` option.
 * Fixed messages replace Prisma's where its text names database constraints or columns.
 */
export const DEFAULT_PRISMA_ERROR_MAP: Readonly<Record<string, PrismaErrorMapping>> = {
  P2001: { status: 404, code: 'not-found' },
  P2015: { status: 404, code: 'not-found' },
  P2018: { status: 404, code: 'not-found' },
  P2025: { status: 404, code: 'not-found' },
  P2000: { status: 400, code: 'constraint-violation', message: 'A value is too long for its field.' },
  P2002: { status: 400, code: 'constraint-violation', message: 'A record with the same unique value already exists.' },
  P2003: {
    status: 400,
    code: 'constraint-violation',
    message: 'A related record does not exist (foreign key constraint).',
  },
  P2011: { status: 400, code: 'constraint-violation', message: 'A required value is null.' },
  P2012: { status: 400, code: 'constraint-violation' },
  P2014: { status: 400, code: 'constraint-violation' },
  // Values out of the column's range or type: Prisma's own text repeats the value and the column type.
  P2006: invalidValue('A value is not valid for its field.'),
  P2007: invalidValue('A value is not valid for its field.'),
  P2020: OUT_OF_RANGE,
  P2033: invalidValue('A number does not fit into a 64-bit signed integer.'),
  // MySQL's full-text search needs a FULLTEXT index on exactly the searched field(s).
  P2030: invalidValue('Full-text search needs a FULLTEXT index on the searched field, and this field has none.'),
  // Access-policy-enhanced clients (ZenStack) reject with P2004 and a `meta.reason`.
  P2004: { status: 403, code: 'rejected-by-policy', requiresReason: true },
  // Timeouts, exhausted pools and write conflicts are the server's state, not the client's fault:
  // the same request may succeed when retried.
  P1001: TEMPORARILY_UNAVAILABLE,
  P1002: TEMPORARILY_UNAVAILABLE,
  P1008: TEMPORARILY_UNAVAILABLE,
  P1017: TEMPORARILY_UNAVAILABLE,
  P2024: TEMPORARILY_UNAVAILABLE,
  P2028: TEMPORARILY_UNAVAILABLE,
  P2034: TEMPORARILY_UNAVAILABLE,
};

/**
 * The database's own error codes, read from a driver adapter error when Prisma reports a generic
 * one (P2039 "database error"...): PostgreSQL SQLSTATEs (exact, else their two-character class)
 * and SQLite result codes. Class 22 (data exception) is a value the client sent.
 */
export const DEFAULT_DATABASE_ERROR_MAP: Readonly<Record<string, PrismaErrorMapping>> = {
  '22': invalidValue('A value cannot be stored in its field.'),
  '22001': { status: 400, code: 'constraint-violation', message: 'A value is too long for its field.' },
  '22003': OUT_OF_RANGE,
  '22007': invalidValue('A date-time value is not valid.'),
  '22008': DATE_OUT_OF_RANGE,
  '22009': DATE_OUT_OF_RANGE,
  '22021': UNSTORABLE_CHARACTER,
  '22P05': UNSTORABLE_CHARACTER,
  '54': invalidValue('The request is too complex for the database.'),
  '08': TEMPORARILY_UNAVAILABLE,
  '40001': TEMPORARILY_UNAVAILABLE,
  '40P01': TEMPORARILY_UNAVAILABLE,
  '53': TEMPORARILY_UNAVAILABLE,
  '57014': TEMPORARILY_UNAVAILABLE,
  '57P03': TEMPORARILY_UNAVAILABLE,
  SQLITE_TOOBIG: invalidValue('A value is too large for the database.'),
  SQLITE_MISMATCH: invalidValue('A value does not have the type of its field.'),
  SQLITE_BUSY: TEMPORARILY_UNAVAILABLE,
  SQLITE_LOCKED: TEMPORARILY_UNAVAILABLE,
};

/** The database's code carried by a Prisma error from a driver adapter, if any. */
export function databaseErrorCode(meta: Record<string, unknown> | undefined): string | undefined {
  const cause = (meta?.driverAdapterError as { cause?: { originalCode?: unknown; code?: unknown } } | undefined)?.cause;
  const code = cause?.originalCode ?? cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The row of a database code: the exact code, else its SQLSTATE class. */
export function databaseErrorMapping(code: string | undefined): PrismaErrorMapping | undefined {
  if (code === undefined) return undefined;
  if (Object.hasOwn(DEFAULT_DATABASE_ERROR_MAP, code)) return DEFAULT_DATABASE_ERROR_MAP[code];
  const sqlClass = /^[0-9A-Z]{5}$/.test(code) ? code.slice(0, 2) : undefined;
  return sqlClass && Object.hasOwn(DEFAULT_DATABASE_ERROR_MAP, sqlClass)
    ? DEFAULT_DATABASE_ERROR_MAP[sqlClass]
    : undefined;
}

/**
 * Errors a database driver throws itself, past Prisma's error classes, for a value it cannot bind
 * (better-sqlite3's "The bound string, buffer, or bigint is too big").
 */
export const DRIVER_VALUE_ERRORS: ReadonlyArray<{ name: string; message: RegExp; mapping: PrismaErrorMapping }> = [
  {
    name: 'RangeError',
    message: /^The bound (string, buffer, or bigint|value) is too big/,
    mapping: invalidValue('A value is too large for the database.'),
  },
];

export const UNMAPPED_KNOWN_REQUEST_ERROR: PrismaErrorMapping = { status: 400, code: 'data-layer-error' };

/** The defaults with the application's rows (the `prismaErrorMap` option) on top. */
export function mergePrismaErrorMap(overrides: Readonly<Record<string, PrismaErrorMapping>> = {}): PrismaErrorMap {
  return new Map([...Object.entries(DEFAULT_PRISMA_ERROR_MAP), ...Object.entries(overrides)]);
}

export type PrismaErrorMap = ReadonlyMap<string, PrismaErrorMapping>;
