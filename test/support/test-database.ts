import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';

import { createSampleDatabase, type SampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import { type DatabaseProvider, providerOf } from '../../fixtures/blog/database/database-url.js';
import { pushSchemaIfEmpty, sampleDdl, withMysql } from '../../fixtures/blog/database/prepare-database.js';
import { RUN_CACHE_VARIABLE, SERVER_URL_VARIABLES } from './global-setup.js';
import { testPlatform } from './test-platform.js';

/**
 * The databases every e2e suite runs on: SQLite always, PostgreSQL and MySQL/MariaDB when global
 * setup found their servers (TEST_POSTGRES_URL, TEST_MYSQL_URL). The platform's suites run on
 * SQLite only on Fastify: the platform ends at the parsed request and the answer, the database
 * starts at the Prisma call, and no code meets both; Express runs them on every database.
 */
export function testProviders(): DatabaseProvider[] {
  if (testPlatform() === 'fastify') return ['sqlite'];
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
    await copyFile(await sqliteTemplate(), file);
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

/**
 * A file made once for the whole run (`RUN_CACHE_VARIABLE`, set by global setup): every test file
 * is a fresh module registry, where the schema engine's WebAssembly would compile again (a third
 * of a second) for its first database. Written whole by a rename, so that workers share it safely.
 */
async function runCache(name: string, make: (file: string) => Promise<void>): Promise<string> {
  const folder = process.env[RUN_CACHE_VARIABLE] ?? path.join(os.tmpdir(), `crud-api-test-${process.pid}`);
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, name);
  if (!existsSync(file)) {
    const partial = `${file}.${randomUUID()}`;
    await make(partial);
    await rename(partial, file);
  }
  return file;
}

/** The sample schema's DDL, rendered once per run. */
async function cachedDdl(provider: DatabaseProvider, url: string): Promise<string> {
  const file = await runCache(`${provider}.sql`, async (partial) => writeFile(partial, await sampleDdl(provider, url)));
  return readFile(file, 'utf8');
}

/** An SQLite file holding the empty sample schema: each test database is a copy. */
const sqliteTemplate = (): Promise<string> =>
  runCache('sqlite.db', async (partial) => {
    await pushSchemaIfEmpty(`file:${partial}`, await cachedDdl('sqlite', `file:${partial}`));
  });

async function open(url: string, remove: () => Promise<unknown>): Promise<TestDatabase> {
  const provider = providerOf(url);
  if (provider !== 'sqlite') await pushSchemaIfEmpty(url, await cachedDdl(provider, url));
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
