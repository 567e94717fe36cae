import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';
import mariadb from 'mariadb';
import pg from 'pg';

// Jest loads this file outside its module mapper: it imports packages only, no project files.

/** The environment variable that holds the admin URL of each server database. */
export const SERVER_URL_VARIABLES = { postgresql: 'TEST_POSTGRES_URL', mysql: 'TEST_MYSQL_URL' } as const;

export const DEFAULT_TEST_POSTGRES_URL = 'postgresql://postgres@127.0.0.1:5432/test';
export const DEFAULT_TEST_MYSQL_URL = 'mysql://root@127.0.0.1:3306/test';

/** The environment variable that holds the URL of the Redis server (the Redis change transport's suites). */
export const REDIS_URL_VARIABLE = 'TEST_REDIS_URL';
export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';

/** Set to 1, no server is used (`npm run test:fast`): SQLite only, the Redis suites left out. */
export const ONLY_SQLITE_VARIABLE = 'TEST_SQLITE_ONLY';

/** The folder where the suites keep what they make once per run (the sample schema's DDL), removed as the run ends. */
export const RUN_CACHE_VARIABLE = 'CRUD_API_TEST_CACHE';

interface ServerDatabase {
  name: string;
  variable: string;
  defaultUrl: string;
  /** The variable that makes an unreachable server fail the run (set by CI). */
  required: string;
  ping(url: string): Promise<unknown>;
}

const SERVERS: ServerDatabase[] = [
  {
    name: 'PostgreSQL',
    variable: SERVER_URL_VARIABLES.postgresql,
    defaultUrl: DEFAULT_TEST_POSTGRES_URL,
    required: 'REQUIRE_POSTGRES',
    ping: async (url) => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
      try {
        await client.connect();
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  },
  {
    name: 'MySQL/MariaDB',
    variable: SERVER_URL_VARIABLES.mysql,
    defaultUrl: DEFAULT_TEST_MYSQL_URL,
    required: 'REQUIRE_MARIADB',
    ping: async (url) => {
      const connection = await mariadb.createConnection({ ...mysqlAddress(url), connectTimeout: 2000 });
      await connection.end();
    },
  },
  {
    name: 'Redis',
    variable: REDIS_URL_VARIABLE,
    defaultUrl: DEFAULT_TEST_REDIS_URL,
    required: 'REQUIRE_REDIS',
    ping: async (url) => {
      const client = new Redis(url, { lazyConnect: true, connectTimeout: 2000, retryStrategy: () => null });
      try {
        await client.connect();
        await client.ping();
      } finally {
        client.disconnect();
      }
    },
  },
];

/**
 * Decides once which servers the suites run on: the URL in the environment, or a server
 * answering at the default address. With REQUIRE_POSTGRES=1, REQUIRE_MARIADB=1 or REQUIRE_REDIS=1
 * (CI) an unreachable server fails the run instead of leaving its suites out; with
 * TEST_SQLITE_ONLY=1 no server is used.
 */
export default async function globalSetup(): Promise<void> {
  const cache = await mkdtemp(path.join(os.tmpdir(), 'crud-api-test-'));
  process.env[RUN_CACHE_VARIABLE] = cache;
  process.once('exit', () => rmSync(cache, { recursive: true, force: true }));
  const only = process.env[ONLY_SQLITE_VARIABLE] === '1';
  for (const server of SERVERS) {
    if (only) {
      delete process.env[server.variable];
      continue;
    }
    const url = process.env[server.variable] ?? server.defaultUrl;
    try {
      await server.ping(url);
      process.env[server.variable] = url;
    } catch (error) {
      if (process.env[server.required] === '1') {
        throw new Error(
          `${server.name} is required (${server.required}=1) but ${url} is unreachable: ${String(error)}`,
          {
            cause: error,
          },
        );
      }
      delete process.env[server.variable];
      console.warn(`${server.name} at ${url} is unreachable: its suites do not run.`);
    }
  }
}

/** The connection settings of a mysql:// or mariadb:// URL. */
function mysqlAddress(url: string) {
  const { hostname, port, username, password, pathname } = new URL(url);
  return {
    host: hostname,
    port: Number(port || 3306),
    user: decodeURIComponent(username),
    password: decodeURIComponent(password),
    database: pathname.slice(1),
  };
}
