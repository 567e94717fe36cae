import path from 'node:path';

/** Where the sample app's schemas live: SQLite is written by hand, PostgreSQL is derived from it. */
export const sampleSchemas = {
  sqlite: path.resolve('sample-app/prisma/schema.prisma'),
  postgresql: path.resolve('sample-app/generated/postgresql/schema.prisma'),
} as const;

export type SampleProvider = keyof typeof sampleSchemas;

/**
 * The PostgreSQL variant of the SQLite schema: another provider, its own output folders, the
 * lines marked `// postgresql:` enabled (scalar lists) and full-text search switched on.
 */
export function derivePostgresSchema(sqliteSchema: string): string {
  return sqliteSchema
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replaceAll('"../generated/sqlite/', '"./')
    .replace(/^(\s*)\/\/ postgresql: /gm, '$1')
    .replace('provider     = "prisma-client"', 'provider     = "prisma-client"\n  previewFeatures = ["fullTextSearchPostgres"]');
}
