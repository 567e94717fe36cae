import { databaseErrorOf } from '../prisma/database-error.js';

/** Prisma's request errors that come from the server or the pool, not from what was asked. */
const SERVER_CODES: ReadonlySet<string> = new Set(['P2024', 'P2028', 'P2034', 'P2037']);

/**
 * PostgreSQL's SQLSTATE classes of a server that cannot answer now: connection (08), a query a
 * standby cancelled as it replayed (40), resources (53), operator intervention such as a shutdown
 * (57), system errors (58) and internal ones (XX).
 */
const SERVER_CLASSES: ReadonlySet<string> = new Set(['08', '40', '53', '57', '58', 'XX']);

/**
 * Whether a read's failure on a replica was the server's (its connection, its state) rather than
 * the request's: such a read runs again on the primary. Errors that are not Prisma's (a driver's
 * `Connection terminated`) are the server's; Prisma's validation errors are the request's.
 */
export function isServerFailure(error: unknown): boolean {
  const { name, code, meta } = (error ?? {}) as { name?: unknown; code?: unknown; meta?: Record<string, unknown> };
  if (name === 'PrismaClientValidationError') return false;
  if (name !== 'PrismaClientKnownRequestError' || typeof code !== 'string') return true;
  if (code.startsWith('P1') || SERVER_CODES.has(code)) return true;
  const database = databaseErrorOf(meta);
  return database?.kind === 'postgres' && SERVER_CLASSES.has(database.code.slice(0, 2));
}
