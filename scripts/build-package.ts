import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A package of this repository: its folder (package.json, README.md) and its TypeScript projects. */
export interface PackageSource {
  dir: string;
  esmProject: string;
  cjsProject: string;
}

/** `nestjs-crud-api` (the module) and `nestjs-crud-api-client` (the typed client alone, for frontends). */
export const PACKAGES = {
  server: { dir: '.', esmProject: 'tsconfig.build.json', cjsProject: 'tsconfig.build.cjs.json' },
  client: { dir: 'client', esmProject: 'client/tsconfig.json', cjsProject: 'client/tsconfig.cjs.json' },
} satisfies Record<string, PackageSource>;

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

function tsc(project: string, outDir: string): void {
  const compiler = path.join(ROOT_DIR, 'node_modules/typescript/bin/tsc');
  run(process.execPath, [compiler, '-p', path.join(ROOT_DIR, project), '--outDir', outDir]);
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
  tsc(esmProject, esmDir);
  tsc(cjsProject, cjsDir);
  await writeFile(path.join(cjsDir, 'package.json'), '{ "type": "commonjs" }\n');
  for (const dependency of VENDORED) await vendor(dependency, cjsDir);
}

/**
 * `npm pack` of a package as it is now, built in a staging folder (the working `dist/` is left
 * alone) with its package.json, README.md and the repository's LICENSE. Returns the tarball's path.
 */
export async function packPackage(name: PackageName, destination: string): Promise<string> {
  const packDir = path.resolve(destination);
  const stage = path.join(packDir, `${name}-stage`);
  await rm(stage, { recursive: true, force: true });
  await mkdir(stage, { recursive: true });
  await buildPackage(name, path.join(stage, 'dist'));
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
