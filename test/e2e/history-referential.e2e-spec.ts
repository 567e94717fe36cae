/**
 * Rows the database changes by itself: deleting a post deletes its comments and their replies
 * (`onDelete: Cascade`), deleting a user sets its comments' author to null (`SetNull`). A model with
 * history records those changes too, so its past stays exact.
 */
import { plainRow } from '../../lib/history/stored-row.js';
import type { CrudApiRules } from '../../lib/index.js';
import { historyClient } from '../support/history-client.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

const rules: CrudApiRules = { Comment: { history: true } };

describe.each(testProviders())('history of rows changed by referential actions (%s)', (provider) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
  });
  afterAll(() => db.drop());

  it('records the cascaded deletes and the nulled keys, and reads them asOf before', async () => {
    const { prisma } = db;
    const client = historyClient(db, rules);
    const writer = await prisma.user.create({ data: { email: 'writer@x.test', name: 'W' } });
    const reader = await prisma.user.create({ data: { email: 'reader@x.test', name: 'R' } });
    const post = await prisma.post.create({ data: { title: 'p', authorId: writer.id } });
    const kept = await prisma.post.create({ data: { title: 'kept', authorId: writer.id } });
    const top = await client.comment.create({ data: { body: 'top', postId: post.id, authorId: reader.id } });
    await client.comment.create({ data: { body: 'reply', postId: post.id, parentId: top.id } });
    await client.comment.create({ data: { body: 'on kept', postId: kept.id, authorId: reader.id } });
    const comments = () => prisma.comment.findMany({ orderBy: { body: 'asc' } });
    const before = await comments();
    const at = new Date();
    await new Promise((resolve) => setTimeout(resolve, 5));

    // Neither Post nor User records history: their deletes are recorded for the comments they change.
    await client.post.delete({ where: { id: post.id } });
    await client.user.deleteMany({ where: { id: reader.id } });
    expect((await comments()).map((row) => [row.body, row.authorId])).toEqual([['on kept', null]]);

    const entries: any[] = await (prisma as any).historyEntry.findMany({
      where: { at: { gt: at } },
      orderBy: { id: 'asc' },
    });
    expect(entries.map((entry) => [entry.operation, (entry.before ?? entry.data).body]).sort()).toEqual([
      ['delete', 'reply'],
      ['delete', 'top'],
      ['update', 'on kept'],
    ]);
    expect(entries.find((entry) => entry.operation === 'update').changed).toEqual(['authorId']);
    const past = await client.comment.findMany({ asOf: at });
    expect(past.map(plainRow).sort((a: any, b: any) => a.body.localeCompare(b.body))).toEqual(before.map(plainRow));
  });
});
