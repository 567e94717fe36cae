/** The sample app's database: an embedded SQLite file unless DATABASE_URL names PostgreSQL or MySQL/MariaDB. */
export const DEFAULT_DATABASE_URL = 'file:./sample-app/dev.db';

/** Prisma's provider names; MariaDB is Prisma's `mysql` provider. */
export type DatabaseProvider = 'sqlite' | 'postgresql' | 'mysql';

export function providerOf(url: string): DatabaseProvider {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  if (/^(mysql|mariadb):\/\//.test(url)) return 'mysql';
  throw new Error(`DATABASE_URL must be a file: (SQLite), postgresql:// or mysql:// (MySQL/MariaDB) URL, got "${url}"`);
}
