import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { packPackage, ROOT_DIR, run } from '../../scripts/build-package.js';

/** The Nest 11 application under test/ (its own package, outside the root install). */
export const NEST11_APP_DIR = path.join(ROOT_DIR, 'test/nest11-app');

const PACK_DIR = path.join(NEST11_APP_DIR, '.pack');
/** Holds the hash of the inputs the prepared application was built from. */
const STAMP = path.join(NEST11_APP_DIR, '.prepared');
const LOCK = path.join(NEST11_APP_DIR, '.preparing');
const STALE_LOCK_MS = 15 * 60_000;

/** Every file the prepared application depends on: the library's sources and build set-up, and the app's own. */
function inputFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'generated' ? [] : walk(full);
      return full.endsWith('.ts') && !full.endsWith('.spec.ts') ? [full] : [];
    });
  const app = (file: string) => path.join(NEST11_APP_DIR, file);
  return [
    ...[
      'package.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'tsconfig.build.cjs.json',
      'scripts/build-package.ts',
    ].map((file) => path.join(ROOT_DIR, file)),
    ...walk(path.join(ROOT_DIR, 'lib')),
    ...[
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'prisma.config.ts',
      'prisma/schema.prisma',
    ].map(app),
    ...walk(app('src')),
    ...walk(app('test')),
  ].sort();
}

function inputHash(): string {
  const hash = createHash('sha256');
  for (const file of inputFiles())
    hash.update(path.relative(ROOT_DIR, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/**
 * Installs the application as a user would: its locked Nest 11 dependencies from the registry,
 * the packed library, `prisma generate` (Prisma's client as CommonJS and the module's model
 * metadata, through the packed `nestjs-crud-api-generator`), then `tsc` to CommonJS, and a type
 * check of its Jest test too (ts-jest only transpiles it).
 */
function installApp(tarball: string): void {
  const npm = ['--no-audit', '--no-fund', '--loglevel=error'];
  run('npm', ['install', ...npm], NEST11_APP_DIR);
  run('npm', ['install', '--no-save', ...npm, tarball], NEST11_APP_DIR);
  // `prisma generate` never runs the schema engine it insists on: any executable keeps it offline.
  run('npx', ['prisma', 'generate'], NEST11_APP_DIR, { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath });
  rmSync(path.join(NEST11_APP_DIR, 'dist'), { recursive: true, force: true });
  // Its tsconfig's `incremental` would leave build info that skips the next build of a removed dist/.
  run('npx', ['tsc', '-p', 'tsconfig.build.json', '--incremental', 'false'], NEST11_APP_DIR);
  run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit', '--incremental', 'false'], NEST11_APP_DIR);
}

/** One preparation at a time across processes (jest workers, concurrent runs): a lock folder, taken atomically. */
async function withLock<T>(work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS)
        rmSync(LOCK, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/**
 * Builds and installs the Nest 11 application unless it is already built from the current inputs
 * (the library's sources and the application's files): the first run installs from the registry,
 * later runs reuse it. Returns whether it had to (re)build.
 */
export function prepareNest11App(): Promise<boolean> {
  return withLock(async () => {
    const hash = inputHash();
    if (
      existsSync(STAMP) &&
      readFileSync(STAMP, 'utf8') === hash &&
      existsSync(path.join(NEST11_APP_DIR, 'dist/main.js'))
    )
      return false;
    rmSync(STAMP, { force: true });
    rmSync(PACK_DIR, { recursive: true, force: true });
    installApp(await packPackage('server', PACK_DIR));
    writeFileSync(STAMP, hash);
    return true;
  });
}
