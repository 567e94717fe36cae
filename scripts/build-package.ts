import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A package of this repository: its folder (package.json, README.md), its TypeScript projects, and
 * what its build reads besides them (the sources folder and the files that set the build up).
 */
export interface PackageSource {
  dir: string;
  esmProject: string;
  cjsProject: string;
  sources: string;
  setup: string[];
}

const BUILD_SETUP = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build-package.ts',
];

/** `nestjs-crud-api` (the module) and `nestjs-crud-api-client` (the typed client alone, for frontends). */
export const PACKAGES = {
  server: {
    dir: '.',
    esmProject: 'tsconfig.build.json',
    cjsProject: 'tsconfig.build.cjs.json',
    sources: 'lib',
    setup: [...BUILD_SETUP, 'tsconfig.build.cjs.json'],
  },
  client: {
    dir: 'client',
    esmProject: 'client/tsconfig.json',
    cjsProject: 'client/tsconfig.cjs.json',
    sources: 'lib/client',
    setup: [...BUILD_SETUP, 'client/package.json', 'client/tsconfig.json', 'client/tsconfig.cjs.json'],
  },
} satisfies Record<string, PackageSource>;

/** Written beside a build: the hash of what it was built from, so that packing can reuse a current build. */
const BUILD_HASH = '.build-hash';

/** The files a package's build reads: its TypeScript sources (tests aside) and its set-up files. */
export async function buildInputs(name: PackageName): Promise<string[]> {
  const { sources, setup } = PACKAGES[name];
  const entries = await readdir(path.join(ROOT_DIR, sources), { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  return [...files, ...setup.map((file) => path.join(ROOT_DIR, file))].sort();
}

/** A hash of files' paths (relative to the repository) and contents. */
export function hashFiles(files: string[]): string {
  const hash = createHash('sha256');
  for (const file of files)
    hash.update(path.relative(ROOT_DIR, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

export type PackageName = keyof typeof PACKAGES;

/** ES-module-only dependencies the CommonJS build carries as CommonJS: Jest's `require()` cannot load them. */
const VENDORED = ['superjson'];

/** Runs a command and answers its output; a failure throws with all of it (tsc reports on stdout). */
export function run(command: string, args: string[], cwd = ROOT_DIR, env = process.env): string {
  try {
    return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`\`${command} ${args.join(' ')}\` failed in ${cwd}\n${stdout}\n${stderr}`, { cause: error });
  }
}

/** Compiles a TypeScript project into `outDir`; rejects with tsc's report (printed on stdout). */
function tsc(project: string, outDir: string): Promise<void> {
  const compiler = path.join(ROOT_DIR, 'node_modules/typescript/bin/tsc');
  const args = [compiler, '-p', path.join(ROOT_DIR, project), '--outDir', outDir];
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { cwd: ROOT_DIR, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`tsc -p ${project} failed\n${stdout}\n${stderr}`, { cause: error })) : resolve(),
    ),
  );
}

async function jsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The licence text of each package an esbuild bundle took code from. */
async function bundledLicences(inputs: string[]): Promise<string> {
  const packageDirs = new Set(
    inputs.flatMap((input) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []),
  );
  const licences = await Promise.all(
    [...packageDirs].sort().map(async (dir) => {
      const file = (await readdir(path.join(ROOT_DIR, dir))).find((entry) => /^licen[cs]e/i.test(entry));
      if (!file) throw new Error(`build: ${dir} has no licence file to ship with its bundled copy`);
      return `${path.basename(dir)}:\n\n${await readFile(path.join(ROOT_DIR, dir, file), 'utf8')}`;
    }),
  );
  return licences.join('\n\n');
}

/**
 * Bundles an ES-module-only dependency into `{cjsDir}/vendor/{name}.js` as CommonJS, with the
 * licences of what it bundled, and points the build's `require()`s of it there.
 */
async function vendor(name: string, cjsDir: string): Promise<void> {
  const outfile = path.join(cjsDir, 'vendor', `${name}.js`);
  const result = await build({
    stdin: { contents: `export * from '${name}';`, resolveDir: ROOT_DIR, loader: 'js' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'es2022',
    outfile,
    metafile: true,
    logLevel: 'warning',
  });
  await writeFile(outfile.replace(/\.js$/, '.LICENSE.txt'), await bundledLicences(Object.keys(result.metafile.inputs)));
  for (const file of await jsFiles(cjsDir)) {
    if (file === outfile) continue;
    const relative = path.relative(path.dirname(file), outfile).split(path.sep).join('/');
    const target = relative.startsWith('.') ? relative : `./${relative}`;
    const code = await readFile(file, 'utf8');
    const rewritten = code.replace(new RegExp(`require\\((["'])${name}\\1\\)`, 'g'), `require("${target}")`);
    if (rewritten !== code) await writeFile(file, rewritten);
  }
}

/**
 * Builds a package twice from the same sources: ES modules in `outDir`, CommonJS in `outDir/cjs`
 * (with a package.json saying so, for Node's and Jest's `require()`), each with its declarations.
 */
export async function buildPackage(name: PackageName, outDir = path.join(PACKAGES[name].dir, 'dist')): Promise<void> {
  const { esmProject, cjsProject } = PACKAGES[name];
  const esmDir = path.resolve(ROOT_DIR, outDir);
  const cjsDir = path.join(esmDir, 'cjs');
  const hash = hashFiles(await buildInputs(name));
  // tsc leaves the output of deleted sources in place: a build starts from an empty folder.
  await rm(esmDir, { recursive: true, force: true });
  // Two independent programs: one a core.
  await Promise.all([tsc(esmProject, esmDir), tsc(cjsProject, cjsDir)]);
  await writeFile(path.join(cjsDir, 'package.json'), '{ "type": "commonjs" }\n');
  for (const dependency of VENDORED) await vendor(dependency, cjsDir);
  await writeFile(path.join(esmDir, BUILD_HASH), hash);
}

/** Copies the package's working build to `outDir` when it was built from the current sources; answers whether it did. */
async function copyCurrentBuild(name: PackageName, outDir: string): Promise<boolean> {
  const built = path.join(ROOT_DIR, PACKAGES[name].dir, 'dist');
  const stamp = path.join(built, BUILD_HASH);
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hashFiles(await buildInputs(name))) return false;
  await cp(built, outDir, { recursive: true, filter: (source) => source !== stamp });
  return true;
}

/**
 * `npm pack` of a package as it is now, in a staging folder with its package.json, README.md and
 * the repository's LICENSE: the working `dist/` copied when it was built from the current sources
 * (`npm test` builds it first), otherwise a build of its own. Returns the tarball's path.
 */
export async function packPackage(name: PackageName, destination: string): Promise<string> {
  const packDir = path.resolve(destination);
  const stage = path.join(packDir, `${name}-stage`);
  await rm(stage, { recursive: true, force: true });
  await mkdir(stage, { recursive: true });
  if (!(await copyCurrentBuild(name, path.join(stage, 'dist')))) await buildPackage(name, path.join(stage, 'dist'));
  await rm(path.join(stage, 'dist', BUILD_HASH), { force: true });
  const dir = path.join(ROOT_DIR, PACKAGES[name].dir);
  await copyFile(path.join(dir, 'package.json'), path.join(stage, 'package.json'));
  await copyFile(path.join(dir, 'README.md'), path.join(stage, 'README.md'));
  await copyFile(path.join(ROOT_DIR, 'LICENSE'), path.join(stage, 'LICENSE'));
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', packDir], stage)) as [
    { filename: string },
  ];
  await rm(stage, { recursive: true, force: true });
  return path.join(packDir, packed.filename);
}
