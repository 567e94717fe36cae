/**
 * What history costs in statements: a write of a model with history runs exactly one statement
 * more than the same write whose changes are already read (for a change listener), the history's
 * insert; against Prisma's own write in a transaction, it adds that insert and, for updates and
 * deletes, the read of the rows before (the rows after are the write's own answer); a write of a
 * model without history runs exactly the statements of the same write without the option.
 */
import type { CrudApiRules } from '../../lib/index.js';
import { historyClient } from '../support/history-client.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

const rules: CrudApiRules = { Post: { history: true } };

describe.each(testProviders())('statements of writes with history (%s)', (provider) => {
  let db: TestDatabase;
  let authorId: number;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
    authorId = (await db.prisma.user.create({ data: { email: 'count@x.test', name: 'C' } })).id;
  });
  afterAll(() => db.drop());

  const statements = async (run: () => Promise<unknown>) => {
    db.queries.length = 0;
    await run();
    return db.queries.length;
  };
  /** The same writes recorded, or only read for a change listener. */
  const client = (options: { history?: boolean; listener?: boolean }) =>
    options.history
      ? historyClient(db, rules)
      : historyClient(db, { Post: {} }, { history: undefined, onChange: () => undefined });

  /** Each write, run once by `as` on rows of its own. */
  const writes: Record<string, (as: any, tag: string) => Promise<unknown>> = {
    create: (as, tag) => as.post.create({ data: { title: tag, authorId } }),
    update: async (as, tag) => {
      const { id } = await db.prisma.post.create({ data: { title: tag, authorId } });
      db.queries.length = 0;
      return as.post.update({ where: { id }, data: { rating: 3 } });
    },
    updateMany: async (as, tag) => {
      await db.prisma.post.createMany({
        data: [
          { title: tag, authorId },
          { title: tag, authorId },
        ],
      });
      db.queries.length = 0;
      return as.post.updateMany({ where: { title: tag }, data: { rating: 2 } });
    },
    delete: async (as, tag) => {
      const { id } = await db.prisma.post.create({ data: { title: tag, authorId } });
      db.queries.length = 0;
      return as.post.delete({ where: { id } });
    },
  };

  it.each(Object.keys(writes))(
    '%s of a model with history: one statement more than with its changes read',
    async (name) => {
      const count = async (as: any, tag: string) => {
        db.queries.length = 0;
        await writes[name]!(as, tag);
        return db.queries.length;
      };
      const captured = await count(client({ listener: true }), `${name} captured`);
      const recorded = await count(client({ history: true }), `${name} recorded`);
      expect(recorded).toBe(captured + 1);
    },
  );

  /** What a write adds to Prisma's own in a transaction: the rows before it (`before`) and the insert. */
  const added: Record<string, { before: boolean; plain: (tx: any, tag: string) => Promise<unknown> }> = {
    create: { before: false, plain: (tx, tag) => tx.post.create({ data: { title: tag, authorId } }) },
    update: {
      before: true,
      plain: async (tx, tag) => {
        const { id } = await db.prisma.post.findFirstOrThrow({ where: { title: tag } });
        db.queries.length = 0;
        return tx.post.update({ where: { id }, data: { rating: 3 } });
      },
    },
    delete: {
      before: true,
      plain: async (tx, tag) => {
        const { id } = await db.prisma.post.findFirstOrThrow({ where: { title: tag } });
        db.queries.length = 0;
        return tx.post.delete({ where: { id } });
      },
    },
  };

  it.each(Object.keys(added))(
    '%s of a model with history: the insert, and the rows before it, more than the write alone',
    async (name) => {
      const { before, plain } = added[name]!;
      const tag = `${name} alone`;
      if (name !== 'create') await db.prisma.post.create({ data: { title: tag, authorId } });
      db.queries.length = 0;
      await db.prisma.$transaction((tx) => plain(tx, tag));
      const alone = db.queries.length;
      const recorded = await statements(() => writes[name]!(client({ history: true }), `${name} recorded alone`));
      expect(recorded).toBe(alone + 1 + (before ? 1 : 0));
    },
  );

  it('updateMany of a model with history: the rows before it and the insert, the rows after where no RETURNING', async () => {
    const tag = 'updateMany alone';
    await db.prisma.post.createMany({ data: [{ title: tag, authorId }] });
    db.queries.length = 0;
    await db.prisma.$transaction((tx) => tx.post.updateMany({ where: { title: tag }, data: { rating: 2 } }));
    const alone = db.queries.length;
    const recorded = await statements(() => writes.updateMany!(client({ history: true }), 'updateMany recorded alone'));
    expect(recorded).toBe(alone + 2 + (provider === 'mysql' ? 1 : 0));
  });

  it('a model without history pays nothing for the history of another', async () => {
    const withHistory = client({ history: true });
    const plainTag = await statements(() => db.prisma.tag.create({ data: { name: 'plain' } }));
    expect(await statements(() => withHistory.tag.create({ data: { name: 'beside history' } }))).toBe(plainTag);
    const tag = await db.prisma.tag.create({ data: { name: 'to rename' } });
    const plainUpdate = await statements(() => db.prisma.tag.update({ where: { id: tag.id }, data: { name: 'a' } }));
    expect(await statements(() => withHistory.tag.update({ where: { id: tag.id }, data: { name: 'b' } }))).toBe(
      plainUpdate,
    );
    const plainRead = await statements(() => db.prisma.post.findMany({ take: 5 }));
    expect(await statements(() => withHistory.post.findMany({ take: 5 }))).toBe(plainRead);
    expect(await (db.prisma as any).historyEntry.count({ where: { model: 'Tag' } })).toBe(0);
  });
});
