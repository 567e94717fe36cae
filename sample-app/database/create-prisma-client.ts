import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { modelMeta as postgresModelMeta } from '../generated/postgresql/crud-api/index.js';
import { PrismaClient as PostgresPrismaClient } from '../generated/postgresql/prisma/client.js';
import { modelMeta as sqliteModelMeta } from '../generated/sqlite/crud-api/index.js';
import { PrismaClient as SqlitePrismaClient } from '../generated/sqlite/prisma/client.js';
import { type DatabaseProvider, providerOf } from './database-url.js';

export type SamplePrismaClient = InstanceType<typeof SqlitePrismaClient>;

/** A driver adapter factory for the URL: better-sqlite3 for `file:`, pg for PostgreSQL. */
export function createAdapter(url: string): PrismaBetterSqlite3 | PrismaPg {
  return providerOf(url) === 'sqlite' ? new PrismaBetterSqlite3({ url }) : new PrismaPg({ connectionString: url });
}

export interface SampleDatabase {
  provider: DatabaseProvider;
  prisma: SamplePrismaClient;
  modelMeta: typeof sqliteModelMeta | typeof postgresModelMeta;
}

/**
 * The Prisma client and model metadata generated for the URL's provider. Both clients share the
 * sample models (PostgreSQL adds scalar lists), so they are typed as the SQLite one.
 */
export function createSampleDatabase(url: string, options: { emitQueryEvents?: boolean } = {}): SampleDatabase {
  const provider = providerOf(url);
  const adapter = createAdapter(url);
  // Query events let tests count the SQL statements a request runs.
  const log = options.emitQueryEvents ? [{ emit: 'event' as const, level: 'query' as const }] : [];
  const prisma =
    provider === 'sqlite'
      ? new SqlitePrismaClient({ adapter, log })
      : (new PostgresPrismaClient({ adapter, log }) as unknown as SamplePrismaClient);
  return { provider, prisma, modelMeta: provider === 'sqlite' ? sqliteModelMeta : postgresModelMeta };
}
