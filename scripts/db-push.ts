// `npm run db:push`: creates the sample schema's tables in DATABASE_URL (SQLite by default)
// without Prisma's native schema engine, which cannot be downloaded offline.
import { pushSchemaIfEmpty } from '../fixtures/blog/database/prepare-database.js';
import { DEFAULT_DATABASE_URL } from '../sample-app/database/default-database-url.js';

const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const created = await pushSchemaIfEmpty(url);
console.log(created ? `Created the sample schema in ${url}` : `${url} already has tables; left unchanged`);
