import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { packPackage, ROOT_DIR } from '../../scripts/build-package.js';

// nestjs-crud-api-client (client/): the typed client alone, as a frontend installs it — packed,
// then installed from its tarball into an empty project outside the repository (no node_modules of
// ours in sight; its dependencies come from the registry), measured and loaded in both module formats.
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const MAX_INSTALL_KB = 5 * 1024;

/** A call of the installed client over a stubbed `fetch`: the answer's Date must come back a Date. */
const CALL = `
const fetch = async () => new Response(JSON.stringify({
  data: { id: 1, createdAt: '2020-01-02T03:04:05.678Z' },
  meta: { serialization: { values: { createdAt: ['Date'] } } },
}));
createRpcClient({ baseUrl: 'http://api.test/rpc', fetch }).post.findFirst({ where: { id: 1 } })
  .then((post) => console.log(JSON.stringify({ createdAt: post.createdAt instanceof Date && post.createdAt.toISOString(), react })));
`;

function readJson(file: string): Record<string, any> {
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe('nestjs-crud-api-client, installed alone', () => {
  let tmp: string;
  let project: string;
  const node = (...args: string[]) =>
    JSON.parse(execFileSync(process.execPath, args, { cwd: project, encoding: 'utf8' }));

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'crud-api-client-'));
    project = path.join(tmp, 'frontend');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'frontend', private: true }));
    const tarball = await packPackage('client', tmp);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
      cwd: project,
      stdio: 'pipe',
    });
  }, INSTALL_TIMEOUT_MS);

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('takes at most 5 MB on disk, superjson and eventsource-parser its only dependencies', () => {
    const [kilobytes] = execFileSync('du', ['-sk', 'node_modules'], { cwd: project, encoding: 'utf8' }).split('\t');
    expect(Number(kilobytes)).toBeLessThanOrEqual(MAX_INSTALL_KB);
    const installed = readdirSync(path.join(project, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(installed).toEqual(
      expect.arrayContaining(['nestjs-crud-api-client', 'superjson', 'eventsource-parser', 'idb-keyval']),
    );
    expect(installed.filter((name) => /^(@nestjs|@prisma|swagger-ui-dist|react|@tanstack)$/.test(name))).toEqual([]);
  });

  it('loads and calls as an ES module and through require()', () => {
    const esm = `import { createRpcClient } from 'nestjs-crud-api-client';
const react = import.meta.resolve('nestjs-crud-api-client/react').endsWith('/dist/client/react/index.js');${CALL}`;
    const cjs = `const { createRpcClient } = require('nestjs-crud-api-client');
const react = require.resolve('nestjs-crud-api-client/react').endsWith('/dist/cjs/client/react/index.js');${CALL}`;
    const expected = { createdAt: '2020-01-02T03:04:05.678Z', react: true };
    expect(node('--input-type=module', '-e', esm)).toEqual(expected);
    expect(node('--input-type=commonjs', '-e', cjs)).toEqual(expected);
  });

  it('has the types of both entries under moduleResolution node10, which reads no exports', () => {
    // Each `@ts-expect-error` is an error only with the real types (with `any` it is unused, TS2578).
    writeFileSync(
      path.join(project, 'typed.ts'),
      `import { createRpcClient } from 'nestjs-crud-api-client';
import { rpcQueryKey } from 'nestjs-crud-api-client/react';
const client = createRpcClient<{ post: { findMany(args?: { take?: number }): Promise<{ id: number }[]> } }>({ baseUrl: '/' });
// @ts-expect-error not a model
void client.nothing;
// @ts-expect-error a key is made of a call
rpcQueryKey(1);
rpcQueryKey(client.post.findMany({ take: 1 }));
`,
    );
    const tsc = path.join(ROOT_DIR, 'node_modules/typescript/bin/tsc');
    const options = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'commonjs', '--moduleResolution', 'node10'];
    const checked = spawnSync(process.execPath, [tsc, ...options, 'typed.ts'], { cwd: project, encoding: 'utf8' });
    expect({ status: checked.status, output: checked.stdout }).toEqual({ status: 0, output: '' });
  });

  it('is released with the module: same version, dependency ranges and peers', () => {
    const server = readJson(path.join(ROOT_DIR, 'package.json'));
    const client = readJson(path.join(ROOT_DIR, 'client/package.json'));
    expect(client.version).toBe(server.version);
    expect(client.dependencies).toEqual({
      superjson: server.dependencies.superjson,
      'eventsource-parser': server.dependencies['eventsource-parser'],
      'idb-keyval': server.dependencies['idb-keyval'],
    });
    for (const peer of ['@prisma/client', '@tanstack/react-query', '@tanstack/react-query-persist-client', 'react'])
      expect([peer, client.peerDependencies[peer]]).toEqual([peer, server.peerDependencies[peer]]);
  });
});
