import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

import { buildInputs, hashFiles, packPackage, ROOT_DIR, run } from '../../scripts/build-package.js';

/** The Nest 11 application under test/ (its own package, outside the root install). */
export const NEST11_APP_DIR = path.join(ROOT_DIR, 'test/nest11-app');

const PACK_DIR = path.join(NEST11_APP_DIR, '.pack');
/** Holds the hash of the inputs the prepared application was built from. */
const STAMP = path.join(NEST11_APP_DIR, '.prepared');
const LOCK = path.join(NEST11_APP_DIR, '.preparing');
const STALE_LOCK_MS = 15 * 60_000;

/** Every file the prepared application depends on: what the library's build reads, and the app's own files. */
async function inputFiles(): Promise<string[]> {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'generated' ? [] : walk(full);
      return full.endsWith('.ts') ? [full] : [];
    });
  const app = (file: string) => path.join(NEST11_APP_DIR, file);
  return [
    ...(await buildInputs('server')),
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
  ];
}

/**
 * Installs the application as a user would: its locked Nest 11 dependencies from the registry,
 * the packed library, `prisma generate` (Prisma's client as CommonJS and the module's model
 * metadata, through the packed `nestjs-crud-api-generator`), then `tsc` to CommonJS, and a type
 * check of its Jest test too (ts-jest only transpiles it).
 */
function installApp(tarball: string): void {
  const npm = ['--no-audit', '--no-fund', '--loglevel=error'];
  const env = { ...process.env, ...sqlitePrebuild() };
  installLockedDependencies(() => run('npm', ['install', ...npm], NEST11_APP_DIR, env));
  run('npm', ['install', '--no-save', ...npm, tarball], NEST11_APP_DIR, env);
  // `prisma generate` never runs the schema engine it insists on: any executable keeps it offline.
  run('npx', ['prisma', 'generate'], NEST11_APP_DIR, { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath });
  rmSync(path.join(NEST11_APP_DIR, 'dist'), { recursive: true, force: true });
  // Its tsconfig's `incremental` would leave build info that skips the next build of a removed dist/.
  run('npx', ['tsc', '-p', 'tsconfig.build.json', '--incremental', 'false'], NEST11_APP_DIR);
  run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit', '--incremental', 'false'], NEST11_APP_DIR);
}

/**
 * Installs the application's locked dependencies (not the library) once per lock file and Node
 * version into a cache folder, and copies them from there: npm spends half a minute of CPU
 * extracting them, a copy takes a second or two. Older cached installs are removed.
 */
function installLockedDependencies(install: () => void): void {
  const key = createHash('sha256')
    .update(readFileSync(path.join(NEST11_APP_DIR, 'package-lock.json')))
    .update(process.version)
    .digest('hex')
    .slice(0, 16);
  const cacheRoot = path.join(
    process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'),
    'nestjs-crud-api/nest11-app',
  );
  const cached = path.join(cacheRoot, key);
  const modules = path.join(NEST11_APP_DIR, 'node_modules');
  rmSync(modules, { recursive: true, force: true });
  if (!existsSync(cached)) {
    install();
    mkdirSync(cacheRoot, { recursive: true });
    for (const old of readdirSync(cacheRoot)) rmSync(path.join(cacheRoot, old), { recursive: true, force: true });
    run('cp', ['-a', modules, `${cached}.partial`]);
    renameSync(`${cached}.partial`, cached);
  } else run('cp', ['-a', cached, modules]);
}

/**
 * better-sqlite3's installer downloads a prebuilt binary from GitHub, out of reach here, and then
 * compiles SQLite (about a minute of a core). The root install already built the same version for
 * this Node: offered as a local prebuild, the application's install unpacks it instead.
 */
function sqlitePrebuild(): Record<string, string> {
  const rootPackage = path.join(ROOT_DIR, 'node_modules/better-sqlite3');
  const appLock = JSON.parse(readFileSync(path.join(NEST11_APP_DIR, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const { version } = JSON.parse(readFileSync(path.join(rootPackage, 'package.json'), 'utf8')) as { version: string };
  const binary = 'build/Release/better_sqlite3.node';
  if (
    appLock.packages['node_modules/better-sqlite3']?.version !== version ||
    !existsSync(path.join(rootPackage, binary))
  )
    return {};
  const dir = path.join(PACK_DIR, 'prebuilds');
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  mkdirSync(dir, { recursive: true });
  run('tar', ['-czf', path.join(dir, name), '-C', rootPackage, binary]);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
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
    const hash = hashFiles(await inputFiles());
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
