import { z } from 'zod';

import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import { type CrudApiPolicies, type CrudApiRules, RuleError, withPolicies } from '../../lib/index.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

const hash = (password: string) => `hashed:${password}`;
const failure = (...issues: { path: (string | number)[]; code?: string }[]) => ({
  code: 'validation-failed',
  options: { issues: issues.map((issue) => expect.objectContaining(issue)) },
});

/** Hook calls in order, to prove what ran and what each hook saw. */
const calls: string[] = [];

const rules: CrudApiRules = {
  User: {
    fields: { passwordHash: 'internal' },
    virtual: { password: { type: 'String' } },
    beforeCreate: ({ data }) => {
      calls.push(`create User ${data.email}`);
      if (typeof data.password === 'string' && data.password.length < 8)
        throw new RuleError('The password needs at least 8 characters.', ['password'], 'too-short');
      if (data.password !== undefined) data.passwordHash = hash(data.password);
      if (typeof data.email === 'string') data.email = data.email.toLowerCase();
    },
    beforeUpdate: ({ data, rows }) => {
      calls.push(`update User ${rows.map((row) => row.id).join(',')}`);
      if (typeof data.password === 'string') data.passwordHash = hash(data.password);
      if (typeof data.email === 'string') data.email = data.email.toLowerCase();
    },
    beforeDelete: ({ rows }) => {
      calls.push(`delete User ${rows.map((row) => row.email).join(',')}`);
      if (rows.some((row) => row.email.startsWith('keep'))) throw new RuleError('This user is kept.', [], 'kept');
    },
    validate: {
      create: z.object({ email: z.email().max(254), name: z.string().min(2).optional() }),
      update: z.object({ email: z.email().max(254).optional(), name: z.string().min(2).optional() }),
    },
  },
  Post: {
    fields: { authorId: { serverSet: (context) => context.user?.id } },
    validate: {
      create: z.object({ title: z.string().min(1) }),
      update: z.object({ title: z.string().min(1).optional(), rating: z.number().max(5).optional() }),
    },
  },
};

describe.each(testProviders())('write rules on the Prisma client (%s)', (provider) => {
  let db: TestDatabase;
  let alice: DemoUser, admin: DemoUser;

  const as = (user?: DemoUser, policies?: CrudApiPolicies) =>
    withPolicies(db.prisma, { policies, rules, modelMeta: db.modelMeta, context: { user } }) as any;

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    const mk = (name: string, role: 'USER' | 'ADMIN' = 'USER') =>
      db.prisma.user.create({ data: { name, email: `${name}@x.test`, role }, select: { id: true, role: true } });
    [alice, admin] = [await mk('alice'), await mk('admin', 'ADMIN')];
  });
  afterAll(() => db.drop());
  beforeEach(() => (calls.length = 0));

  const stored = (email: string) => db.prisma.user.findUnique({ where: { email } });

  it('turns a virtual password into the internal hash, which no answer shows', async () => {
    const created = await as(admin).user.create({
      data: { email: 'Carol@X.test', name: 'Carol', password: 'secret-pw' },
    });
    expect(created).not.toHaveProperty('passwordHash');
    expect(created).not.toHaveProperty('password');
    expect(created.email).toBe('carol@x.test');
    expect((await stored('carol@x.test'))?.passwordHash).toBe(hash('secret-pw'));
    await expect(as(admin).user.findMany({ where: { passwordHash: { startsWith: 'hashed' } } })).rejects.toMatchObject({
      code: 'invalid-argument',
    });
  });

  it('refuses an internal column as an unknown field and a server-set one with its path', async () => {
    await expect(
      as(admin).user.create({ data: { email: 'dave@x.test', name: 'Dave', passwordHash: 'chosen' } }),
    ).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(as(alice).post.create({ data: { title: 'mine', authorId: admin.id } })).rejects.toMatchObject(
      failure({ path: ['data', 'authorId'], code: 'server-set' }),
    );
    await expect(
      as(alice).post.create({ data: { title: 'mine', author: { connect: { id: admin.id } } } }),
    ).rejects.toMatchObject(failure({ path: ['data', 'author'], code: 'server-set' }));
    expect(await db.prisma.user.count({ where: { email: 'dave@x.test' } })).toBe(0);
  });

  it('fills a server-set key from the context, and a nested create takes its parent', async () => {
    const post = await as(alice).post.create({ data: { title: 'by alice' } });
    expect(post.authorId).toBe(alice.id);
    const user = await as(admin).user.create({
      data: { email: 'erin@x.test', name: 'Erin', posts: { create: [{ title: 'erin 1' }, { title: 'erin 2' }] } },
      include: { posts: true },
    });
    expect(user.posts.map((row: { authorId: number }) => row.authorId)).toEqual([user.id, user.id]);
  });

  it('reports every validation issue of a write at once, nested ones at their path', async () => {
    const attempt = as(admin).user.create({
      data: { email: 'not-an-email', name: 'x', posts: { create: [{ title: 'ok' }, { title: '' }] } },
    });
    await expect(attempt).rejects.toMatchObject(
      failure(
        { path: ['data', 'email'] },
        { path: ['data', 'name'] },
        { path: ['data', 'posts', 'create', 1, 'title'] },
      ),
    );
    expect(await db.prisma.post.count({ where: { title: 'ok' } })).toBe(0);
  });

  it('validates after the hooks, on every update path', async () => {
    const user = await as(admin).user.create({ data: { email: 'frank@x.test', name: 'Frank' } });
    await as(admin).user.update({ where: { id: user.id }, data: { email: 'FRANK2@X.test' } });
    expect(await stored('frank2@x.test')).not.toBeNull();
    for (const attempt of [
      as(admin).user.update({ where: { id: user.id }, data: { email: 'bad' } }),
      as(admin).user.update({ where: { id: user.id }, data: { email: { set: 'bad' } } }),
      as(admin).user.updateMany({ where: { id: user.id }, data: { email: 'bad2' } }),
      as(admin).user.upsert({
        where: { id: user.id },
        create: { email: 'ok@x.test', name: 'Ok' },
        update: { email: 'bad3' },
      }),
      as(admin).user.update({ where: { id: user.id }, data: { posts: { create: { title: '' } } } }),
    ]) {
      await expect(attempt).rejects.toMatchObject({ code: 'validation-failed' });
    }
    expect((await db.prisma.user.findUnique({ where: { id: user.id } }))?.email).toBe('frank2@x.test');
  });

  it('runs the hook of the upsert branch that runs', async () => {
    const created = await as(admin).user.upsert({
      where: { email: 'gina@x.test' },
      create: { email: 'gina@x.test', name: 'Gina', password: 'first-pass' },
      update: { password: 'second-pass' },
    });
    await as(admin).user.upsert({
      where: { email: 'gina@x.test' },
      create: { email: 'gina@x.test', name: 'Gina', password: 'never-used' },
      update: { password: 'second-pass' },
    });
    expect(calls).toEqual(['create User gina@x.test', `update User ${created.id}`]);
    expect((await stored('gina@x.test'))?.passwordHash).toBe(hash('second-pass'));
  });

  it('runs nested hooks at any depth, with the rows an update targets', async () => {
    const post = await as(alice).post.create({
      data: { title: 'deep' },
      select: { id: true },
    });
    await as(admin).post.update({
      where: { id: post.id },
      data: { author: { update: { email: 'ALICE-NEW@x.test' } } },
    });
    expect(calls).toEqual([`update User ${alice.id}`]);
    expect(await stored('alice-new@x.test')).not.toBeNull();
    await expect(
      as(admin).post.update({ where: { id: post.id }, data: { author: { update: { email: 'nope' } } } }),
    ).rejects.toMatchObject(failure({ path: ['data', 'author', 'update', 'email'] }));
  });

  it('lets a hook refuse with its own path, and a delete hook see the rows and roll back', async () => {
    await expect(
      as(admin).user.create({ data: { email: 'hank@x.test', name: 'Hank', password: 'short' } }),
    ).rejects.toMatchObject(failure({ path: ['data', 'password'], code: 'too-short' }));
    const kept = await as(admin).user.create({ data: { email: 'keep@x.test', name: 'Keep' } });
    const gone = await as(admin).user.create({ data: { email: 'gone@x.test', name: 'Gone' } });
    await expect(as(admin).user.deleteMany({ where: { id: { in: [kept.id, gone.id] } } })).rejects.toMatchObject({
      code: 'validation-failed',
    });
    expect(await db.prisma.user.count({ where: { id: { in: [kept.id, gone.id] } } })).toBe(2);
    await as(admin).user.delete({ where: { id: gone.id } });
    expect(calls.at(-1)).toBe('delete User gone@x.test');
  });

  it('validates a column the database computes once it is written, and rolls back', async () => {
    const post = await as(alice).post.create({ data: { title: 'rated', rating: 1 } });
    await as(alice).post.update({ where: { id: post.id }, data: { rating: { increment: 2 } } });
    for (const attempt of [
      as(alice).post.update({ where: { id: post.id }, data: { rating: { increment: 10 } } }),
      as(alice).post.updateMany({ where: { id: post.id }, data: { rating: { multiply: 4 } } }),
      as(admin).user.update({
        where: { id: alice.id },
        data: { posts: { update: { where: { id: post.id }, data: { rating: { increment: 9 } } } } },
      }),
    ]) {
      await expect(attempt).rejects.toMatchObject(failure({ path: expect.arrayContaining(['rating']) }));
    }
    expect((await db.prisma.post.findUnique({ where: { id: post.id } }))?.rating).toBe(3);
  });

  it('leaves an operation that reaches no model with rules to Prisma as it is', async () => {
    const userRulesOnly = withPolicies(db.prisma, {
      rules: { User: rules.User! },
      modelMeta: db.modelMeta,
      context: {},
    }) as any;
    const count = async (run: () => Promise<unknown>) => {
      db.queries.length = 0;
      await run();
      return db.queries.length;
    };
    const plain = await count(() => db.prisma.post.create({ data: { title: 'plain', authorId: alice.id } }));
    expect(await count(() => userRulesOnly.post.create({ data: { title: 'plain', authorId: alice.id } }))).toBe(plain);
    // Reaching User (an include, a filter, a nested write) brings the rules back.
    const included = await userRulesOnly.post.findFirst({ where: { title: 'plain' }, include: { author: true } });
    expect(included.author).not.toHaveProperty('passwordHash');
    await expect(
      userRulesOnly.post.findMany({ where: { author: { passwordHash: { startsWith: 'hashed' } } } }),
    ).rejects.toMatchObject({ code: 'invalid-argument' });
  });

  const statements = async (run: () => Promise<unknown>) => {
    db.queries.length = 0;
    await run();
    return db.queries.length;
  };

  it('creates under rules alone in exactly the statements Prisma runs for the same create', async () => {
    const count = statements;
    const flat = { id: true, email: true };
    const flatPlain = await count(() =>
      db.prisma.user.create({ data: { email: 'plain-flat@x.test', name: 'Plain' }, select: flat }),
    );
    const flatRuled = await count(() =>
      as(admin).user.create({ data: { email: 'flat@x.test', name: 'Flat', password: 'long-enough' }, select: flat }),
    );
    expect(flatRuled).toBe(flatPlain);
    const select = { ...flat, posts: { select: { id: true } } };
    const plain = await count(() =>
      db.prisma.user.create({ data: { email: 'plain-one@x.test', name: 'Plain' }, select }),
    );
    let created: any;
    const ruled = await count(async () => {
      created = await as(admin).user.create({
        data: { email: 'Ruled-One@X.test', name: 'Ruled', password: 'long-enough' },
        select,
      });
    });
    expect(ruled).toBe(plain);
    expect(created).toEqual({ id: expect.any(Number), email: 'ruled-one@x.test', posts: [] });
    expect((await stored('ruled-one@x.test'))?.passwordHash).toBe(hash('long-enough'));
    // Without a selection, the internal column stays out of the answer all the same.
    expect(
      await as(admin).user.create({ data: { email: 'ruled-two@x.test', name: 'Ruled', password: 'long-enough' } }),
    ).not.toHaveProperty('passwordHash');
  });

  it('updates under rules alone in exactly the statements Prisma runs, unless a hook needs the rows', async () => {
    const post = await db.prisma.post.create({ data: { title: 'to rename', authorId: alice.id } });
    const select = { id: true, title: true };
    const plain = await statements(() =>
      db.prisma.post.update({ where: { id: post.id }, data: { title: 'renamed' }, select }),
    );
    let updated: any;
    const ruled = await statements(async () => {
      updated = await as(alice).post.update({ where: { id: post.id }, data: { title: 'ruled' }, select });
    });
    expect(ruled).toBe(plain);
    expect(updated).toEqual({ id: post.id, title: 'ruled' });
    // Validation still refuses, and nothing is written.
    await expect(as(alice).post.update({ where: { id: post.id }, data: { title: '' } })).rejects.toMatchObject(
      failure({ path: ['data', 'title'] }),
    );
    expect((await db.prisma.post.findUnique({ where: { id: post.id } }))?.title).toBe('ruled');

    // User's beforeUpdate sees the stored rows; a missing row fails before the hook runs.
    await expect(
      as(admin).user.update({ where: { email: 'nobody@x.test' }, data: { name: 'Nobody' } }),
    ).rejects.toMatchObject({ code: 'P2025' });
    expect(calls).toEqual([]);
    const renamed = await as(admin).user.update({ where: { id: alice.id }, data: { name: 'Alicia' } });
    expect(renamed).toMatchObject({ id: alice.id, name: 'Alicia' });
    expect(renamed).not.toHaveProperty('passwordHash');
    expect(calls).toEqual([`update User ${alice.id}`]);
  });

  it('begins a transaction when a hook uses its client, and the write commits or rolls back with it', async () => {
    const auditing: CrudApiRules = {
      Post: {
        beforeCreate: async ({ data, tx }) => {
          await tx.tag.create({ data: { name: `audit ${String(data.title)}` } });
        },
      },
    };
    const client = withPolicies(db.prisma, { rules: auditing, modelMeta: db.modelMeta, context: {} }) as any;
    const audit = (title: string) => db.prisma.tag.findUnique({ where: { name: `audit ${title}` } });

    const post = await client.post.create({ data: { title: 'audited', authorId: alice.id } });
    expect(post).toMatchObject({ title: 'audited', authorId: alice.id });
    expect(await audit('audited')).not.toBeNull();

    // The post fails after the hook wrote (no such author): the hook's write goes with it.
    await expect(client.post.create({ data: { title: 'orphan', authorId: 999_999 } })).rejects.toBeDefined();
    expect(await audit('orphan')).toBeNull();
    expect(await db.prisma.post.count({ where: { title: 'orphan' } })).toBe(0);
  });

  it('lets the policies judge the row the hooks made', async () => {
    const policies = samplePolicies as CrudApiPolicies;
    const post = await as(alice, policies).post.create({ data: { title: 'judged' } });
    expect(post.authorId).toBe(alice.id);
  });
});
