import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { plainRow } from '../../lib/history/stored-row.js';
import { eventually } from '../support/eventually.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

const CHILD = fileURLToPath(new URL('../history-child/main.ts', import.meta.url));

describe.each(testProviders())('history of a process killed mid-write (%s)', (provider) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
  });
  afterAll(() => db.drop());

  it('leaves every row as its latest recorded version, and no version of a write that did not commit', async () => {
    const author = await db.prisma.user.create({ data: { email: 'killed@x.test', name: 'K' } });
    const { NODE_OPTIONS: _, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...env, DATABASE_URL: db.url, AUTHOR_ID: String(author.id) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // The child compiles the module through tsx first: slow on a busy machine.
    await eventually(() => expect(output).toMatch(/committed 20\n/), 60_000);
    child.kill('SIGKILL');
    await exited;
    const committed = Math.max(...[...output.matchAll(/committed (\d+)/g)].map((match) => Number(match[1])));

    const posts = await db.prisma.post.findMany({ orderBy: { id: 'asc' } });
    const entries: any[] = await (db.prisma as any).historyEntry.findMany({ orderBy: { id: 'asc' } });
    for (const post of posts) {
      const versions = entries.filter((entry) => entry.rowKey === JSON.stringify({ id: post.id }));
      expect(versions.at(-1)?.data).toEqual(plainRow(post));
    }
    // Each transaction wrote three rows: their versions commit together, or none of them.
    const steps = entries.filter((entry) => entry.operation === 'create' && /^c\d+$/.test(entry.data.title));
    expect(entries).toHaveLength(2 + 3 * steps.length);
    expect(steps.length).toBeGreaterThanOrEqual(committed);
    expect(steps.length).toBeLessThanOrEqual(committed + 1);
  }, 90_000);
});
