/**
 * A read asOf a time since which more rows changed than one statement may list (SQLite binds 999
 * values): the changed rows are read past rather than listed, and the answer is the same.
 */
import { plainRow } from '../../lib/history/stored-row.js';
import type { CrudApiRules } from '../../lib/index.js';
import { historyClient } from '../support/history-client.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

const rules: CrudApiRules = { Post: { history: true } };
const ROWS = 1200;

describe.each(testProviders())('asOf over many changed rows (%s)', (provider) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
  });
  afterAll(() => db.drop());

  it('answers as the database did then, with more changed rows than a statement may list', async () => {
    const { prisma } = db;
    const client = historyClient(db, rules);
    const author = await prisma.user.create({ data: { email: 'many@x.test', name: 'M' } });
    const data = Array.from({ length: ROWS }, (_, index) => ({
      title: `p${index}`,
      authorId: author.id,
      rating: index % 7,
    }));
    // Written without the wrapper: MySQL has no RETURNING, so the module would create them one by one.
    await prisma.post.createMany({ data });
    const at = new Date();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const page = { where: { rating: { gte: 3 } }, orderBy: [{ rating: 'desc' }, { id: 'asc' }], skip: 10, take: 25 };
    const then = {
      rows: await prisma.post.findMany(page as any),
      count: await prisma.post.count({ where: page.where }),
    };
    await client.post.updateMany({ where: { rating: { lt: 5 } }, data: { rating: 6 } });
    await client.post.deleteMany({ where: { title: { in: ['p1', 'p2', 'p3'] } } });
    expect(await (prisma as any).historyEntry.count()).toBeGreaterThan(800);

    expect((await client.post.findMany({ ...page, asOf: at })).map(plainRow)).toEqual(then.rows.map(plainRow));
    expect(await client.post.count({ where: page.where, asOf: at })).toBe(then.count);
  }, 120_000);
});
