import path from 'node:path';

/**
 * Where the sample app's schemas live: SQLite is written by hand, PostgreSQL and MySQL are
 * derived from it.
 */
export const sampleSchemas = {
  sqlite: path.resolve('sample-app/prisma/schema.prisma'),
  postgresql: path.resolve('sample-app/generated/postgresql/schema.prisma'),
  mysql: path.resolve('sample-app/generated/mysql/schema.prisma'),
} as const;

export type SampleProvider = keyof typeof sampleSchemas;

/**
 * The MySQL/MariaDB tables of the sample schema. The WebAssembly schema engine has no MySQL
 * connector, so this DDL is kept by hand; test/e2e/mysql-schema.e2e-spec.ts proves it matches.
 */
export const SAMPLE_MYSQL_DDL = path.resolve('sample-app/prisma/mysql/schema.sql');

/** Preview features each derived schema switches on (full-text search is GA on MySQL). */
const PREVIEW_FEATURES: Readonly<Record<Exclude<SampleProvider, 'sqlite'>, string[]>> = {
  postgresql: ['fullTextSearchPostgres'],
  mysql: [],
};

/**
 * The variant of the SQLite schema for another provider: the provider switched, its own output
 * folders, what follows a `// <provider>: ` marker enabled (a whole line such as a scalar list or a
 * full-text index, or attributes at the end of a field such as `@db.Text`) and its preview features on.
 */
export function deriveSchema(sqliteSchema: string, provider: Exclude<SampleProvider, 'sqlite'>): string {
  const features = PREVIEW_FEATURES[provider];
  return sqliteSchema
    .replace('provider = "sqlite"', `provider = "${provider}"`)
    .replaceAll('"../generated/sqlite/', '"./')
    .replaceAll(`// ${provider}: `, '')
    .replace(
      'provider     = "prisma-client"',
      features.length === 0 ? '$&' : `$&\n  previewFeatures = [${features.map((name) => `"${name}"`).join(', ')}]`,
    );
}
