import { readFile } from 'node:fs/promises';

import Database from 'better-sqlite3';
import mariadb from 'mariadb';
import pg from 'pg';

import { createAdapter } from './create-prisma-client.js';
import { type DatabaseProvider, providerOf } from './database-url.js';
import { SAMPLE_MYSQL_DDL, sampleSchemas } from './sample-schemas.js';
import { renderSchemaDdl } from './schema-push.js';

/**
 * Creates the sample schema's tables when the database has none (a fresh SQLite file or an empty
 * PostgreSQL or MySQL database). Returns whether it did. An existing schema is left as it is.
 */
export async function pushSchemaIfEmpty(url: string): Promise<boolean> {
  const provider = providerOf(url);
  return PUSH_IF_EMPTY[provider](url, await sampleDdl(provider, url));
}

/** The DDL of the sample schema: rendered by the WebAssembly schema engine, kept by hand for MySQL (it has no MySQL connector). */
function sampleDdl(provider: DatabaseProvider, url: string): Promise<string> {
  if (provider === 'mysql') return readFile(SAMPLE_MYSQL_DDL, 'utf8');
  return renderSchemaDdl(sampleSchemas[provider], createAdapter(url) as Parameters<typeof renderSchemaDdl>[1]);
}

const PUSH_IF_EMPTY: Record<DatabaseProvider, (url: string, ddl: string) => Promise<boolean>> = {
  sqlite: async (url, ddl) => {
    const db = new Database(url.slice('file:'.length));
    try {
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
      if (tables.n > 0) return false;
      db.exec(ddl);
      return true;
    } finally {
      db.close();
    }
  },
  postgresql: async (url, ddl) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const result = await client.query(
        'SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema()',
      );
      if (result.rows[0].n > 0) return false;
      await client.query(ddl);
      return true;
    } finally {
      await client.end();
    }
  },
  mysql: (url, ddl) =>
    withMysql(url, async (connection) => {
      const [row] = await connection.query<{ n: number }[]>(
        'SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = database()',
      );
      if (Number(row!.n) > 0) return false;
      await connection.query(ddl);
      return true;
    }),
};

/** One MySQL/MariaDB connection for `fn` (multi-statement, for DDL scripts), closed afterwards. */
export async function withMysql<T>(url: string, fn: (connection: mariadb.Connection) => Promise<T>): Promise<T> {
  const connection = await mariadb.createConnection(mysqlConnectionString(url));
  try {
    return await fn(connection);
  } finally {
    await connection.end();
  }
}

/** The mariadb driver reads only `mariadb://` URLs; Prisma's documentation writes `mysql://`. */
function mysqlConnectionString(url: string): string {
  const parsed = new URL(url);
  parsed.protocol = 'mariadb:';
  parsed.searchParams.set('multipleStatements', 'true');
  return parsed.toString();
}
