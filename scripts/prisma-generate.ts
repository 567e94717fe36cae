import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { deriveSchema, sampleSchemas } from '../fixtures/blog/database/sample-schemas.js';

// `prisma generate` insists on a schema-engine binary it never runs, and would download one:
// pointing it at any existing executable keeps it offline (docs/contributing.md).
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
};

const sqliteSchema = await readFile(sampleSchemas.sqlite, 'utf8');
for (const provider of ['postgresql', 'mysql'] as const) {
  await mkdir(path.dirname(sampleSchemas[provider]), { recursive: true });
  await writeFile(sampleSchemas[provider], deriveSchema(sqliteSchema, provider));
}

// Three independent runs: side by side, they share the cores.
const exits = await Promise.all(
  Object.values(sampleSchemas).map(
    (schema) =>
      new Promise<number | null>((resolve) =>
        spawn(process.execPath, [path.resolve('node_modules/prisma/build/index.js'), 'generate'], {
          stdio: 'inherit',
          env: { ...env, PRISMA_SCHEMA: schema },
        }).on('close', resolve),
      ),
  ),
);
if (exits.some((code) => code !== 0)) process.exit(1);
