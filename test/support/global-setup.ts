import pg from 'pg';

export const DEFAULT_TEST_POSTGRES_URL = 'postgresql://postgres@127.0.0.1:5432/test';

/**
 * Decides once whether the PostgreSQL suites run: TEST_POSTGRES_URL, or a server answering at
 * the default address. With REQUIRE_POSTGRES=1 (CI) an unreachable server fails the run.
 */
export default async function globalSetup(): Promise<void> {
  const url = process.env.TEST_POSTGRES_URL ?? DEFAULT_TEST_POSTGRES_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    process.env.TEST_POSTGRES_URL = url;
  } catch (error) {
    if (process.env.REQUIRE_POSTGRES === '1') {
      throw new Error(`PostgreSQL is required (REQUIRE_POSTGRES=1) but ${url} is unreachable: ${String(error)}`);
    }
    delete process.env.TEST_POSTGRES_URL;
    console.warn(`PostgreSQL at ${url} is unreachable: running the SQLite suites only.`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
