import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = '.dependency-cruiser.cjs';
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

/** The violations dependency-cruiser finds in `folders` of `cwd`, with the repository's rules. */
async function violations(cwd: string, folders: string[]): Promise<Violation[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [CLI, ...folders, '--config', CONFIG, '--output-type', 'json'],
    { cwd, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const summary = (found: Violation[]) => found.map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`);

describe('the dependency rules (.dependency-cruiser.cjs)', () => {
  it('hold in the repository: every folder imports only the folders before it, and nothing forms a cycle', async () => {
    const folders = ['lib', 'test', 'bench', 'sample-app', 'scripts', 'fixtures'].filter((folder) =>
      existsSync(path.join(ROOT, folder)),
    );
    expect(summary(await violations(ROOT, folders))).toEqual([]);
  }, 120_000);

  describe('on a planted tree', () => {
    let tree: string;

    beforeAll(async () => {
      tree = await mkdtemp(path.join(os.tmpdir(), 'crud-api-deps-'));
      await copyFile(path.join(ROOT, CONFIG), path.join(tree, CONFIG));
      await writeFile(
        path.join(tree, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
      );
      const files: Record<string, string> = {
        // A leaf importing an interface, at run time and through a type import.
        'lib/errors/planted.error.ts': "import { handler } from '../rest/handler.js';\nexport const use = handler;\n",
        'lib/metadata/planted.types.ts':
          "import type { Rule } from '../policies/rule.js';\nexport type Planted = Rule;\n",
        'lib/policies/rule.ts': 'export type Rule = boolean;\n',
        'lib/rest/handler.ts': 'export const handler = 1;\n',
        // A type-only cycle inside one folder.
        'lib/shared/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
        'lib/shared/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
        // A folder with no place in the order.
        'lib/misc/loose.ts': "import { handler } from '../rest/handler.js';\nexport const loose = handler;\n",
        // The package reaching into the repository's tests.
        'lib/rpc/planted.ts': "import { helper } from '../../test/helper.js';\nexport const planted = helper;\n",
        'test/helper.ts': 'export const helper = 1;\n',
        // Tests borrowing the sample app, and the fixture borrowing the tests.
        'test/uses-sample.ts': "import { app } from '../sample-app/app.js';\nexport const used = app;\n",
        'sample-app/app.ts': 'export const app = 1;\n',
        'fixtures/seed.ts': "import { helper } from '../test/helper.js';\nexport const seed = helper;\n",
      };
      for (const [file, text] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(tree, file)), { recursive: true });
        await writeFile(path.join(tree, file), text);
      }
    });

    afterAll(() => rm(tree, { recursive: true, force: true }));

    it('reports each planted violation by its rule, type imports and cycles included', async () => {
      const found = summary(await violations(tree, ['lib', 'test', 'fixtures', 'sample-app']));
      expect(found).toEqual(
        expect.arrayContaining([
          'layer-errors: lib/errors/planted.error.ts → lib/rest/handler.ts',
          'layer-metadata: lib/metadata/planted.types.ts → lib/policies/rule.ts',
          'no-circular: lib/shared/a.ts → lib/shared/b.ts',
          'unknown-folder: lib/misc/loose.ts → lib/rest/handler.ts',
          'lib-is-self-contained: lib/rpc/planted.ts → test/helper.ts',
          'no-sample-app-imports: test/uses-sample.ts → sample-app/app.ts',
          'fixtures-are-self-contained: fixtures/seed.ts → test/helper.ts',
        ]),
      );
    }, 60_000);

    it('finds nothing once the planted imports point the right way', async () => {
      await writeFile(path.join(tree, 'lib/errors/planted.error.ts'), 'export const use = 1;\n');
      await writeFile(path.join(tree, 'lib/metadata/planted.types.ts'), 'export type Planted = boolean;\n');
      await writeFile(path.join(tree, 'lib/shared/b.ts'), 'export type B = { name: string };\n');
      await rm(path.join(tree, 'lib/misc'), { recursive: true });
      await rm(path.join(tree, 'test/uses-sample.ts'));
      await writeFile(path.join(tree, 'fixtures/seed.ts'), 'export const seed = 1;\n');
      await writeFile(
        path.join(tree, 'lib/rpc/planted.ts'),
        "import { handler } from '../rest/handler.js';\nexport const planted = handler;\n",
      );
      expect(summary(await violations(tree, ['lib', 'test', 'fixtures', 'sample-app']))).toEqual([]);
    }, 60_000);
  });
});
