import type { DemoUser } from '../../fixtures/blog/policies.js';
import { type ChangeEvent, withDeletedRows, withPolicies } from '../../lib/index.js';
import { eventually } from '../support/eventually.js';
import {
  softDeletePolicies as policies,
  softDeleteRules as rules,
  thread as sharedThread,
} from '../support/soft-delete-fixtures.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

describe.each(testProviders())('soft delete on the Prisma client (%s)', (provider) => {
  let db: TestDatabase;
  let alice: DemoUser, bob: DemoUser, admin: DemoUser;
  const events: ChangeEvent[] = [];

  const as = (user?: DemoUser, onChange?: (event: ChangeEvent) => void) =>
    withPolicies(db.prisma, { policies, rules, modelMeta: db.modelMeta, context: { user }, onChange }) as any;
  const listening = (user: DemoUser) => as(user, (event) => events.push(event));

  /** A published post of alice's with two comments (one replied to), as stored. */
  const thread = (title: string) => sharedThread(db, { alice, bob }, title);

  const stamps = async (postId: number) => ({
    post: (await db.prisma.post.findUnique({ where: { id: postId } }))?.deletedAt ?? null,
    comments: (await db.prisma.comment.findMany({ where: { postId }, orderBy: { body: 'asc' } })).map(
      (comment) => comment.deletedAt,
    ),
  });

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    const mk = (name: string, role: 'USER' | 'ADMIN' = 'USER') =>
      db.prisma.user.create({ data: { name, email: `${name}@x.test`, role }, select: { id: true, role: true } });
    [alice, bob, admin] = [await mk('alice'), await mk('bob'), await mk('admin', 'ADMIN')];
  });
  afterAll(() => db.drop());
  beforeEach(() => (events.length = 0));

  it('marks a deleted post and its comments, replies included, with one time, and keeps the rows', async () => {
    const { post } = await thread('cascade');
    const answer = await as(alice).post.delete({ where: { id: post.id } });
    expect(answer).toMatchObject({ id: post.id, deletedAt: null });
    const { post: at, comments } = await stamps(post.id);
    expect(at).toBeInstanceOf(Date);
    expect(comments).toEqual([at, at, at]);
  });

  it('hides deleted rows from every read of every model that reaches them', async () => {
    const { post, comments } = await thread('hidden');
    const { post: live } = await thread('live');
    await as(alice).post.delete({ where: { id: post.id } });
    const client = as(alice);
    expect(await client.post.findUnique({ where: { id: post.id } })).toBeNull();
    await expect(client.post.findUniqueOrThrow({ where: { id: post.id } })).rejects.toMatchObject({ code: 'P2025' });
    expect(await client.post.findFirst({ where: { title: 'hidden' } })).toBeNull();
    expect(await client.post.count({ where: { title: { in: ['hidden', 'live'] } } })).toBe(1);
    expect(await client.comment.count({ where: { postId: { in: [post.id, live.id] } } })).toBe(3);
    expect(await client.comment.findUnique({ where: { id: comments[0]!.id } })).toBeNull();
    const aggregate = await client.post.aggregate({ where: { title: { in: ['hidden', 'live'] } }, _count: true });
    expect(aggregate._count).toBe(1);
    const groups = await client.post.groupBy({ by: ['title'], where: { title: { in: ['hidden', 'live'] } } });
    expect(groups).toEqual([{ title: 'live' }]);
    const author = await client.user.findUnique({
      where: { id: alice.id },
      include: { posts: { where: { title: { in: ['hidden', 'live'] } }, include: { comments: true } } },
    });
    expect(author.posts.map((row: { id: number }) => row.id)).toEqual([live.id]);
    const withCounts = await client.user.findUnique({
      where: { id: alice.id },
      select: { _count: { select: { posts: { where: { title: 'hidden' } } } } },
    });
    expect(withCounts._count.posts).toBe(0);
    expect(await client.user.count({ where: { id: alice.id, posts: { some: { title: 'hidden' } } } })).toBe(0);
    expect(await client.user.count({ where: { id: alice.id, posts: { none: { title: 'hidden' } } } })).toBe(1);
    expect(await client.comment.count({ where: { post: { is: { title: 'hidden' } } } })).toBe(0);
    const page = await client.post.findMany({
      where: { title: { in: ['hidden', 'live'] } },
      cursor: { id: post.id },
      take: 5,
    });
    expect(page).toEqual([]);
  });

  it('refuses to update, delete again or link a deleted row', async () => {
    const { post, comments } = await thread('gone');
    await as(alice).post.delete({ where: { id: post.id } });
    const before = await stamps(post.id);
    await expect(as(alice).post.update({ where: { id: post.id }, data: { title: 'x' } })).rejects.toMatchObject({
      code: 'P2025',
    });
    await expect(as(alice).post.delete({ where: { id: post.id } })).rejects.toMatchObject({ code: 'P2025' });
    expect(await as(alice).post.updateMany({ where: { id: post.id }, data: { title: 'x' } })).toEqual({ count: 0 });
    await expect(
      as(bob).comment.create({ data: { body: 'late', postId: post.id, authorId: bob.id } }),
    ).rejects.toThrow();
    await expect(
      as(bob).comment.update({ where: { id: comments[0]!.id }, data: { body: 'edited' } }),
    ).rejects.toMatchObject({ code: 'P2025' });
    expect(await stamps(post.id)).toEqual(before);
    expect((await db.prisma.post.findUnique({ where: { id: post.id } }))?.title).toBe('gone');
  });

  it('soft-deletes through deleteMany and nested deletes, cascading from each', async () => {
    const [one, two, nested, nestedMany] = [
      await thread('many-1'),
      await thread('many-2'),
      await thread('nested'),
      await thread('nested-many'),
    ];
    expect(await as(alice).post.deleteMany({ where: { title: { startsWith: 'many-' } } })).toEqual({ count: 2 });
    await as(alice).user.update({ where: { id: alice.id }, data: { posts: { delete: { id: nested.post.id } } } });
    await as(alice).user.update({
      where: { id: alice.id },
      data: { posts: { deleteMany: { title: 'nested-many' } } },
    });
    for (const { post } of [one, two, nested, nestedMany]) {
      const { post: at, comments } = await stamps(post.id);
      expect(at).toBeInstanceOf(Date);
      expect(comments).toEqual([at, at, at]);
    }
    expect(await db.prisma.post.count({ where: { id: { in: [one, two, nested].map((t) => t.post.id) } } })).toBe(3);
  });

  it('restores a post with exactly the comments deleted with it', async () => {
    const { post, comments } = await thread('restore');
    await as(bob).comment.delete({ where: { id: comments[2]!.id } });
    const earlier = (await stamps(post.id)).comments[1];
    await new Promise((resolve) => setTimeout(resolve, 5));
    await as(alice).post.delete({ where: { id: post.id } });
    await expect(as(bob).post.restore({ where: { id: post.id } })).rejects.toMatchObject({ code: 'P2025' });
    const restored = await listening(alice).post.restore({ where: { id: post.id } });
    expect(restored).toMatchObject({ id: post.id, deletedAt: null });
    const after = await stamps(post.id);
    expect(after.post).toBeNull();
    expect(after.comments).toEqual([null, earlier, null]);
    await eventually(() =>
      expect(events.map((event) => `${event.model} ${event.operation}`).sort()).toEqual([
        'Comment update',
        'Comment update',
        'Post update',
      ]),
    );
    await expect(as(alice).post.restore({ where: { id: post.id } })).rejects.toMatchObject({ code: 'P2025' });
  });

  it('tells listeners of a delete for the row and every dependant', async () => {
    const { post, comments } = await thread('events');
    await listening(alice).post.delete({ where: { id: post.id } });
    await eventually(() =>
      expect(events.map((event) => `${event.model} ${event.operation} ${Object.values(event.id)[0]}`).sort()).toEqual(
        [`Post delete ${post.id}`, ...comments.map((comment) => `Comment delete ${comment.id}`)].sort(),
      ),
    );
  });

  it('lets a deleted tag name be taken again, and refuses restoring the old one while it is', async () => {
    const old = await as(admin).tag.create({ data: { name: 'reused' } });
    await as(admin).tag.delete({ where: { id: old.id } });
    const again = await as(alice).tag.create({ data: { name: 'reused' } });
    expect(again.id).not.toBe(old.id);
    await expect(as(admin).tag.restore({ where: { id: old.id } })).rejects.toMatchObject({ code: 'conflict' });
    await as(admin).tag.delete({ where: { id: again.id } });
    expect(await as(admin).tag.restore({ where: { id: old.id } })).toMatchObject({ id: old.id, name: 'reused' });
  });

  it('shows deleted rows to a reader the readDeleted rule permits, only when asked', async () => {
    const { post } = await thread('audit');
    await as(alice).post.delete({ where: { id: post.id } });
    const where = { where: { title: 'audit' } };
    expect(await as(admin).post.findMany(where)).toEqual([]);
    const deleted = await withDeletedRows(as(admin)).post.findMany({ ...where, include: { comments: true } });
    expect(deleted).toHaveLength(1);
    expect(deleted[0].deletedAt).toBeInstanceOf(Date);
    expect(deleted[0].comments).toHaveLength(3);
    expect(await withDeletedRows(as(alice)).post.findMany(where)).toEqual([]);
    // Writes still touch live rows only.
    await expect(
      withDeletedRows(as(admin)).post.update({ where: { id: post.id }, data: { title: 'x' } }),
    ).rejects.toThrow();
  });

  it('removes a row for good only for a caller the hardDelete rule permits', async () => {
    const { post } = await thread('purge');
    await expect(as(alice).post.hardDelete({ where: { id: post.id } })).rejects.toMatchObject({
      code: 'rejected-by-policy',
    });
    await as(alice).post.delete({ where: { id: post.id } });
    await withDeletedRows(as(admin)).post.hardDelete({ where: { id: post.id } });
    expect(await db.prisma.post.count({ where: { id: post.id } })).toBe(0);
    expect(await db.prisma.comment.count({ where: { postId: post.id } })).toBe(0);
  });

  it('leaves writes that reach no soft-deleted row to Prisma, and checks those that name one', async () => {
    const rulesOnly = withPolicies(db.prisma, { rules, modelMeta: db.modelMeta, context: {} }) as any;
    const statements = async (run: () => Promise<unknown>) => {
      db.queries.length = 0;
      await run();
      return db.queries.length;
    };
    const plain = await statements(() => db.prisma.user.create({ data: { name: 'p', email: 'plain@x.test' } }));
    expect(await statements(() => rulesOnly.user.create({ data: { name: 'r', email: 'rules@x.test' } }))).toBe(plain);
    const { post } = await thread('liked then gone');
    await as(alice).post.delete({ where: { id: post.id } });
    // A like holds a foreign key to a soft-deleted model: it must name a live post.
    await expect(rulesOnly.like.create({ data: { userId: bob.id, postId: post.id } })).rejects.toMatchObject({
      code: 'P2003',
    });
    await expect(
      rulesOnly.user.update({ where: { id: bob.id }, data: { likes: { create: { postId: post.id } } } }),
    ).rejects.toMatchObject({ code: 'P2003' });
    expect(await db.prisma.like.count({ where: { postId: post.id } })).toBe(0);
  });

  it('offers restore and hardDelete on soft-deleted models only', () => {
    expect(as(admin).user.restore).toBeUndefined();
    expect(as(admin).user.hardDelete).toBeUndefined();
    expect(typeof as(admin).tag.restore).toBe('function');
  });
});
