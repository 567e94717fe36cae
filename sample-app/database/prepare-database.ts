import Database from 'better-sqlite3';
import pg from 'pg';
import { createAdapter } from './create-prisma-client.js';
import { providerOf } from './database-url.js';
import { sampleSchemas } from './sample-schemas.js';
import { renderSchemaDdl } from './schema-push.js';

/**
 * Creates the sample schema's tables when the database has none (a fresh SQLite file or an empty
 * PostgreSQL database). Returns whether it did. An existing schema is left as it is.
 */
export async function pushSchemaIfEmpty(url: string): Promise<boolean> {
  const provider = providerOf(url);
  const ddl = await renderSchemaDdl(sampleSchemas[provider], createAdapter(url));
  if (provider === 'sqlite') {
    const db = new Database(url.slice('file:'.length));
    try {
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
      if (tables.n > 0) return false;
      db.exec(ddl);
      return true;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema()",
    );
    if (result.rows[0].n > 0) return false;
    await client.query(ddl);
    return true;
  } finally {
    await client.end();
  }
}
