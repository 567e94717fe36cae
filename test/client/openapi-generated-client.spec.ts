import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

import { listenOnLoopback } from '../support/browser.js';
import { useTestApp } from '../support/test-app.js';

const folder = path.resolve('test/generated/openapi-client');

/**
 * A client as an application would write it against the generated types: a typed create with a
 * relationship, a list with a filter, a page limit and an include. Type errors fail the compile step.
 */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './rest-types.js';

const client = createClient<paths>({ baseUrl: process.env.BASE_URL!, headers: { 'Content-Type': 'application/vnd.api+json', Accept: 'application/vnd.api+json' } });

const user = await client.POST('/api/rest/user', { body: { data: { type: 'user', attributes: { email: 'ada@example.com', name: 'Ada' } } } });
const userId: number = user.data!.data.id;
const post = await client.POST('/api/rest/post', {
  body: { data: { type: 'post', attributes: { title: 'Typed', price: '9.50' }, relationships: { author: { data: { type: 'user', id: userId } } } } },
});
const price: string | undefined = post.data!.data.attributes.price;
const list = await client.GET('/api/rest/post', { params: { query: { include: 'author', page: { limit: 5 }, filter: { title$contains: 'Typ' } } } });
const titles: Array<string | undefined> = list.data!.data.map((resource) => resource.attributes.title);
const included = (list.data!.included ?? []).map((resource) => (resource.type === 'user' ? resource.attributes.name : resource.type));
const total: number | undefined = list.data!.meta?.total;
console.log(JSON.stringify({ status: [user.response.status, post.response.status, list.response.status], userId, price, titles, included, total }));
`;

function compile(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

// openapi-typescript's types and openapi-fetch, as an application would use them, against the sample schema.
describe('a client generated from the REST document', () => {
  let origin: string;

  const t = useTestApp('sqlite');
  beforeAll(async () => {
    origin = await listenOnLoopback(t.app);
  });

  it('compiles, and performs a typed create, list and include against the app', async () => {
    const document = await (await fetch(`${origin}/api/docs/rest.json`)).json();
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(path.join(folder, 'rest-types.ts'), astToString(await openapiTS(document)));
    await writeFile(path.join(folder, 'client.ts'), CLIENT);
    expect(compile([path.join(folder, 'client.ts')])).toEqual([]);

    const js = ts.transpileModule(CLIENT, {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    await writeFile(path.join(folder, 'client.js'), js);
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(folder, 'client.js')], {
      env: { ...process.env, BASE_URL: origin },
    });
    const result = JSON.parse(stdout);
    expect(result).toEqual({
      status: [201, 201, 200],
      userId: expect.any(Number),
      price: '9.5',
      titles: ['Typed'],
      included: ['Ada'],
      total: 1,
    });
    expect(await t.db.prisma.post.count({ where: { title: 'Typed', authorId: result.userId } })).toBe(1);
  }, 60_000);
});
