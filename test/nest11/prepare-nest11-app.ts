import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root and the Nest 11 application under test/ (its own package, outside the root install). */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const NEST11_APP_DIR = path.join(ROOT_DIR, 'test/nest11-app');

const PACK_DIR = path.join(NEST11_APP_DIR, '.pack');
const STAGE_DIR = path.join(PACK_DIR, 'stage');
const TARBALL = path.join(PACK_DIR, 'nestjs-crud-api.tgz');
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
    ...['package.json', 'tsconfig.json', 'tsconfig.build.json'].map((file) => path.join(ROOT_DIR, file)),
    ...walk(path.join(ROOT_DIR, 'lib')),
    ...['package.json', 'package-lock.json', 'tsconfig.json', 'prisma.config.ts', 'prisma/schema.prisma'].map(app),
    ...walk(app('src')),
  ].sort();
}

function inputHash(): string {
  const hash = createHash('sha256');
  for (const file of inputFiles())
    hash.update(path.relative(ROOT_DIR, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** Runs a command; a failure throws with the command's whole output, so a broken install fails loudly. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  try {
    execFileSync(command, args, { cwd, env, stdio: 'pipe', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `Preparing the Nest 11 application failed: \`${command} ${args.join(' ')}\` in ${cwd}\n${stdout}\n${stderr}`,
      {
        cause: error,
      },
    );
  }
}

/** `npm pack` of the library as it is now, built into a staging folder so the shared `dist/` is left alone. */
function packLibrary(): void {
  rmSync(PACK_DIR, { recursive: true, force: true });
  mkdirSync(STAGE_DIR, { recursive: true });
  const tsc = path.join(ROOT_DIR, 'node_modules/typescript/bin/tsc');
  run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', path.join(STAGE_DIR, 'dist')], ROOT_DIR);
  for (const file of ['package.json', 'README.md']) copyFileSync(path.join(ROOT_DIR, file), path.join(STAGE_DIR, file));
  run('npm', ['pack', '--silent', '--pack-destination', PACK_DIR], STAGE_DIR);
  const [packed] = readdirSync(PACK_DIR).filter((name) => name.endsWith('.tgz'));
  if (!packed) throw new Error(`Preparing the Nest 11 application failed: npm pack wrote no tarball in ${PACK_DIR}`);
  renameSync(path.join(PACK_DIR, packed), TARBALL);
}

/**
 * Installs the application as a user would: its locked Nest 11 dependencies from the registry,
 * the packed library, `prisma generate` (Prisma's client as CommonJS and the module's model
 * metadata, through the packed `nestjs-crud-api-generator`), then `tsc` to CommonJS.
 */
function installApp(): void {
  const npm = ['--no-audit', '--no-fund', '--loglevel=error'];
  run('npm', ['install', ...npm], NEST11_APP_DIR);
  run('npm', ['install', '--no-save', ...npm, TARBALL], NEST11_APP_DIR);
  // `prisma generate` never runs the schema engine it insists on: any executable keeps it offline.
  run('npx', ['prisma', 'generate'], NEST11_APP_DIR, { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath });
  rmSync(path.join(NEST11_APP_DIR, 'dist'), { recursive: true, force: true });
  run('npx', ['tsc', '-p', 'tsconfig.json'], NEST11_APP_DIR);
}

/** One preparation at a time across processes (jest workers, concurrent runs): a lock folder, taken atomically. */
async function withLock<T>(work: () => T): Promise<T> {
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
    return work();
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
  return withLock(() => {
    const hash = inputHash();
    if (
      existsSync(STAMP) &&
      readFileSync(STAMP, 'utf8') === hash &&
      existsSync(path.join(NEST11_APP_DIR, 'dist/main.js'))
    )
      return false;
    rmSync(STAMP, { force: true });
    packLibrary();
    installApp();
    writeFileSync(STAMP, hash);
    return true;
  });
}
