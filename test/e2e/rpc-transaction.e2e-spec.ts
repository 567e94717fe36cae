import { jest } from '@jest/globals';
import { Decimal } from '@prisma/client/runtime/client';

import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import { snapshotDatabase } from '../support/db-snapshot.js';
import { seedPolicyBlog } from '../support/policy-fixtures.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';
import { callTransaction, transactionBody, type TransactionOperation } from '../support/transaction-client.js';

describe.each(testProviders())('RPC sequential transactions (%s)', (provider) => {
  let author: { id: number };

  const t = useTestApp(provider, {
    options: { transactions: { maxOperations: 5 }, operations: { tag: { exclude: ['delete'] } } },
    seed: async () => {
      author = await t.db.prisma.user.create({ data: { email: 'author@x.test', name: 'Author' } });
    },
  });

  const createPost = (title: string, extra: Record<string, unknown> = {}): TransactionOperation => ({
    model: 'Post',
    op: 'create',
    args: { data: { title, authorId: author.id, ...extra } },
  });

  it.each(['server', 'hooks', 'fetch'] as const)(
    'runs every step in order and answers their results (%s wire form)',
    async (form) => {
      const publishedAt = new Date(Date.UTC(2024, 4, 1, 8, 30));
      const operations: TransactionOperation[] = [
        createPost(`${form} one`, { price: new Decimal('9.95'), publishedAt }),
        { model: 'post', op: 'updateMany', args: { where: { title: `${form} one` }, data: { views: 7n } } },
        {
          model: 'Post',
          op: 'findMany',
          args: {
            where: { title: { startsWith: form } },
            select: { title: true, views: true, price: true, publishedAt: true },
          },
        },
        { model: 'Post', op: 'count', args: { where: { title: { startsWith: form } } } },
      ];
      await t.db.prisma.post.deleteMany({ where: { title: { startsWith: form } } });
      const reply = await callTransaction(t, transactionBody(operations, form));
      expect(reply.status).toBe(200);
      expect(reply.data).toHaveLength(4);
      expect(reply.data[0]).toMatchObject({ title: `${form} one`, price: new Decimal('9.95'), publishedAt });
      expect(reply.data[1]).toEqual({ count: 1 });
      expect(reply.data[2]).toEqual([{ title: `${form} one`, views: 7n, price: new Decimal('9.95'), publishedAt }]);
      expect(reply.data[3]).toBe(1);
      // The Prisma name and the lower-case-first name both name the model; the read saw the earlier write.
      expect(await t.db.prisma.post.count({ where: { title: `${form} one`, views: 7n } })).toBe(1);
    },
  );

  it('sends the steps to the shared client as one batch transaction, not an interactive one', async () => {
    const transaction = jest.spyOn(t.db.prisma, '$transaction');
    try {
      const reply = await callTransaction(t, [
        createPost('batched'),
        { model: 'Post', op: 'count', args: { where: { title: 'batched' } } },
      ]);
      expect(reply.status).toBe(200);
      expect(reply.data[1]).toBe(1);
      expect(transaction).toHaveBeenCalledTimes(1);
      expect(Array.isArray(transaction.mock.calls[0]![0])).toBe(true);
      expect(transaction.mock.calls[0]![0]).toHaveLength(2);
    } finally {
      transaction.mockRestore();
      await t.db.prisma.post.deleteMany({ where: { title: 'batched' } });
    }
  });

  it('names the first step when the first step fails, nothing written', async () => {
    const before = await snapshotDatabase(t.db);
    const reply = await callTransaction(t, [
      { model: 'Post', op: 'delete', args: { where: { id: 999_999 } } },
      createPost('never run'),
    ]);
    expect(reply.status).toBe(404);
    expect(reply.body.error).toMatchObject({ meta: { index: 0 }, code: 'P2025' });
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it('rolls every step back when one fails, answering that step’s error and index', async () => {
    const before = await snapshotDatabase(t.db);
    const reply = await callTransaction(t, [
      createPost('rolled back'),
      { model: 'Tag', op: 'create', args: { data: { name: 'rolled-back-tag' } } },
      { model: 'Post', op: 'update', args: { where: { id: 999_999 }, data: { title: 'nope' } } },
      createPost('never run'),
    ]);
    expect(reply.status).toBe(404);
    expect(reply.body.error).toMatchObject({ meta: { index: 2 }, code: 'P2025' });
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it('answers a unique violation of a later step with its 400, nothing written', async () => {
    const before = await snapshotDatabase(t.db);
    const reply = await callTransaction(t, [
      { model: 'Tag', op: 'create', args: { data: { name: 'twice' } } },
      { model: 'Tag', op: 'create', args: { data: { name: 'twice' } } },
    ]);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ meta: { index: 1 }, code: 'P2002' });
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it.each([
    ['an unknown model', { model: 'Nope', op: 'findMany' }, 404],
    ['an unknown operation', { model: 'Post', op: '$queryRaw' }, 400],
    ['an operation the options exclude', { model: 'Tag', op: 'delete', args: { where: { id: 1 } } }, 400],
    ['an unknown argument', { model: 'Post', op: 'findMany', args: { wher: {} } }, 400],
    ['arguments that are not an object', { model: 'Post', op: 'findMany', args: [1] }, 400],
    ['a member other than model, op, args', { model: 'Post', op: 'findMany', extra: 1 }, 400],
    ['a model that is not a string', { model: 7, op: 'findMany' }, 400],
  ])('refuses %s before anything runs, naming the step', async (_what, bad, status) => {
    const before = await snapshotDatabase(t.db);
    const reply = await callTransaction(t, [createPost('before the bad step'), bad]);
    expect(reply.status).toBe(status);
    expect(reply.body.error.meta).toEqual({ index: 1 });
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it('refuses a prototype key in the arguments with 400, nothing written', async () => {
    const before = await snapshotDatabase(t.db);
    // Fastify's JSON parser refuses it before routing; on Express the step's argument check does, naming it.
    const body = `[${JSON.stringify(createPost('before the bad step'))},{"model":"Post","op":"findMany","args":{"where":{"__proto__":{"id":1}}}}]`;
    const res = await t
      .http()
      .post('/api/rpc/$transaction/sequential')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.status).toBe(400);
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it.each([
    ['an empty array', []],
    [
      'more operations than transactions.maxOperations',
      Array.from({ length: 6 }, () => ({ model: 'Post', op: 'count' })),
    ],
    ['an object that is not an envelope', { model: 'Post', op: 'count' }],
    ['an operation that is not an object', ['x']],
    ['an envelope with a stray member', { 0: { model: 'Post', op: 'count' }, 2: { model: 'Post', op: 'count' } }],
    ['an envelope whose meta is not superjson metadata', { 0: { model: 'Post', op: 'count' }, meta: 5 }],
  ])('answers %s with 400', async (_what, body) => {
    const reply = await callTransaction(t, body);
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toEqual(expect.any(String));
  });

  it('answers another method with 400 and Allow: POST, another transaction kind with 400', async () => {
    const get = await t.http().get('/api/rpc/$transaction/sequential');
    expect(get.status).toBe(400);
    expect(get.headers.allow).toBe('POST');
    expect((await t.http().post('/api/rpc/$transaction/interactive').send([])).status).toBe(400);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await t.http().post('/api/rpc/$transaction/sequential').set('Content-Type', 'text/plain').send('[]');
    expect(res.status).toBe(415);
  });
});

describe.each(testProviders())('RPC sequential transactions under access policies (%s)', (provider) => {
  let caller: DemoUser | undefined;
  let alice: DemoUser;
  let posts: Awaited<ReturnType<typeof seedPolicyBlog>>['posts'];

  const t = useTestApp(provider, {
    options: { policies: samplePolicies, context: () => ({ user: caller }) },
    seed: async () => {
      ({ alice, posts } = await seedPolicyBlog(t.db));
    },
  });

  const as = (user: DemoUser, operations: TransactionOperation[]) => {
    caller = user;
    return callTransaction(t, operations);
  };

  it('runs the steps the policies allow', async () => {
    const reply = await as(alice, [
      { model: 'Post', op: 'create', args: { data: { title: 'alice tx', authorId: alice.id } } },
      { model: 'Post', op: 'update', args: { where: { id: posts.alicePub }, data: { title: 'alicePub edited' } } },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.data.map((row: { title: string }) => row.title)).toEqual(['alice tx', 'alicePub edited']);
    await t.db.prisma.post.update({ where: { id: posts.alicePub }, data: { title: 'alicePub' } });
    await t.db.prisma.post.deleteMany({ where: { title: 'alice tx' } });
  });

  it('runs the steps in an interactive transaction, where the policy checks run between them', async () => {
    const transaction = jest.spyOn(t.db.prisma, '$transaction');
    try {
      const reply = await as(alice, [{ model: 'Post', op: 'count' }]);
      expect(reply.status).toBe(200);
      expect(transaction).toHaveBeenCalledTimes(1);
      expect(typeof transaction.mock.calls[0]![0]).toBe('function');
    } finally {
      transaction.mockRestore();
    }
  });

  it('rolls back the steps before a step the policies refuse', async () => {
    const before = await snapshotDatabase(t.db);
    const reply = await as(alice, [
      { model: 'Post', op: 'create', args: { data: { title: 'alice first', authorId: alice.id } } },
      { model: 'Post', op: 'update', args: { where: { id: posts.bobPub }, data: { title: 'stolen' } } },
    ]);
    expect(reply.status).toBe(403);
    expect(reply.body.error).toMatchObject({
      rejectedByPolicy: true,
      reason: 'ACCESS_POLICY_VIOLATION',
      meta: { index: 1 },
    });
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it('hides fields the policies hide, in every step', async () => {
    const reply = await as(alice, [{ model: 'User', op: 'findMany', args: { select: { passwordHash: true } } }]);
    expect(reply.status).toBe(400);
    expect(reply.body.error.meta).toEqual({ index: 0 });
  });
});

describe.each(testProviders())('RPC sequential transactions and unreadable results (%s)', (provider) => {
  let author: { id: number };
  // Drafts are writable but not readable: a created draft cannot be read back.
  const policies = { Post: { read: { published: true }, create: true, update: true, delete: true } };
  const t = useTestApp(provider, {
    options: { policies, defaultPolicy: 'allow' },
    seed: async () => {
      author = await t.db.prisma.user.create({ data: { email: 'drafts@x.test', name: 'Drafts' } });
    },
  });

  it('rolls back a step whose result is not readable, where a single call would have committed', async () => {
    const before = await snapshotDatabase(t.db);
    const reply = await callTransaction(t, [
      { model: 'Post', op: 'create', args: { data: { title: 'public', published: true, authorId: author.id } } },
      { model: 'Post', op: 'create', args: { data: { title: 'draft', authorId: author.id } } },
    ]);
    expect(reply.status).toBe(403);
    expect(reply.body.error).toMatchObject({ reason: 'RESULT_NOT_READABLE', meta: { index: 1 } });
    expect(await snapshotDatabase(t.db)).toBe(before);
    const single = await t
      .http()
      .post('/api/rpc/post/create')
      .send({ data: { title: 'draft', authorId: author.id } });
    expect(single.status).toBe(403);
    expect(await t.db.prisma.post.count({ where: { title: 'draft' } })).toBe(1);
  });
});
