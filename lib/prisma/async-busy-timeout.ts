/**
 * Two faults of Prisma's better-sqlite3 adapter, which this wraps the factory of:
 * - it waits for a lock held by another connection synchronously (its busy timeout): the whole
 *   Node process stops, timers and health checks included. A statement finding the database locked
 *   is retried after an asynchronous pause instead, until a deadline;
 * - it has one connection, and runs a statement made outside an open interactive transaction on it
 *   all the same: inside that transaction, reading its uncommitted writes and undone by its
 *   rollback (an acknowledged write lost). Such writes wait until the transaction ends, and such
 *   reads run on a connection of their own.
 */

/** The parts of Prisma's SQL driver adapter interfaces (`@prisma/driver-adapter-utils`) this wrapper touches. */
interface SqlQuery {
  sql: string;
  args: unknown[];
  argTypes: unknown[];
}

interface SqlQueryable {
  queryRaw(query: SqlQuery): Promise<unknown>;
  executeRaw(query: SqlQuery): Promise<number>;
}

interface SqlTransaction extends SqlQueryable {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

interface SqlDriverAdapter extends SqlQueryable {
  executeScript(script: string): Promise<void>;
  startTransaction(isolationLevel?: never): Promise<SqlTransaction>;
  dispose(): Promise<void>;
}

// `connect` answers Prisma's adapter, read as the parts above once connected: the public signature
// names no more of Prisma's driver interfaces than the provider check needs.
export interface SqlDriverAdapterFactory {
  readonly provider: string;
  connect(): Promise<unknown>;
}

export interface AsyncBusyTimeoutOptions {
  /**
   * Longest a statement waits for a lock another connection holds, or a write for the end of a
   * transaction of this process, in milliseconds, before it fails with the database's busy error
   * (answered 503 with `Retry-After`). Default 5000.
   */
  timeout?: number;
}

/** The longest the driver itself may block the process on one attempt. */
const SYNCHRONOUS_SLICE_MS = 5;
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 25;
const DEFAULT_TIMEOUT_MS = 5000;

/** Methods that run one statement (or script), which may find the database locked. */
const STATEMENT_METHODS = new Set<PropertyKey>([
  'queryRaw',
  'executeRaw',
  'executeScript',
  'createSavepoint',
  'rollbackToSavepoint',
  'releaseSavepoint',
]);

/**
 * A SQLite driver adapter factory whose connections never block the process for longer than a few
 * milliseconds on a locked database, and whose transactions are isolated from the statements made
 * outside them:
 *
 * ```ts
 * const adapter = withAsyncBusyTimeout(new PrismaBetterSqlite3({ url }), { timeout: 5000 });
 * const prisma = new PrismaClient({ adapter });
 * ```
 *
 * Retrying a statement that failed busy is what SQLite's own busy handler does: such a statement
 * had no effect. A stale WAL snapshot (`SQLITE_BUSY_SNAPSHOT`) cannot succeed by waiting and fails
 * at once. Transactions take the connection in turn and a write made outside them while one is open
 * waits for its end; reads made outside them run at once on a second connection, which sees only
 * committed rows. Factories of other providers are returned unchanged.
 */
export function withAsyncBusyTimeout<Factory extends SqlDriverAdapterFactory>(
  factory: Factory,
  options: AsyncBusyTimeoutOptions = {},
): Factory {
  if (factory.provider !== 'sqlite') return factory;
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeout) || timeout < 0) {
    throw new RangeError(`withAsyncBusyTimeout: timeout must be a number of milliseconds >= 0 (got ${timeout}).`);
  }
  return new Proxy(factory, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== 'function') return value;
      if (property !== 'connect') return value.bind(target);
      return async () => {
        const connect = async () => {
          const adapter = (await value.call(target)) as SqlDriverAdapter;
          // The driver's own wait becomes a short slice; the rest of the wait is ours, asynchronous.
          await adapter.executeScript(`PRAGMA busy_timeout = ${SYNCHRONOUS_SLICE_MS}`);
          return retryingBusy(adapter, timeout);
        };
        const writer = await connect();
        // A database in memory exists on its connection alone: it cannot have a second one.
        return isolated(writer, (await inFile(writer)) ? await connect() : undefined, timeout);
      };
    },
  });
}

/** The adapter (or transaction) with its statements retried while the database is busy; its transactions too. */
function retryingBusy<Target extends object>(target: Target, timeout: number): Target {
  return new Proxy(target, {
    // Methods run on the adapter itself, not the proxy: the adapters keep state in private fields.
    get(object, property) {
      const value = Reflect.get(object, property) as unknown;
      if (typeof value !== 'function') return value;
      if (STATEMENT_METHODS.has(property)) {
        return (...args: unknown[]) => whileBusy(() => value.apply(object, args) as Promise<unknown>, timeout);
      }
      if (property === 'startTransaction') {
        return async (...args: unknown[]) => retryingBusy((await value.apply(object, args)) as object, timeout);
      }
      return value.bind(object);
    },
  });
}

/** Whether the adapter's main database is a file (not in memory, not temporary). */
async function inFile(adapter: SqlDriverAdapter): Promise<boolean> {
  const { columnNames, rows } = (await adapter.queryRaw({ sql: 'PRAGMA database_list', args: [], argTypes: [] })) as {
    columnNames: string[];
    rows: unknown[][];
  };
  const [name, file] = [columnNames.indexOf('name'), columnNames.indexOf('file')];
  return rows.some((row) => row[name] === 'main' && typeof row[file] === 'string' && row[file] !== '');
}

/** SQL that only reads: what Prisma's reads start with. */
const READ_ONLY = /^\s*SELECT\b/i;

/** SQL that sets up the connection it runs on (its settings, its attached databases): both connections run it. */
const CONNECTION_SETUP = /^\s*(PRAGMA|ATTACH|DETACH)\b/i;

/** The adapter's methods that run SQL outside transactions: a query, or a script. */
const SQL_METHODS = new Set<PropertyKey>(['queryRaw', 'executeRaw', 'executeScript']);

type SqlMethod = (input: SqlQuery | string) => Promise<unknown>;

/**
 * The writer's connection with its transactions holding it from start to end: writes made outside
 * them wait meanwhile, and so do later transactions, first come first served. Reads made outside
 * transactions run at once on the reader's connection, which sees committed rows only (on the
 * writer's without one, waiting their turn too); what sets a connection up runs on both. A
 * statement that waits longer than `timeout` for its turn fails as a busy database does: it had no
 * effect.
 */
function isolated(writer: SqlDriverAdapter, reader: SqlDriverAdapter | undefined, timeout: number): SqlDriverAdapter {
  const turns = new Turns(timeout);
  return new Proxy(writer, {
    get(object, property) {
      const value = Reflect.get(object, property) as unknown;
      if (typeof value !== 'function') return value;
      if (reader && SQL_METHODS.has(property)) {
        const method = property as 'queryRaw' | 'executeRaw' | 'executeScript';
        return (input: SqlQuery | string) => {
          const sql = typeof input === 'string' ? input : input.sql;
          if (method === 'queryRaw' && READ_ONLY.test(sql)) return reader.queryRaw(input as SqlQuery);
          return turns.run(async () => {
            const result = await (value as SqlMethod).call(object, input);
            if (CONNECTION_SETUP.test(sql)) await (reader[method] as SqlMethod).call(reader, input);
            return result;
          });
        };
      }
      if (property === 'dispose' && reader) {
        return async () => {
          await reader.dispose();
          await (value as () => Promise<void>).call(object);
        };
      }
      if (STATEMENT_METHODS.has(property)) {
        return (...args: unknown[]) => turns.run(() => value.apply(object, args) as Promise<unknown>);
      }
      if (property === 'startTransaction') {
        return async (...args: unknown[]) => {
          const release = await turns.take();
          try {
            return endingTurn((await value.apply(object, args)) as SqlTransaction, release);
          } catch (error) {
            release();
            throw error;
          }
        };
      }
      return value.bind(object);
    },
  });
}

/** The transaction, giving its turn back once committed or rolled back. */
function endingTurn(transaction: SqlTransaction, release: () => void): SqlTransaction {
  return new Proxy(transaction, {
    get(object, property) {
      const value = Reflect.get(object, property) as unknown;
      if (typeof value !== 'function') return value;
      if (property !== 'commit' && property !== 'rollback') return value.bind(object);
      return async () => {
        try {
          await (value as () => Promise<void>).call(object);
        } finally {
          release();
        }
      };
    },
  });
}

/** A queue of turns on the connection. */
class Turns {
  private last: Promise<void> = Promise.resolve();
  /** Turns taken and not yet given back. */
  private held = 0;

  /** @param timeout Longest a statement waits for its turn. */
  constructor(private readonly timeout: number) {}

  /** Waits for the turns taken before, then holds the connection until the returned release is called. */
  async take(): Promise<() => void> {
    const previous = this.last;
    let free!: () => void;
    this.last = new Promise<void>((resolve) => (free = resolve));
    this.held += 1;
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
      free();
    };
  }

  /**
   * Runs a statement made outside transactions: at once when no turn is held, else in its own turn,
   * or not at all when that turn comes too late (it is given back as soon as it comes).
   */
  run<T>(statement: () => Promise<T>): Promise<T> {
    if (this.held === 0) return statement();
    return new Promise<T>((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        reject(new TurnTimeout());
      }, this.timeout);
      void this.take().then(async (release) => {
        clearTimeout(timer);
        try {
          if (!late) resolve(await statement());
        } catch (error) {
          reject(error);
        } finally {
          release();
        }
      });
    });
  }
}

/**
 * What the adapter answers for a busy database (Prisma recognises its adapters' errors by name and
 * cause, and reports this one as P1008): the statement did not run.
 */
class TurnTimeout extends Error {
  override readonly name = 'DriverAdapterError';
  override readonly cause = {
    kind: 'SocketTimeout',
    originalCode: 'SQLITE_BUSY',
    originalMessage: 'database is locked: a transaction of this process held it',
  };

  constructor() {
    super('SQLITE_BUSY: database is locked');
  }
}

async function whileBusy<T>(attempt: () => Promise<T>, timeout: number): Promise<T> {
  const deadline = Date.now() + timeout;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (error) {
      const remaining = deadline - Date.now();
      if (!isRetryableBusy(error) || remaining <= 0) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, remaining)));
    }
  }
}

/** The adapter's error for SQLITE_BUSY and its extended codes, except a stale snapshot. */
function isRetryableBusy(error: unknown): boolean {
  const code = (error as { cause?: { originalCode?: unknown } } | undefined)?.cause?.originalCode;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY') && code !== 'SQLITE_BUSY_SNAPSHOT';
}
