import { Decimal } from '@prisma/client/runtime/client';

import { itOn } from '../support/it-on.js';
import { callRpc } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

type Delegate = Record<string, (args?: unknown) => Promise<unknown>>;

describe.each(testProviders())('RPC operations (%s)', (provider) => {
  let prisma: Record<string, Delegate>;
  let alice: { id: number };
  let bob: { id: number };

  /** Calls a read operation over HTTP and through the Prisma client with the same arguments. */
  async function expectSameAsPrisma(model: string, operation: string, args?: unknown): Promise<unknown> {
    const reply = await callRpc(t, 'get', `${model}/${operation}`, args);
    expect(reply.status).toBe(200);
    expect(reply.data).toEqual(await prisma[model]![operation]!(args));
    return reply.data;
  }

  const t = useTestApp(provider, {
    seed: async () => {
      prisma = t.db.prisma as unknown as Record<string, Delegate>;
      const db = t.db.prisma;
      alice = await db.user.create({ data: { email: 'alice@example.com', name: 'Alice', role: 'ADMIN' } });
      bob = await db.user.create({ data: { email: 'bob@example.com', name: 'Bob' } });
      const [news, howto] = await Promise.all([
        db.tag.create({ data: { name: 'news' } }),
        db.tag.create({ data: { name: 'howto' } }),
      ]);
      for (let i = 1; i <= 6; i++) {
        const post = await db.post.create({
          data: {
            title: `Post ${i}`,
            content: i % 2 ? `Body ${i}` : null,
            status: i <= 2 ? 'PUBLISHED' : 'DRAFT',
            published: i <= 2,
            rating: i / 2,
            price: new Decimal(`${i}.25`),
            views: BigInt(i) * 1_000_000_000_000n,
            publishedAt: i <= 2 ? new Date(Date.UTC(2024, 0, i, 12, 30, 15, 250)) : null,
            authorId: i % 3 ? alice.id : bob.id,
            tags: { connect: i % 2 ? [{ id: news.id }] : [{ id: news.id }, { id: howto.id }] },
          },
        });
        await db.comment.create({ data: { body: `On post ${i}`, postId: post.id, authorId: bob.id } });
        if (i <= 3) await db.like.create({ data: { userId: bob.id, postId: post.id } });
      }
    },
  });

  describe('reads', () => {
    it('findMany with where, orderBy, skip and take', async () => {
      const data = await expectSameAsPrisma('post', 'findMany', {
        where: { OR: [{ published: true }, { rating: { gte: 2 } }], title: { startsWith: 'Post' } },
        orderBy: [{ status: 'asc' }, { id: 'desc' }],
        skip: 1,
        take: 3,
      });
      expect(data).toHaveLength(3);
    });

    it('findMany with include, nested select and _count', async () => {
      const data = (await expectSameAsPrisma('user', 'findMany', {
        orderBy: { id: 'asc' },
        include: {
          posts: {
            select: { id: true, title: true, tags: { select: { name: true }, orderBy: { name: 'asc' } } },
            orderBy: { id: 'asc' },
          },
          _count: { select: { posts: true, likes: true } },
        },
      })) as Array<{ _count: { posts: number } }>;
      expect(data.map((user) => user._count.posts)).toEqual([4, 2]);
    });

    it('findMany with select, cursor and distinct', async () => {
      await expectSameAsPrisma('post', 'findMany', {
        select: { id: true, price: true, views: true },
        cursor: { id: 3 },
        take: 2,
        orderBy: { id: 'asc' },
      });
      const authors = await expectSameAsPrisma('post', 'findMany', {
        distinct: ['authorId'],
        select: { authorId: true },
        orderBy: { authorId: 'asc' },
      });
      expect(authors).toEqual([{ authorId: alice.id }, { authorId: bob.id }]);
    });

    it('findMany filtering on Decimal, BigInt and DateTime values', async () => {
      const data = await expectSameAsPrisma('post', 'findMany', {
        where: {
          price: { gt: new Decimal('1.25') },
          views: { lte: 4_000_000_000_000n },
          OR: [{ publishedAt: { gte: new Date(Date.UTC(2024, 0, 2)) } }, { publishedAt: null }],
        },
        orderBy: { id: 'asc' },
      });
      expect((data as Array<{ title: string }>).map((post) => post.title)).toEqual(['Post 2', 'Post 3', 'Post 4']);
    });

    it('findUnique by id and by compound id, and null when missing', async () => {
      await expectSameAsPrisma('post', 'findUnique', {
        where: { id: 2 },
        include: { author: true, tags: { orderBy: { id: 'asc' } } },
      });
      await expectSameAsPrisma('like', 'findUnique', { where: { userId_postId: { userId: bob.id, postId: 1 } } });
      await expectSameAsPrisma('user', 'findUnique', { where: { email: 'bob@example.com' }, select: { name: true } });
      expect(await expectSameAsPrisma('post', 'findUnique', { where: { id: 999 } })).toBeNull();
    });

    it('findUniqueOrThrow, findFirst and findFirstOrThrow', async () => {
      await expectSameAsPrisma('user', 'findUniqueOrThrow', { where: { id: alice.id } });
      await expectSameAsPrisma('post', 'findFirst', { where: { published: false }, orderBy: { rating: 'desc' } });
      await expectSameAsPrisma('comment', 'findFirstOrThrow', {
        where: { body: { contains: 'post 3' } },
        include: { post: true },
      });
    });

    it('count with and without arguments and with select', async () => {
      expect(await expectSameAsPrisma('post', 'count')).toBe(6);
      expect(await expectSameAsPrisma('post', 'count', { where: { content: null } })).toBe(3);
      expect(
        await expectSameAsPrisma('post', 'count', { select: { _all: true, content: true, publishedAt: true } }),
      ).toEqual({
        _all: 6,
        content: 3,
        publishedAt: 2,
      });
    });

    it('aggregate with _count, _sum, _avg, _min and _max', async () => {
      const data = (await expectSameAsPrisma('post', 'aggregate', {
        where: { authorId: alice.id },
        _count: { _all: true, content: true },
        _sum: { price: true, views: true, rating: true },
        _avg: { price: true, rating: true },
        _min: { price: true, publishedAt: true, title: true },
        _max: { views: true, createdAt: true },
      })) as { _sum: { price: Decimal; views: bigint } };
      expect(data._sum.price).toBeInstanceOf(Decimal);
      expect(data._sum.price.toString()).toBe('13');
      expect(typeof data._sum.views).toBe('bigint');
    });

    it('groupBy with aggregates, having and orderBy', async () => {
      const data = await expectSameAsPrisma('post', 'groupBy', {
        by: ['authorId', 'published'],
        _count: { _all: true },
        _sum: { price: true, views: true },
        _max: { publishedAt: true },
        having: { price: { _sum: { gt: new Decimal(2) } } },
        orderBy: [{ authorId: 'asc' }, { published: 'asc' }],
      });
      expect(data).toHaveLength(3);
    });
  });

  describe('writes', () => {
    it('create with nested connect and include answers 201 with the created record', async () => {
      const reply = await callRpc(t, 'post', 'post/create', {
        data: {
          title: 'Created',
          price: new Decimal('9.99'),
          authorId: bob.id,
          tags: { connect: [{ name: 'howto' }] },
        },
        include: { tags: true, author: { select: { email: true } } },
      });
      expect(reply.status).toBe(201);
      expect(reply.data).toEqual(
        await t.db.prisma.post.findUnique({
          where: { id: reply.data.id },
          include: { tags: true, author: { select: { email: true } } },
        }),
      );
    });

    it('createMany answers 201 with the count', async () => {
      const reply = await callRpc(t, 'post', 'tag/createMany', { data: [{ name: 'many-1' }, { name: 'many-2' }] });
      expect(reply.status).toBe(201);
      expect(reply.body).toEqual({ data: { count: 2 } });
      expect(await t.db.prisma.tag.count({ where: { name: { startsWith: 'many-' } } })).toBe(2);
    });

    const returning = itOn(
      provider,
      ['sqlite', 'postgresql'],
      'MySQL has no RETURNING clause; test/e2e/database-differences checks its 400',
    );

    returning('createManyAndReturn answers 201 with the records', async () => {
      const reply = await callRpc(t, 'post', 'tag/createManyAndReturn', {
        data: [{ name: 'ret-1' }, { name: 'ret-2' }],
        select: { id: true, name: true },
      });
      expect(reply.status).toBe(201);
      expect(reply.data).toEqual(
        await t.db.prisma.tag.findMany({
          where: { name: { startsWith: 'ret-' } },
          select: { id: true, name: true },
          orderBy: { id: 'asc' },
        }),
      );
    });

    it('upsert creates, then updates', async () => {
      const args = {
        where: { email: 'carol@example.com' },
        create: { email: 'carol@example.com', name: 'Carol' },
        update: { name: 'Caroline' },
      };
      const created = await callRpc(t, 'post', 'user/upsert', args);
      expect(created.status).toBe(200);
      expect(created.data).toEqual(await t.db.prisma.user.findUnique({ where: { email: 'carol@example.com' } }));
      const updated = await callRpc(t, 'post', 'user/upsert', args);
      expect(updated.data).toMatchObject({ id: created.data.id, name: 'Caroline' });
    });

    it.each(['patch', 'put'] as const)('update with %s', async (method) => {
      const reply = await callRpc(t, method, 'post/update', {
        where: { id: 4 },
        data: { title: `Updated by ${method}`, views: { increment: 5n }, price: new Decimal('0.5') },
        select: { id: true, title: true, views: true, price: true },
      });
      expect(reply.status).toBe(200);
      expect(reply.data).toEqual(
        await t.db.prisma.post.findUnique({
          where: { id: 4 },
          select: { id: true, title: true, views: true, price: true },
        }),
      );
      expect(reply.data.title).toBe(`Updated by ${method}`);
    });

    it.each(['patch', 'put'] as const)('updateMany with %s', async (method) => {
      const reply = await callRpc(t, method, 'post/updateMany', {
        where: { published: false, authorId: bob.id },
        data: { rating: 4.5 },
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        data: { count: await t.db.prisma.post.count({ where: { published: false, authorId: bob.id, rating: 4.5 } }) },
      });
    });

    returning('updateManyAndReturn answers with the updated records', async () => {
      const reply = await callRpc(t, 'patch', 'comment/updateManyAndReturn', {
        where: { body: { startsWith: 'On post 1' } },
        data: { body: 'Edited' },
      });
      expect(reply.status).toBe(200);
      expect(reply.data).toEqual(await t.db.prisma.comment.findMany({ where: { body: 'Edited' } }));
      expect(reply.data).toHaveLength(1);
    });

    it('delete with q answers with the deleted record', async () => {
      const comment = await t.db.prisma.comment.create({ data: { body: 'To delete', postId: 1 } });
      const reply = await callRpc(t, 'delete', 'comment/delete', { where: { id: comment.id } });
      expect(reply.status).toBe(200);
      expect(reply.data).toEqual(comment);
      expect(await t.db.prisma.comment.findUnique({ where: { id: comment.id } })).toBeNull();
    });

    it('deleteMany with and without q', async () => {
      const some = await callRpc(t, 'delete', 'tag/deleteMany', { where: { name: { startsWith: 'many-' } } });
      expect(some.body).toEqual({ data: { count: 2 } });
      const likes = await t.db.prisma.like.count();
      const all = await callRpc(t, 'delete', 'like/deleteMany');
      expect(all.body).toEqual({ data: { count: likes } });
      expect(await t.db.prisma.like.count()).toBe(0);
    });
  });
});
