import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createSampleDatabase, type SampleDatabase } from '../../sample-app/database/create-prisma-client.js';
import type { DatabaseProvider } from '../../sample-app/database/database-url.js';
import { pushSchemaIfEmpty } from '../../sample-app/database/prepare-database.js';

/** The databases every e2e suite runs on: SQLite always, PostgreSQL when global setup found one. */
export function testProviders(): DatabaseProvider[] {
  return process.env.TEST_POSTGRES_URL ? ['sqlite', 'postgresql'] : ['sqlite'];
}

export interface TestDatabase extends SampleDatabase {
  url: string;
  /** Every SQL statement Prisma ran since the last `queries.length = 0`. */
  queries: string[];
  /** The bound parameters of each statement in `queries`, as Prisma logs them (a JSON array). */
  queryParams: string[];
  drop(): Promise<void>;
}

/** A fresh, empty database with the sample schema: a temporary SQLite file or a new PostgreSQL database. */
export async function createTestDatabase(provider: DatabaseProvider): Promise<TestDatabase> {
  const name = `crud_api_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  if (provider === 'sqlite') {
    const file = path.join(os.tmpdir(), `${name}.db`);
    return open(`file:${file}`, () => rm(file, { force: true }));
  }
  const adminUrl = process.env.TEST_POSTGRES_URL!;
  await withPg(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return open(url.toString(), () => withPg(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
}

async function open(url: string, remove: () => Promise<unknown>): Promise<TestDatabase> {
  await pushSchemaIfEmpty(url);
  const database = createSampleDatabase(url, { emitQueryEvents: true });
  const queries: string[] = [];
  const queryParams: string[] = [];
  (database.prisma as unknown as { $on(event: 'query', cb: (e: { query: string; params: string }) => void): void }).$on('query', (event) => {
    queries.push(event.query);
    queryParams.push(event.params);
  });
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

async function withPg<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
