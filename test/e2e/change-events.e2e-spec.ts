import { type ChangeEvent, withPolicies } from '../../lib/index.js';
import { eventually, settled } from '../support/eventually.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

/** The events as `operation Model key`, in delivery order. */
const summary = (events: ChangeEvent[]) =>
  events.map((event) => `${event.operation} ${event.model} ${Object.values(event.id).join('_')}`);

describe.each(testProviders())('change events after commit (%s)', (provider) => {
  let db: TestDatabase;
  let events: ChangeEvent[];
  let authorId: number;

  const client = (onChange: (event: ChangeEvent) => unknown = (event) => void events.push(event)) =>
    withPolicies(db.prisma, { modelMeta: db.modelMeta, context: { user: { id: 7 } }, onChange }) as any;

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    authorId = (await db.prisma.user.create({ data: { email: 'author@x.test', name: 'Author' } })).id;
  });
  afterAll(() => db.drop());
  beforeEach(() => (events = []));

  it('reports a create, an update and a delete with the rows and the context', async () => {
    const post = await client().post.create({ data: { title: 'one', authorId } });
    await client().post.update({ where: { id: post.id }, data: { title: 'two' } });
    await client().post.delete({ where: { id: post.id } });
    await eventually(() => expect(events).toHaveLength(3));
    expect(summary(events)).toEqual([`create Post ${post.id}`, `update Post ${post.id}`, `delete Post ${post.id}`]);
    expect(events[0]).toMatchObject({ after: { title: 'one', authorId }, context: { user: { id: 7 } } });
    expect(events[0]).not.toHaveProperty('before');
    expect(events[1]).toMatchObject({ before: { title: 'one' }, after: { title: 'two' } });
    expect(events[2]).toMatchObject({ before: { title: 'two' } });
    expect(events[2]).not.toHaveProperty('after');
  });

  it('reports every row of bulk writes and the branch an upsert took', async () => {
    await client().post.createMany({
      data: [
        { title: 'bulk', authorId },
        { title: 'bulk', authorId },
      ],
    });
    const ids = (await db.prisma.post.findMany({ where: { title: 'bulk' }, orderBy: { id: 'asc' } })).map((p) => p.id);
    await client().post.updateMany({ where: { title: 'bulk' }, data: { published: true } });
    await client().post.upsert({ where: { id: ids[0] }, create: { title: 'x', authorId }, update: { rating: 2 } });
    await client().post.deleteMany({ where: { title: 'bulk' } });
    await eventually(() => expect(events).toHaveLength(7));
    expect(summary(events)).toEqual([
      ...ids.map((id) => `create Post ${id}`),
      ...ids.map((id) => `update Post ${id}`),
      `update Post ${ids[0]}`,
      ...ids.map((id) => `delete Post ${id}`),
    ]);
    expect(events[2]).toMatchObject({ before: { published: false }, after: { published: true } });
  });

  it('reports the rows of nested writes at any depth', async () => {
    const user = await client().user.create({
      data: {
        email: 'nested@x.test',
        name: 'Nested',
        posts: { create: [{ title: 'p1', comments: { create: [{ body: 'c1' }, { body: 'c2' }] } }, { title: 'p2' }] },
      },
      include: { posts: { include: { comments: true } } },
    });
    await eventually(() => expect(events).toHaveLength(5));
    const [p1, p2] = user.posts;
    expect(summary(events).sort()).toEqual(
      [
        `create User ${user.id}`,
        `create Post ${p1.id}`,
        `create Post ${p2.id}`,
        ...p1.comments.map((c: { id: string }) => `create Comment ${c.id}`),
      ].sort(),
    );
    events = [];
    await client().user.update({
      where: { id: user.id },
      data: {
        posts: {
          update: { where: { id: p1.id }, data: { title: 'p1 changed' } },
          delete: { id: p2.id },
          create: { title: 'p3' },
        },
      },
    });
    await eventually(() => expect(events).toHaveLength(4));
    const p3 = await db.prisma.post.findFirstOrThrow({ where: { title: 'p3' } });
    expect(summary(events).sort()).toEqual(
      [`update Post ${p1.id}`, `delete Post ${p2.id}`, `create Post ${p3.id}`, `update User ${user.id}`].sort(),
    );
    expect(events.find((e) => e.id.id === p1.id)).toMatchObject({
      before: { title: 'p1' },
      after: { title: 'p1 changed' },
    });
  });

  it('delivers a transaction after its commit and nothing of a rolled-back one', async () => {
    let seenByListener: unknown;
    const listening = client((event) => {
      events.push(event);
      return db.prisma.post.findUnique({ where: { id: event.id.id } }).then((row) => (seenByListener = row));
    });
    await listening.$transaction(async (tx: any) => {
      await tx.post.create({ data: { title: 'in tx', authorId } });
      await tx.post.create({ data: { title: 'in tx 2', authorId } });
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(events).toEqual([]);
    });
    await eventually(() => expect(seenByListener).toMatchObject({ title: 'in tx 2' }));
    expect(events.map((event) => event.after?.title)).toEqual(['in tx', 'in tx 2']);
    events = [];
    await expect(
      client().$transaction(async (tx: any) => {
        await tx.post.create({ data: { title: 'rolled back', authorId } });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await expect(client().post.create({ data: { title: 'bad', authorId: 999_999 } })).rejects.toMatchObject({
      code: 'P2003',
    });
    await settled();
    expect(events).toEqual([]);
    expect(await db.prisma.post.count({ where: { title: { in: ['rolled back', 'bad'] } } })).toBe(0);
  });

  it('answers the write although a listener fails', async () => {
    const failing = client(() => {
      throw new Error('listener down');
    });
    const post = await failing.post.create({ data: { title: 'survives', authorId } });
    expect(await db.prisma.post.findUnique({ where: { id: post.id } })).toMatchObject({ title: 'survives' });
  });
});
