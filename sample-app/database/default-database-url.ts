/** The sample app's database (and `npm run db:push`'s): an embedded SQLite file unless DATABASE_URL names PostgreSQL or MySQL/MariaDB. */
export const DEFAULT_DATABASE_URL = 'file:./sample-app/dev.db';
