import { Decimal } from '@prisma/client/runtime/client';

import type { SamplePrismaClient } from '../../fixtures/blog/database/create-prisma-client.js';
import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import { type RpcClient, RpcClientError, withIdempotencyKey } from '../../lib/client/index.js';
import { snapshotDatabase } from '../support/db-snapshot.js';
import { listenRpc, sampleRpcClient } from '../support/listening-client.js';
import { seedPolicyBlog } from '../support/policy-fixtures.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

/** Resolves to the error a call rejects with. */
async function rejection(call: PromiseLike<unknown>): Promise<RpcClientError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof RpcClientError) return error;
    throw error;
  }
  throw new Error('The call succeeded.');
}

describe.each(testProviders())('typed RPC client over HTTP (%s)', (provider) => {
  let client: RpcClient<SamplePrismaClient>;
  let prisma: SamplePrismaClient;
  let authorId: number;
  const requests: string[] = [];
  /** Each exchange's status, and the If-None-Match and Idempotency-Key it sent. */
  const exchanges: { status: number; ifNoneMatch: string | null; idempotencyKey: string | null }[] = [];

  const t = useTestApp(provider, {
    options: { operations: { tag: { exclude: ['deleteMany'] } } },
    seed: async ({ db }) => {
      prisma = db.prisma;
      authorId = (await prisma.user.create({ data: { email: 'author@x.test', name: 'Author' } })).id;
    },
  });
  beforeAll(async () => {
    const baseUrl = await listenRpc(t);
    client = sampleRpcClient(baseUrl, {
      fetch: async (input, init) => {
        requests.push(`${init?.method} ${String(input).slice(baseUrl.length)}`);
        const headers = new Headers(init?.headers);
        const res = await fetch(input, init);
        exchanges.push({
          status: res.status,
          ifNoneMatch: headers.get('If-None-Match'),
          idempotencyKey: headers.get('Idempotency-Key'),
        });
        return res;
      },
    });
  });
  beforeEach(() => {
    requests.length = 0;
    exchanges.length = 0;
  });

  it('reads answer exactly what the Prisma client answers, sent as GET with q', async () => {
    await prisma.post.createMany({
      data: [1, 2, 3].map((n) => ({ title: `read ${n}`, authorId, views: BigInt(n), price: new Decimal(`${n}.5`) })),
    });
    const where = { title: { startsWith: 'read' } };
    const first = await prisma.post.findFirstOrThrow({ where });
    expect(await client.post.findMany({ where, include: { author: true }, orderBy: { id: 'asc' } })).toEqual(
      await prisma.post.findMany({ where, include: { author: true }, orderBy: { id: 'asc' } }),
    );
    expect(await client.post.findUnique({ where: { id: first.id } })).toEqual(first);
    expect(await client.post.findUniqueOrThrow({ where: { id: first.id }, select: { title: true } })).toEqual({
      title: first.title,
    });
    expect(await client.post.findFirst({ where, orderBy: { id: 'desc' } })).toEqual(
      await prisma.post.findFirst({ where, orderBy: { id: 'desc' } }),
    );
    expect(await client.post.findFirstOrThrow({ where })).toEqual(first);
    expect(await client.post.count({ where })).toBe(3);
    expect(
      await client.post.aggregate({ where, _sum: { views: true, price: true }, _max: { createdAt: true } }),
    ).toEqual(await prisma.post.aggregate({ where, _sum: { views: true, price: true }, _max: { createdAt: true } }));
    expect(await client.post.groupBy({ by: ['authorId'], where, _count: { _all: true } })).toEqual([
      { authorId, _count: { _all: 3 } },
    ]);
    expect(requests.every((line) => line.startsWith('GET ') && line.includes('?q='))).toBe(true);
    expect(requests).toHaveLength(8);
  });

  it('writes change the database as the Prisma client would, each with its method', async () => {
    const created = await client.post.create({ data: { title: 'write one', authorId } });
    expect(await prisma.post.findUnique({ where: { id: created.id } })).toEqual(created);
    expect(
      await client.post.createMany({
        data: [
          { title: 'write two', authorId },
          { title: 'write three', authorId },
        ],
      }),
    ).toEqual({ count: 2 });
    expect(
      await client.post.update({
        where: { id: created.id },
        data: { views: { increment: 5 } },
        select: { views: true },
      }),
    ).toEqual({ views: 5n });
    expect(
      await client.post.updateMany({ where: { title: { startsWith: 'write' } }, data: { published: true } }),
    ).toEqual({ count: 3 });
    const upserted = await client.tag.upsert({ where: { name: 'upserted' }, create: { name: 'upserted' }, update: {} });
    expect(await prisma.tag.findUnique({ where: { name: 'upserted' } })).toEqual(upserted);
    expect(await client.post.delete({ where: { id: created.id }, select: { id: true } })).toEqual({ id: created.id });
    expect(await client.post.deleteMany({ where: { title: { startsWith: 'write' } } })).toEqual({ count: 2 });
    expect(await prisma.post.count({ where: { title: { startsWith: 'write' } } })).toBe(0);
    expect(requests.map((line) => line.split(' ')[0])).toEqual([
      'POST',
      'POST',
      'PATCH',
      'PATCH',
      'POST',
      'DELETE',
      'DELETE',
    ]);
    const keys = exchanges.map((exchange) => exchange.idempotencyKey);
    expect(keys.every((key) => /^"[0-9a-f-]{36}"$/.test(key ?? ''))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('revalidates a repeated read: the server answers 304, the client the same data; after a write, 200', async () => {
    const post = await prisma.post.create({ data: { title: 'revalidated', authorId } });
    const read = () => client.post.findUniqueOrThrow({ where: { id: post.id }, include: { author: true } });
    const first = await read();
    first.title = 'changed by the caller';
    expect(await read()).toEqual(
      await prisma.post.findUniqueOrThrow({ where: { id: post.id }, include: { author: true } }),
    );
    await client.post.update({ where: { id: post.id }, data: { title: 'rewritten' } });
    expect(await read()).toMatchObject({ id: post.id, title: 'rewritten' });
    expect(await read()).toMatchObject({ title: 'rewritten' });
    expect(exchanges.map(({ status, ifNoneMatch }) => [status, ifNoneMatch !== null])).toEqual([
      [200, false],
      [304, true],
      [200, false],
      [200, true],
      [304, true],
    ]);
  });

  it('a write sent again with its key is a retry: the server replays its answer and writes once', async () => {
    const title = `retried ${Date.now()}`;
    const key = `retry-${title}`;
    const first = await withIdempotencyKey(client.post.create({ data: { title, authorId } }), key);
    const again = await withIdempotencyKey(client.post.create({ data: { title, authorId } }), key);
    expect(again).toEqual(first);
    expect(exchanges.map(({ status, idempotencyKey }) => [status, idempotencyKey])).toEqual([
      [201, exchanges[0]!.idempotencyKey],
      [201, exchanges[0]!.idempotencyKey],
    ]);
    expect(await prisma.post.count({ where: { title } })).toBe(1);
    // A new call is a new write.
    await client.post.create({ data: { title, authorId } });
    expect(await prisma.post.count({ where: { title } })).toBe(2);
  });

  it('createManyAndReturn and updateManyAndReturn where the provider has them', async () => {
    if (provider === 'mysql') {
      expect(await rejection(client.tag.createManyAndReturn({ data: [{ name: 'r1' }] }))).toMatchObject({
        status: 400,
      });
      return;
    }
    expect(
      await client.tag.createManyAndReturn({ data: [{ name: 'r1' }, { name: 'r2' }], select: { name: true } }),
    ).toEqual([{ name: 'r1' }, { name: 'r2' }]);
    const renamed = await client.tag.updateManyAndReturn({ where: { name: 'r1' }, data: { name: 'r1b' } });
    expect(renamed).toEqual(await prisma.tag.findMany({ where: { name: 'r1b' } }));
  });

  it('round-trips Date, BigInt, Decimal, Bytes and Json in arguments and results', async () => {
    const publishedAt = new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 123));
    const views = 2n ** 53n + 1n;
    const price = new Decimal('12345.6789');
    const post = await client.post.create({
      data: { title: 'typed', authorId, publishedAt, views, price, metadata: { nested: [1, 'two', null] } },
    });
    expect(post).toMatchObject({ publishedAt, views, price, metadata: { nested: [1, 'two', null] } });
    expect(post.createdAt).toBeInstanceOf(Date);
    expect(await client.post.findMany({ where: { publishedAt, views, price } })).toEqual([post]);
    const avatar = Uint8Array.from([0, 1, 254, 255]);
    await client.profile.create({ data: { userId: authorId, avatar } });
    const profile = await client.profile.findUniqueOrThrow({ where: { userId: authorId } });
    expect(profile.avatar).toEqual(avatar);
    expect(Buffer.from((await prisma.profile.findUniqueOrThrow({ where: { userId: authorId } })).avatar!)).toEqual(
      Buffer.from(avatar),
    );
  });

  it('restores decimals as their strings when no Decimal class is given', async () => {
    const plain = sampleRpcClient(await t.app.getUrl().then((url) => `${url.replace('[::1]', '127.0.0.1')}/api/rpc`), {
      decimal: undefined,
    });
    await prisma.post.create({ data: { title: 'string decimal', authorId, price: new Decimal('0.1') } });
    const { price } = await plain.post.findFirstOrThrow({
      where: { title: 'string decimal' },
      select: { price: true },
    });
    expect(price as unknown).toBe('0.1');
  });

  it('follows relation methods of the fluent API as Prisma does', async () => {
    const post = await prisma.post.create({
      data: { title: 'fluent', authorId, comments: { create: [{ body: 'c1', authorId }] } },
    });
    expect(await client.post.findUnique({ where: { id: post.id } }).author()).toEqual(
      await prisma.post.findUnique({ where: { id: post.id } }).author(),
    );
    expect(await client.post.findUnique({ where: { id: post.id } }).comments({ select: { body: true } })).toEqual([
      { body: 'c1' },
    ]);
    expect(await client.post.findUnique({ where: { id: 999_999 } }).author()).toBeNull();
    expect(
      await client.comment
        .findFirstOrThrow({ where: { postId: post.id } })
        .post()
        .author({ select: { email: true } }),
    ).toEqual({ email: 'author@x.test' });
  });

  it('sends nothing until a call is awaited, and once however often it is awaited', async () => {
    const call = client.post.count();
    expect(requests).toEqual([]);
    await call;
    await call;
    expect(requests).toHaveLength(1);
  });

  it('surfaces error answers as RpcClientError with their status and body', async () => {
    const missing = await rejection(client.post.findUniqueOrThrow({ where: { id: 999_999 } }));
    expect(missing).toMatchObject({ status: 404, code: 'P2025', errorCode: 'not-found', error: { orm: true } });
    await client.tag.create({ data: { name: 'unique' } });
    expect(await rejection(client.tag.create({ data: { name: 'unique' } }))).toMatchObject({
      status: 400,
      code: 'P2002',
      error: { orm: true },
    });
    const invalid = await rejection(client.post.findMany({ where: { titel: 'x' } } as never));
    expect(invalid.status).toBe(400);
    expect(invalid.message).toContain('/where/titel');
    expect(invalid).toMatchObject({ code: 'invalid-argument', errorCode: 'invalid-argument' });
    expect(await rejection(client.tag.deleteMany())).toMatchObject({ status: 400, code: 'unknown-operation' });
    expect(await rejection((client as unknown as Record<string, typeof client.tag>).nope.findMany())).toMatchObject({
      status: 404,
      code: 'unknown-type',
    });
  });

  it('runs $transaction calls in one sequential transaction, typed per position', async () => {
    const [post, count, fluentAuthor] = await client.$transaction([
      client.post.create({ data: { title: 'tx one', authorId, price: new Decimal('1.25') } }),
      client.post.count({ where: { title: 'tx one' } }),
      client.post.findFirst({ where: { title: 'tx one' } }).author({ select: { name: true } }),
    ]);
    expect(post).toMatchObject({ title: 'tx one', price: new Decimal('1.25') });
    expect(count).toBe(1);
    expect(fluentAuthor).toEqual({ name: 'Author' });
    expect(requests).toEqual(['POST /$transaction/sequential']);

    const before = await snapshotDatabase(t.db);
    const failed = await rejection(
      client.$transaction([
        client.post.create({ data: { title: 'tx rolled back', authorId } }),
        client.post.update({ where: { id: 999_999 }, data: {} }),
      ]),
    );
    expect(failed).toMatchObject({ status: 404, code: 'P2025', error: { meta: { index: 1 } } });
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it('refuses anything but calls of the client in $transaction', async () => {
    await expect(client.$transaction([Promise.resolve(1)])).rejects.toThrow(TypeError);
  });
});

describe.each(testProviders())('typed RPC client under the access policies (%s)', (provider) => {
  let users: Record<string, DemoUser>;
  let postsOf: Record<string, number>;
  const clientAs = (baseUrl: string, name?: string) =>
    sampleRpcClient(baseUrl, { headers: (): Record<string, string> => (name ? { 'x-demo-user': name } : {}) });
  let baseUrl: string;

  const t = useTestApp(provider, {
    options: {
      policies: samplePolicies,
      context: (request: { headers: Record<string, string | undefined> }) => ({
        user: users[request.headers['x-demo-user'] ?? ''],
      }),
    },
    seed: async () => {
      const seeded = await seedPolicyBlog(t.db);
      users = { alice: seeded.alice, bob: seeded.bob };
      postsOf = seeded.posts;
    },
  });
  beforeAll(async () => {
    baseUrl = await listenRpc(t);
  });

  it('reads what the caller named by its headers may read', async () => {
    const titles = async (name?: string) =>
      (await clientAs(baseUrl, name).post.findMany({ select: { title: true }, orderBy: { title: 'asc' } })).map(
        (post) => post.title,
      );
    expect(await titles('bob')).toEqual(['alicePub', 'bobDraft', 'bobPub']);
    expect(await titles('alice')).toEqual(['alicePub', 'bobPub']);
    expect(await titles()).toEqual(['alicePub', 'bobPub']);
  });

  it('throws a rejected write as RpcClientError 403 with the policy’s reason, nothing written', async () => {
    const before = await snapshotDatabase(t.db);
    const refused = await rejection(
      clientAs(baseUrl, 'alice').post.update({ where: { id: postsOf.bobPub }, data: { title: 'stolen' } }),
    );
    expect(refused).toMatchObject({ status: expect.any(Number), rejectedByPolicy: true });
    // Stable whichever way the refusal reads: a policy's own code, or Prisma's for a row the caller cannot see.
    expect(refused.code).toEqual(expect.any(String));
    expect(refused.errorCode).toEqual(expect.any(String));
    expect([403, 404]).toContain(refused.status);
    expect(await snapshotDatabase(t.db)).toBe(before);
    const anonymous = await rejection(clientAs(baseUrl).tag.create({ data: { name: 'anon' } }));
    expect(anonymous).toMatchObject({
      status: 403,
      code: 'rejected-by-policy',
      errorCode: 'rejected-by-policy',
      rejectedByPolicy: true,
      error: { reason: 'ACCESS_POLICY_VIOLATION' },
    });
  });
});
