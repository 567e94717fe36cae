/** What the database itself said, read from the errors Prisma and the drivers throw. */

/** A database's own error, as a driver adapter error's `cause` (or a driver's error) carries it. */
export interface DatabaseError {
  kind: 'postgres' | 'mysql' | 'sqlite';
  code: string;
  /** MySQL's SQLSTATE. */
  state?: string;
  /** The mariadb driver's underlying failure, for a pool timeout (`connect ECONNREFUSED ...`). */
  cause?: string;
}

/** The database's error carried by a Prisma error from a driver adapter, if any. */
export function databaseErrorOf(meta: Record<string, unknown> | undefined): DatabaseError | undefined {
  const cause = (meta?.driverAdapterError as { cause?: Record<string, unknown> } | undefined)?.cause;
  const code = cause?.originalCode ?? cause?.code;
  if (typeof code !== 'string' && typeof code !== 'number') return undefined;
  const kind = cause?.kind === 'mysql' || cause?.kind === 'sqlite' ? cause.kind : kindOfCode(String(code));
  return {
    kind,
    code: String(code),
    state: typeof cause?.state === 'string' ? cause.state : undefined,
    cause: typeof cause?.cause === 'string' ? cause.cause : undefined,
  };
}

/** Adapters map some codes to kinds of their own (`TooManyConnections`...): the code tells the database. */
function kindOfCode(code: string): DatabaseError['kind'] {
  if (code.startsWith('SQLITE_')) return 'sqlite';
  return /^\d{4}$|^45\d{3}$/.test(code) ? 'mysql' : 'postgres';
}

/**
 * A database error thrown by the driver itself rather than through Prisma (an application's own
 * query on the pg or mariadb driver): pg's `DatabaseError` carries a SQLSTATE `code` and a
 * `severity`, mariadb's `SqlError` an `errno` and a `sqlState`.
 */
export function rawDatabaseErrorOf(error: Error): DatabaseError | undefined {
  const { code, severity, errno, sqlState } = error as Error & Record<string, unknown>;
  if (error.constructor.name === 'DatabaseError' && typeof code === 'string' && typeof severity === 'string') {
    return { kind: 'postgres', code };
  }
  if (error.name === 'SqlError' && typeof errno === 'number') {
    return { kind: 'mysql', code: String(errno), state: typeof sqlState === 'string' ? sqlState : undefined };
  }
  return undefined;
}
