import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import { CrudApiError, type CrudApiPolicies, withPolicies } from '../../lib/index.js';
import { itOn } from '../support/it-on.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

const violation = { code: 'rejected-by-policy', options: { reason: 'ACCESS_POLICY_VIOLATION' } };
const notReadable = { code: 'rejected-by-policy', options: { reason: 'RESULT_NOT_READABLE' } };
const unknownField = (field: string) => ({ code: 'invalid-argument', message: expect.stringContaining(`"${field}"`) });

describe.each(testProviders())('policy engine on the Prisma client (%s)', (provider) => {
  let db: TestDatabase;
  let alice: DemoUser, bob: DemoUser, admin: DemoUser;
  const ids: Record<string, number> = {};

  /** The sample policies (optionally changed) for one caller. */
  const as = (user?: DemoUser, policies: CrudApiPolicies = samplePolicies, defaultPolicy?: 'allow' | 'deny') =>
    withPolicies(db.prisma, { policies, defaultPolicy, modelMeta: db.modelMeta, context: { user } }) as any;

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    const p = db.prisma;
    const mk = async (name: string, role: 'USER' | 'ADMIN' = 'USER') =>
      p.user.create({
        data: { name, email: `${name}@x.test`, role, passwordHash: `hash-${name}` },
        select: { id: true, role: true },
      });
    [alice, bob, admin] = [await mk('alice'), await mk('bob'), await mk('admin', 'ADMIN')];
    await p.profile.create({ data: { userId: alice.id, bio: 'alice bio' } });
    const post = async (key: string, authorId: number, published: boolean) =>
      (ids[key] = (await p.post.create({ data: { title: key, authorId, published } })).id);
    await post('alicePub', alice.id, true);
    await post('aliceDraft', alice.id, false);
    await post('bobPub', bob.id, true);
    await post('bobDraft', bob.id, false);
    await p.comment.create({ data: { body: 'on bob draft', postId: ids.bobDraft!, authorId: bob.id } });
    await p.comment.create({ data: { body: 'on alice pub', postId: ids.alicePub!, authorId: bob.id } });
    ids.tag = (await p.tag.create({ data: { name: 'news' } })).id;
  });
  afterAll(() => db.drop());

  const titles = (rows: { title: string }[]) => rows.map((row) => row.title).sort();

  describe('read', () => {
    it('filters lists, single fetches and counts by the read rule', async () => {
      expect(titles(await as(alice).post.findMany())).toEqual(['aliceDraft', 'alicePub', 'bobPub']);
      expect(titles(await as().post.findMany())).toEqual(['alicePub', 'bobPub']);
      expect(await as(alice).post.findUnique({ where: { id: ids.bobDraft } })).toBeNull();
      expect(await as(alice).post.findFirst({ where: { title: 'bobDraft' } })).toBeNull();
      await expect(as(alice).post.findUniqueOrThrow({ where: { id: ids.bobDraft } })).rejects.toMatchObject({
        code: 'P2025',
      });
      expect(await as(alice).post.count()).toBe(3);
      expect(await as(alice).post.aggregate({ _count: { _all: true } })).toEqual({ _count: { _all: 3 } });
      const groups = await as(alice).post.groupBy({
        by: ['authorId'],
        _count: { _all: true },
        orderBy: { authorId: 'asc' },
      });
      expect(groups).toEqual([
        { authorId: alice.id, _count: { _all: 2 } },
        { authorId: bob.id, _count: { _all: 1 } },
      ]);
    });

    it('filters nested to-many include/select and relation counts', async () => {
      const user = await as(alice).user.findUnique({
        where: { id: bob.id },
        include: { posts: { include: { comments: true } }, _count: { select: { posts: true, comments: true } } },
      });
      expect(titles(user.posts)).toEqual(['bobPub']);
      expect(user._count).toEqual({ posts: 1, comments: 1 });
      const selected = await as(alice).user.findUnique({
        where: { id: bob.id },
        select: { posts: { select: { title: true } }, _count: true },
      });
      expect(selected.posts).toEqual([{ title: 'bobPub' }]);
      expect(selected._count.posts).toBe(1);
      expect(
        await as(bob).user.findUnique({ where: { id: bob.id }, select: { _count: { select: { posts: true } } } }),
      ).toEqual({
        _count: { posts: 2 },
      });
    });

    it('keeps relation filters from revealing invisible rows', async () => {
      const withDraft = { posts: { some: { title: 'bobDraft' } } };
      expect(await as(alice).user.findMany({ where: withDraft })).toEqual([]);
      expect((await as(bob).user.findMany({ where: withDraft })).map((u: { id: number }) => u.id)).toEqual([bob.id]);
      const noDraft = await as(alice).user.findMany({
        where: { posts: { none: { published: false } } },
        orderBy: { id: 'asc' },
      });
      expect(noDraft.map((u: { id: number }) => u.id)).toEqual([bob.id, admin.id]);
      const allPublished = await as(alice).user.findMany({
        where: { posts: { every: { published: true } } },
        orderBy: { id: 'asc' },
      });
      expect(allPublished.map((u: { id: number }) => u.id)).toEqual([bob.id, admin.id]);
      expect(await as(alice).comment.count({ where: { post: { is: { published: false } } } })).toBe(0);
      expect(await as(alice).comment.count({ where: { post: { title: 'bobDraft' } } })).toBe(0);
      expect(await as(alice).user.count({ where: { OR: [{ posts: { some: { title: 'bobDraft' } } }] } })).toBe(0);
    });

    it('turns included to-one rows the caller may not read into null, and filters them as absent', async () => {
      const privateProfiles = {
        ...samplePolicies,
        Profile: { read: ({ user }: any) => (user ? { userId: user.id } : false) },
      };
      db.queries.length = 0;
      const users = await as(bob, privateProfiles).user.findMany({
        include: { profile: true },
        orderBy: { id: 'asc' },
      });
      expect(users.map((u: { profile: unknown }) => u.profile)).toEqual([null, null, null]);
      const own = await as(alice, privateProfiles).user.findUnique({
        where: { id: alice.id },
        select: { profile: { select: { bio: true } } },
      });
      expect(own).toEqual({ profile: { bio: 'alice bio' } });
      expect(await as(bob, privateProfiles).user.count({ where: { profile: { isNot: null } } })).toBe(0);
      expect(await as(bob, privateProfiles).user.count({ where: { profile: { is: null } } })).toBe(3);
      expect(await as(alice, privateProfiles).user.count({ where: { profile: { is: null } } })).toBe(2);
      expect(await as(bob, privateProfiles).user.count({ where: { profile: { bio: 'alice bio' } } })).toBe(0);
    });

    it('checks included to-one rows with one query per include path, whatever the number of rows', async () => {
      const authorsHidden = { ...samplePolicies, User: { ...samplePolicies.User, read: { role: 'ADMIN' } } };
      const args = { include: { author: true, comments: { include: { author: true } } } };
      db.queries.length = 0;
      await db.prisma.post.findMany(args);
      const unrestricted = db.queries.length;
      db.queries.length = 0;
      const posts = await as(alice, authorsHidden).post.findMany(args);
      expect(posts.every((post: { author: unknown }) => post.author === null)).toBe(true);
      expect(posts.flatMap((post: { comments: { author: unknown }[] }) => post.comments.map((c) => c.author))).toEqual([
        null,
      ]);
      // One check for `author`, one for `comments.author`.
      expect(db.queries.length).toBe(unrestricted + 2);
    });

    it('treats a cursor on an invisible row as no row', async () => {
      expect(await as(alice).post.findMany({ cursor: { id: ids.bobDraft }, take: 2 })).toEqual([]);
      expect(
        (await as(bob).post.findMany({ cursor: { id: ids.bobDraft }, take: 1 })).map((p: { id: number }) => p.id),
      ).toEqual([ids.bobDraft]);
    });
  });

  describe('hidden fields', () => {
    it('never returns them, at the top level or nested', async () => {
      const users = await as(alice).user.findMany();
      expect(users.every((user: object) => !('passwordHash' in user))).toBe(true);
      const post = await as(alice).post.findUnique({
        where: { id: ids.alicePub },
        include: { author: true, comments: { include: { author: true } } },
      });
      expect(post.author).not.toHaveProperty('passwordHash');
      expect(post.comments[0].author).not.toHaveProperty('passwordHash');
      expect(post.author.name).toBe('alice');
    });

    it.each([
      ['where', { where: { passwordHash: 'hash-bob' } }],
      ['where through a relation', { where: { OR: [{ posts: { some: { author: { passwordHash: 'hash-bob' } } } }] } }],
      ['orderBy', { orderBy: [{ passwordHash: 'asc' }] }],
      ['select', { select: { passwordHash: true } }],
      ['omit', { omit: { passwordHash: true } }],
      ['distinct', { distinct: ['passwordHash'] }],
      ['cursor', { cursor: { id: 1, passwordHash: 'x' } }],
      ['nested include where', { include: { posts: { include: { author: { select: { passwordHash: true } } } } } }],
    ])('refuses them in %s as unknown (400)', async (_where, args) => {
      await expect(as(alice).user.findMany(args)).rejects.toMatchObject(unknownField('passwordHash'));
    });

    it('refuses them in groupBy, aggregate and count', async () => {
      await expect(as(alice).user.groupBy({ by: ['passwordHash'] })).rejects.toMatchObject(
        unknownField('passwordHash'),
      );
      await expect(as(alice).user.aggregate({ _max: { passwordHash: true } })).rejects.toMatchObject(
        unknownField('passwordHash'),
      );
      await expect(as(alice).user.count({ select: { passwordHash: true } })).rejects.toMatchObject(
        unknownField('passwordHash'),
      );
      await expect(as(alice).post.findMany({ orderBy: { author: { passwordHash: 'asc' } } })).rejects.toMatchObject(
        unknownField('passwordHash'),
      );
    });

    it('refuses sorting through a relation whose read rule is conditional (403)', async () => {
      await expect(as(alice).user.findMany({ orderBy: { posts: { _count: 'desc' } } })).rejects.toMatchObject(
        violation,
      );
      expect(await as(alice).post.findMany({ orderBy: { author: { name: 'asc' } } })).toHaveLength(3);
    });
  });

  describe('create', () => {
    it('creates rows matching the create rule and returns them as readable', async () => {
      const post = await as(alice).post.create({
        data: { title: 'new', authorId: alice.id },
        include: { author: true },
      });
      expect(post).toMatchObject({ title: 'new', author: { name: 'alice' } });
      expect(post.author).not.toHaveProperty('passwordHash');
    });

    it('refuses a row outside the rule with 403 and writes nothing', async () => {
      const before = await db.prisma.post.count();
      const error = await as(alice)
        .post.create({ data: { title: 'forged', authorId: bob.id } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CrudApiError);
      expect(error).toMatchObject({ status: 403, ...violation });
      await expect(as().post.create({ data: { title: 'anon', authorId: bob.id } })).rejects.toMatchObject(violation);
      await expect(
        as(alice).post.create({ data: { title: 'forged', author: { connect: { id: bob.id } } } }),
      ).rejects.toMatchObject(violation);
      expect(await db.prisma.post.count()).toBe(before);
    });

    itOn(
      provider,
      ['sqlite', 'postgresql'],
      'no createManyAndReturn on MySQL; the next test checks its refusal',
    )('checks createMany row by row, all or nothing', async () => {
      const before = await db.prisma.post.count();
      await expect(
        as(alice).post.createMany({
          data: [
            { title: 'm1', authorId: alice.id },
            { title: 'm2', authorId: bob.id },
          ],
        }),
      ).rejects.toMatchObject(violation);
      expect(await db.prisma.post.count()).toBe(before);
      expect(await as(alice).post.createMany({ data: [{ title: 'm1', authorId: alice.id }] })).toEqual({ count: 1 });
      const rows = await as(alice).post.createManyAndReturn({
        data: [
          { title: 'm3', authorId: alice.id },
          { title: 'm4', authorId: alice.id },
        ],
      });
      expect(rows.map((row: { title: string }) => row.title)).toEqual(['m3', 'm4']);
    });

    itOn(
      provider,
      ['mysql'],
      'only MySQL lacks createManyAndReturn',
    )(
      'refuses createMany under a conditional create rule where it cannot check the rows (403, nothing written)',
      async () => {
        const before = await db.prisma.post.count();
        const error = await as(alice)
          .post.createMany({ data: [{ title: 'm1', authorId: alice.id }] })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({
          ...violation,
          message: expect.stringContaining('no createManyAndReturn (no RETURNING clause)'),
        });
        expect(await db.prisma.post.count()).toBe(before);
        // A rule that is `true` needs no check: createMany works there.
        expect(
          await as(alice, { ...samplePolicies, Tag: { read: true, create: true } }).tag.createMany({
            data: [{ name: 'many-ok' }],
          }),
        ).toEqual({ count: 1 });
      },
    );

    it('keeps a write whose result is not readable and says so (RESULT_NOT_READABLE)', async () => {
      const secretTags = {
        ...samplePolicies,
        Tag: { read: { name: { not: { startsWith: 'secret' } } }, create: true },
      };
      await expect(as(alice, secretTags).tag.create({ data: { name: 'secret-1' } })).rejects.toMatchObject(notReadable);
      expect(await db.prisma.tag.count({ where: { name: 'secret-1' } })).toBe(1);
      await expect(
        as(alice, secretTags).$transaction(async (tx: any) => tx.tag.create({ data: { name: 'secret-2' } })),
      ).rejects.toMatchObject(notReadable);
      expect(await db.prisma.tag.count({ where: { name: 'secret-2' } })).toBe(1);
    });
  });

  describe('update and delete', () => {
    it('changes only rows satisfying the rule; others are 403 and unchanged, invisible ones not found', async () => {
      expect(await as(alice).post.update({ where: { id: ids.aliceDraft }, data: { rating: 1 } })).toMatchObject({
        rating: 1,
      });
      await expect(as(alice).post.update({ where: { id: ids.bobPub }, data: { rating: 5 } })).rejects.toMatchObject(
        violation,
      );
      await expect(as(alice).post.update({ where: { id: ids.bobDraft }, data: { rating: 5 } })).rejects.toMatchObject({
        code: 'P2025',
      });
      await expect(as(alice).post.delete({ where: { id: ids.bobPub } })).rejects.toMatchObject(violation);
      await expect(as(alice).post.delete({ where: { id: ids.bobDraft } })).rejects.toMatchObject({ code: 'P2025' });
      await expect(as(alice).post.update({ where: { title: 'alicePub' }, data: { rating: 1 } })).rejects.toMatchObject({
        code: 'invalid-argument',
      });
      expect(await db.prisma.post.findUnique({ where: { id: ids.bobPub } })).toMatchObject({ rating: 0 });
      expect(await db.prisma.post.count({ where: { id: { in: [ids.bobPub!, ids.bobDraft!] } } })).toBe(2);
    });

    it('restricts updateMany and deleteMany to permitted rows', async () => {
      const own = await db.prisma.post.count({ where: { authorId: alice.id } });
      expect(await as(alice).post.updateMany({ data: { rating: 2 } })).toEqual({ count: own });
      expect(await db.prisma.post.count({ where: { rating: 2 } })).toBe(own);
      expect(await as().post.updateMany({ data: { rating: 3 } })).toEqual({ count: 0 });
      expect(await as(bob).post.deleteMany({ where: { title: 'alicePub' } })).toEqual({ count: 0 });
      const temp = await db.prisma.post.create({ data: { title: 'temp', authorId: bob.id } });
      expect(await as(bob).post.delete({ where: { id: temp.id }, select: { title: true } })).toEqual({ title: 'temp' });
    });

    it('refuses protected fields with 403', async () => {
      await expect(as(alice).user.update({ where: { id: alice.id }, data: { role: 'ADMIN' } })).rejects.toMatchObject(
        violation,
      );
      await expect(
        as(alice).user.update({ where: { id: alice.id }, data: { passwordHash: 'x' } }),
      ).rejects.toMatchObject(violation);
      expect(
        await as(admin).user.update({ where: { id: bob.id }, data: { role: 'USER' }, select: { role: true } }),
      ).toEqual({ role: 'USER' });
      expect(
        await as(alice).user.update({ where: { id: alice.id }, data: { name: 'alice' }, select: { name: true } }),
      ).toEqual({ name: 'alice' });
    });
  });

  describe('nested writes', () => {
    it('checks every model a nested write touches', async () => {
      // Post create rule is conditional: a nested create cannot be checked row by row.
      await expect(
        as(alice).user.update({ where: { id: alice.id }, data: { posts: { create: { title: 'x' } } } }),
      ).rejects.toMatchObject(violation);
      // Linking bob's post to alice rewrites its authorId: bob's update rule applies.
      await expect(
        as(alice).user.update({ where: { id: alice.id }, data: { posts: { connect: { id: ids.bobPub } } } }),
      ).rejects.toMatchObject(violation);
      await expect(
        as(alice).user.update({
          where: { id: alice.id },
          data: { posts: { update: { where: { id: ids.bobDraft }, data: { title: 'x' } } } },
        }),
      ).rejects.toMatchObject({ code: 'P2025' });
      await expect(
        as(alice).user.update({
          where: { id: alice.id },
          data: { posts: { update: { where: { id: ids.bobPub }, data: { title: 'x' } } } },
        }),
      ).rejects.toMatchObject(violation);
      await expect(
        as(alice).user.update({ where: { id: alice.id }, data: { posts: { set: [] } } }),
      ).rejects.toMatchObject(violation);
      await expect(
        as(alice).post.update({ where: { id: ids.alicePub }, data: { tags: { whatever: [] } } }),
      ).rejects.toMatchObject(violation);
      expect(await db.prisma.post.findUnique({ where: { id: ids.bobPub } })).toMatchObject({
        title: 'bobPub',
        authorId: bob.id,
      });
    });

    it('lets permitted nested writes through', async () => {
      const tagsUpdatable = { ...samplePolicies, Tag: { ...samplePolicies.Tag, update: true } };
      // Linking an existing tag updates both sides of the many-to-many: the sample's Tag update rule is admin-only.
      await expect(
        as(alice).post.create({ data: { title: 'tagged', authorId: alice.id, tags: { connect: [{ id: ids.tag }] } } }),
      ).rejects.toMatchObject(violation);
      const post = await as(alice, tagsUpdatable).post.create({
        data: {
          title: 'tagged',
          author: { connect: { id: alice.id } },
          tags: { connect: [{ id: ids.tag }], create: [{ name: 'fresh' }] },
        },
        include: { tags: { orderBy: { name: 'asc' } } },
      });
      expect(post.tags.map((tag: { name: string }) => tag.name)).toEqual(['fresh', 'news']);
      const updated = await as(alice).user.update({
        where: { id: alice.id },
        data: { posts: { updateMany: { where: {}, data: { rating: 4 } }, deleteMany: { title: 'tagged' } } },
        select: { posts: { select: { title: true, rating: true } } },
      });
      expect(updated.posts.every((p: { rating: number }) => p.rating === 4)).toBe(true);
      expect(await db.prisma.post.findUnique({ where: { id: ids.bobPub } })).toMatchObject({ rating: 0 });
      expect(await db.prisma.post.count({ where: { title: 'tagged' } })).toBe(0);
    });
  });

  describe('transactions and defaults', () => {
    it('runs inside interactive transactions and reuses them when nested', async () => {
      const result = await as(alice).$transaction(async (tx: any) => {
        const post = await tx.post.create({ data: { title: 'in-tx', authorId: alice.id } });
        return tx.$transaction(async (inner: any) => inner.post.findUnique({ where: { id: post.id } }));
      });
      expect(result).toMatchObject({ title: 'in-tx' });
      await expect(
        as(alice).$transaction(async (tx: any) => {
          await tx.post.create({ data: { title: 'rolled-back', authorId: alice.id } });
          await tx.post.create({ data: { title: 'forged', authorId: bob.id } });
        }),
      ).rejects.toMatchObject(violation);
      expect(await db.prisma.post.count({ where: { title: 'rolled-back' } })).toBe(0);
    });

    it('denies models without rules by default, allows them with defaultPolicy "allow"', async () => {
      expect(await as(alice, {}).post.findMany()).toEqual([]);
      await expect(as(alice, {}).tag.create({ data: { name: 'denied' } })).rejects.toMatchObject(violation);
      expect(await as(alice, {}, 'allow').post.count()).toBe(await db.prisma.post.count());
      expect(await as(alice, { Post: { read: true } }).post.count()).toBe(await db.prisma.post.count());
    });

    it('fails fast on rules naming an unknown model or field', () => {
      expect(() => as(alice, { Nope: {} })).toThrow(/unknown model "Nope"/);
      expect(() => as(alice, { User: { fields: { read: { nope: false } } } })).toThrow(/unknown field "User.nope"/);
    });
  });
});
