import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import type { BenchDatabase } from '../bench-options.js';

/**
 * A fresh database with the sample schema, deleted by `drop()`: a SQLite file in the temporary
 * directory, or a new database on the PostgreSQL server of `postgresUrl` (the test suite's helper).
 */
export function createBenchDatabase(kind: BenchDatabase, postgresUrl: string): Promise<TestDatabase> {
  if (kind === 'sqlite') return createTestDatabase('sqlite');
  process.env.TEST_POSTGRES_URL = postgresUrl;
  return createTestDatabase('postgresql');
}
