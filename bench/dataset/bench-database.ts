import type { DatabaseProvider } from '../../fixtures/blog/database/database-url.js';
import { SERVER_URL_VARIABLES } from '../../test/support/global-setup.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import type { BenchDatabase, BenchOptions } from '../bench-options.js';

const PROVIDERS: Record<BenchDatabase, DatabaseProvider> = {
  sqlite: 'sqlite',
  postgres: 'postgresql',
  mariadb: 'mysql',
};

/**
 * A fresh database with the sample schema, deleted by `drop()`: a SQLite file in the temporary
 * directory, or a new database on the PostgreSQL or MariaDB server of the options' admin URL
 * (the test suite's helper).
 */
export function createBenchDatabase({
  db,
  postgresUrl,
  mariadbUrl,
}: Pick<BenchOptions, 'db' | 'postgresUrl' | 'mariadbUrl'>): Promise<TestDatabase> {
  const provider = PROVIDERS[db];
  if (provider === 'postgresql') process.env[SERVER_URL_VARIABLES.postgresql] = postgresUrl;
  if (provider === 'mysql') process.env[SERVER_URL_VARIABLES.mysql] = mariadbUrl;
  return createTestDatabase(provider);
}
