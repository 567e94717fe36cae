/** The sample app's database: an embedded SQLite file unless DATABASE_URL names PostgreSQL. */
export const DEFAULT_DATABASE_URL = 'file:./sample-app/dev.db';

export type DatabaseProvider = 'sqlite' | 'postgresql';

export function providerOf(url: string): DatabaseProvider {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  throw new Error(`DATABASE_URL must be a file: (SQLite) or postgresql:// URL, got "${url}"`);
}
