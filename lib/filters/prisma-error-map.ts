import type { PrismaErrorMapping } from '../options/crud-api-options.interface.js';
import { type DatabaseError, databaseErrorOf } from '../prisma/database-error.js';

/**
 * The database's state, not the client's fault: the same request may succeed when retried
 * (503 answers carry `Retry-After`). One message per cause, so that the client and the operator
 * read what happened.
 */
function unavailable(message: string): PrismaErrorMapping {
  return { status: 503, code: 'service-unavailable', message };
}

const UNREACHABLE = unavailable('The database cannot be reached or is restarting; retry shortly.');
const CONNECTION_CLOSED = unavailable('The database closed the connection; retry the request.');
const NO_CONNECTION_SLOT = unavailable('The database accepts no more connections at the moment; retry shortly.');
const POOL_WAIT_EXCEEDED = unavailable('No database connection became free in time; retry shortly.');
const NOT_ANSWERING = unavailable('The database did not answer in time; retry the request.');
const WRITE_CONFLICT = unavailable('The request conflicted with a concurrent one; retry it.');
const BUSY = unavailable('The database is busy; retry shortly.');
const OUT_OF_RESOURCES = unavailable('The database is out of resources at the moment; retry shortly.');
const TRANSACTION_TIME = unavailable('The transaction could not start or finish in time; retry it.');
/** Writes refused by a read-only database (a replica, a maintenance switch): reads keep working. */
const READ_ONLY: PrismaErrorMapping = {
  status: 503,
  code: 'database-read-only',
  message: 'The database accepts no writes at the moment; retry later.',
};
/** A statement or lock timeout: the database cancelled the statement, and its transaction wrote nothing. */
const TIMED_OUT: PrismaErrorMapping = {
  status: 504,
  code: 'database-timeout',
  message: 'The database cancelled the request (statement or lock timeout); nothing was written.',
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
  // Unreachable or closed connections, exhausted pools and write conflicts: retry.
  P1001: UNREACHABLE,
  P1002: UNREACHABLE,
  P1008: NOT_ANSWERING,
  P1017: CONNECTION_CLOSED,
  P2024: POOL_WAIT_EXCEEDED,
  // Prisma's `maxWait` (no connection to start the transaction) or `timeout` (rolled back).
  P2028: TRANSACTION_TIME,
  P2034: WRITE_CONFLICT,
  P2037: NO_CONNECTION_SLOT,
};

/**
 * The database's own error codes, read from a driver adapter error when Prisma reports a generic
 * one (P2039 "database error"...), per kind of database: PostgreSQL SQLSTATEs (exact, else their
 * two-character class), MySQL/MariaDB error numbers (the server's, and the mariadb driver's 45xxx;
 * else the SQLSTATE class `08`, connection errors) and SQLite result codes.
 * Class 22 (data exception) is a value the client sent.
 */
const DATABASE_ERROR_MAPS: Readonly<Record<DatabaseError['kind'], Readonly<Record<string, PrismaErrorMapping>>>> = {
  postgres: {
    '22': invalidValue('A value cannot be stored in its field.'),
    '22001': { status: 400, code: 'constraint-violation', message: 'A value is too long for its field.' },
    '22003': OUT_OF_RANGE,
    '22007': invalidValue('A date-time value is not valid.'),
    '22008': DATE_OUT_OF_RANGE,
    '22009': DATE_OUT_OF_RANGE,
    '22021': UNSTORABLE_CHARACTER,
    '22P05': UNSTORABLE_CHARACTER,
    '54': invalidValue('The request is too complex for the database.'),
    '08': UNREACHABLE,
    '25006': READ_ONLY,
    '40001': WRITE_CONFLICT,
    '40P01': WRITE_CONFLICT,
    '53': OUT_OF_RESOURCES,
    '53300': NO_CONNECTION_SLOT,
    '55P03': TIMED_OUT,
    // Class 57, operator intervention: a cancelled statement (statement_timeout, pg_cancel_backend),
    // a terminated session (pg_terminate_backend, shutdown, idle timeouts), a server starting up.
    '57': CONNECTION_CLOSED,
    '57014': TIMED_OUT,
    '57P03': UNREACHABLE,
  },
  mysql: {
    '08': CONNECTION_CLOSED,
    '1040': NO_CONNECTION_SLOT,
    '1053': UNREACHABLE,
    '1203': NO_CONNECTION_SLOT,
    '1205': TIMED_OUT,
    '1213': WRITE_CONFLICT,
    '1226': NO_CONNECTION_SLOT,
    '1290': READ_ONLY,
    '1317': CONNECTION_CLOSED,
    '1792': READ_ONLY,
    '1836': READ_ONLY,
    '1927': CONNECTION_CLOSED,
    '1969': TIMED_OUT,
    '3024': TIMED_OUT,
    '45001': CONNECTION_CLOSED,
    '45009': CONNECTION_CLOSED,
    '45012': UNREACHABLE,
    '45013': CONNECTION_CLOSED,
    '45026': NOT_ANSWERING,
    '45028': POOL_WAIT_EXCEEDED,
  },
  sqlite: {
    SQLITE_TOOBIG: invalidValue('A value is too large for the database.'),
    SQLITE_MISMATCH: invalidValue('A value does not have the type of its field.'),
    SQLITE_BUSY: BUSY,
    SQLITE_LOCKED: BUSY,
  },
} as const satisfies Record<string, Readonly<Record<string, PrismaErrorMapping>>>;

/** Every row of the database codes, for the statuses the OpenAPI documents list. */
export const DATABASE_ERROR_MAPPINGS: readonly PrismaErrorMapping[] = Object.values(DATABASE_ERROR_MAPS).flatMap(
  (rows) => Object.values(rows),
);

/**
 * Whether a data-layer error says the transaction lost to a concurrent one (a write conflict, a
 * serialization failure or a deadlock): a conditional write's precondition no longer holds.
 */
export function isWriteConflict(error: unknown): boolean {
  const { code, meta } = (error ?? {}) as { code?: unknown; meta?: Record<string, unknown> };
  return code === 'P2034' || databaseErrorMapping(databaseErrorOf(meta)) === WRITE_CONFLICT;
}

/** A mariadb pool timeout whose attempts failed to connect at all: the server is unreachable. */
const UNREACHABLE_CAUSE = /\b(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ETIMEDOUT)\b/;

/** The row of a database error: the exact code, else its SQLSTATE class. */
export function databaseErrorMapping(error: DatabaseError | undefined): PrismaErrorMapping | undefined {
  if (error === undefined) return undefined;
  const rows: Readonly<Record<string, PrismaErrorMapping>> = DATABASE_ERROR_MAPS[error.kind];
  if (error.kind === 'mysql' && error.code === '45028' && UNREACHABLE_CAUSE.test(error.cause ?? '')) {
    return UNREACHABLE;
  }
  if (Object.hasOwn(rows, error.code)) return rows[error.code];
  const sqlState = error.kind === 'postgres' ? error.code : error.state;
  if (sqlState === undefined || !/^[0-9A-Z]{5}$/.test(sqlState)) return undefined;
  const sqlClass = sqlState.slice(0, 2);
  return Object.hasOwn(rows, sqlClass) ? rows[sqlClass] : undefined;
}

/**
 * Errors a driver throws itself, past Prisma's error classes and the adapter's codes, recognised by
 * class and exact message (they carry nothing else): better-sqlite3's refusal to bind a value
 * ("The bound string, buffer, or bigint is too big"), and pg's and pg-pool's connection failures,
 * which the pg adapter passes on as they are.
 */
export const DRIVER_ERRORS: ReadonlyArray<{ name: string; message: RegExp; mapping: PrismaErrorMapping }> = [
  {
    name: 'RangeError',
    message: /^The bound (string, buffer, or bigint|value) is too big/,
    mapping: invalidValue('A value is too large for the database.'),
  },
  {
    name: 'Error',
    message: /^(Connection terminated( unexpectedly)?|Client has encountered a connection error and is not queryable)$/,
    mapping: CONNECTION_CLOSED,
  },
  { name: 'Error', message: /^Connection terminated due to connection timeout$/, mapping: UNREACHABLE },
  { name: 'Error', message: /^timeout exceeded when trying to connect$/, mapping: POOL_WAIT_EXCEEDED },
  { name: 'Error', message: /^Query read timeout$/, mapping: NOT_ANSWERING },
];

export const UNMAPPED_KNOWN_REQUEST_ERROR: PrismaErrorMapping = { status: 400, code: 'data-layer-error' };

/** The defaults with the application's rows (the `prismaErrorMap` option) on top. */
export function mergePrismaErrorMap(overrides: Readonly<Record<string, PrismaErrorMapping>> = {}): PrismaErrorMap {
  return new Map([...Object.entries(DEFAULT_PRISMA_ERROR_MAP), ...Object.entries(overrides)]);
}

export type PrismaErrorMap = ReadonlyMap<string, PrismaErrorMapping>;
