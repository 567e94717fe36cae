import { defineConfig } from 'prisma/config';

// The schema is chosen by `scripts/prisma-generate.ts` (SQLite, or its PostgreSQL variant).
export default defineConfig({
  schema: process.env.PRISMA_SCHEMA ?? 'fixtures/blog/prisma/schema.prisma',
});
