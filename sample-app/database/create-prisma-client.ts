import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaMariaDb } from '@prisma/adapter-mariadb';
import { PrismaPg } from '@prisma/adapter-pg';

import { modelMeta as mysqlModelMeta } from '../generated/mysql/crud-api/index.js';
import { PrismaClient as MysqlPrismaClient } from '../generated/mysql/prisma/client.js';
import { modelMeta as postgresModelMeta } from '../generated/postgresql/crud-api/index.js';
import { PrismaClient as PostgresPrismaClient } from '../generated/postgresql/prisma/client.js';
import { modelMeta as sqliteModelMeta } from '../generated/sqlite/crud-api/index.js';
import { PrismaClient as SqlitePrismaClient } from '../generated/sqlite/prisma/client.js';
import { type DatabaseProvider, providerOf } from './database-url.js';

export type SamplePrismaClient = InstanceType<typeof SqlitePrismaClient>;

type SampleAdapter = PrismaBetterSqlite3 | PrismaPg | PrismaMariaDb;
type ClientOptions = ConstructorParameters<typeof SqlitePrismaClient>[0];

/** Per provider: its driver adapter for a URL, its generated client and its model metadata. */
const PROVIDERS = {
  sqlite: {
    adapter: (url: string) => new PrismaBetterSqlite3({ url }),
    client: (options: ClientOptions) => new SqlitePrismaClient(options),
    modelMeta: sqliteModelMeta,
  },
  postgresql: {
    adapter: (url: string) => new PrismaPg({ connectionString: url }),
    client: (options: ClientOptions) => new PostgresPrismaClient(options as never) as unknown as SamplePrismaClient,
    modelMeta: postgresModelMeta,
  },
  mysql: {
    // The adapter reads mysql:// and mariadb:// URLs alike.
    adapter: (url: string) => new PrismaMariaDb(url),
    client: (options: ClientOptions) => new MysqlPrismaClient(options as never) as unknown as SamplePrismaClient,
    modelMeta: mysqlModelMeta,
  },
} as const;

/** A driver adapter factory for the URL: better-sqlite3 for `file:`, pg for PostgreSQL, mariadb for MySQL/MariaDB. */
export function createAdapter(url: string): SampleAdapter {
  return PROVIDERS[providerOf(url)].adapter(url);
}

export interface SampleDatabase {
  provider: DatabaseProvider;
  prisma: SamplePrismaClient;
  modelMeta: typeof sqliteModelMeta | typeof postgresModelMeta | typeof mysqlModelMeta;
}

/**
 * The Prisma client and model metadata generated for the URL's provider. The clients share the
 * sample models (PostgreSQL adds scalar lists), so they are typed as the SQLite one.
 */
export function createSampleDatabase(url: string, options: { emitQueryEvents?: boolean } = {}): SampleDatabase {
  const provider = providerOf(url);
  const { adapter, client, modelMeta } = PROVIDERS[provider];
  // Query events let tests count the SQL statements a request runs.
  const log = options.emitQueryEvents ? [{ emit: 'event' as const, level: 'query' as const }] : [];
  return { provider, prisma: client({ adapter: adapter(url), log }), modelMeta };
}
