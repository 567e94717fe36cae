import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';

import { createSampleDatabase, type SampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import type { DatabaseProvider } from '../../fixtures/blog/database/database-url.js';
import { pushSchemaIfEmpty, withMysql } from '../../fixtures/blog/database/prepare-database.js';
import { SERVER_URL_VARIABLES } from './global-setup.js';

/**
 * The databases every e2e suite runs on: SQLite always, PostgreSQL and MySQL/MariaDB when global
 * setup found their servers (TEST_POSTGRES_URL, TEST_MYSQL_URL).
 */
export function testProviders(): DatabaseProvider[] {
  return (['sqlite', 'postgresql', 'mysql'] as const).filter(
    (provider) => provider === 'sqlite' || SERVER_URL_VARIABLES[provider] in process.env,
  );
}

export interface TestDatabase extends SampleDatabase {
  url: string;
  /** Every SQL statement Prisma ran since the last `queries.length = 0`. */
  queries: string[];
  /** The bound parameters of each statement in `queries`, as Prisma logs them (a JSON array). */
  queryParams: string[];
  drop(): Promise<void>;
}

/** A fresh, empty database with the sample schema: a temporary SQLite file or a new database on the PostgreSQL or MySQL server. */
export async function createTestDatabase(provider: DatabaseProvider): Promise<TestDatabase> {
  const name = `crud_api_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  if (provider === 'sqlite') {
    const file = path.join(os.tmpdir(), `${name}.db`);
    return open(`file:${file}`, () => rm(file, { force: true }));
  }
  const adminUrl = process.env[SERVER_URL_VARIABLES[provider]]!;
  const admin = provider === 'postgresql' ? withPg : withMysqlAdmin;
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop =
    provider === 'postgresql' ? `DROP DATABASE IF EXISTS ${name} WITH (FORCE)` : `DROP DATABASE IF EXISTS ${name}`;
  return open(url.toString(), () => admin(adminUrl, drop));
}

async function open(url: string, remove: () => Promise<unknown>): Promise<TestDatabase> {
  await pushSchemaIfEmpty(url);
  const database = createSampleDatabase(url, { emitQueryEvents: true });
  const queries: string[] = [];
  const queryParams: string[] = [];
  (database.prisma as unknown as { $on(event: 'query', cb: (e: { query: string; params: string }) => void): void }).$on(
    'query',
    (event) => {
      queries.push(event.query);
      queryParams.push(event.params);
    },
  );
  return {
    ...database,
    url,
    queries,
    queryParams,
    drop: async () => {
      await database.prisma.$disconnect();
      await remove();
    },
  };
}

/** Runs one statement on the PostgreSQL database at `url`. */
export async function withPg(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function withMysqlAdmin(url: string, sql: string): Promise<void> {
  await withMysql(url, (connection) => connection.query(sql));
}
