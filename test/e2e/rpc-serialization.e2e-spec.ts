import { Decimal } from '@prisma/client/runtime/client';
import { SuperJSON } from 'superjson';

import { callRpc, clientSuperJSON } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

/** A client that registers the two custom types by hand, from the specification alone (Node's Buffer for base64). */
const handWritten = new SuperJSON();
handWritten.registerCustom<Decimal, string>(
  {
    isApplicable: (v): v is Decimal => Decimal.isDecimal(v),
    serialize: (v) => v.toString(),
    deserialize: (v) => new Decimal(v),
  },
  'Decimal',
);
handWritten.registerCustom<Uint8Array, string>(
  {
    isApplicable: (v): v is Uint8Array => v instanceof Uint8Array,
    serialize: (v) => Buffer.from(v).toString('base64'),
    deserialize: (v) => new Uint8Array(Buffer.from(v, 'base64')),
  },
  'Bytes',
);

describe.each(testProviders())('RPC serialization (%s)', (provider) => {
  let authorId: number;

  const t = useTestApp(provider, {
    seed: async () => {
      authorId = (await t.db.prisma.user.create({ data: { email: 'writer@example.com', name: 'Writer' } })).id;
    },
  });

  it('round-trips DateTime, Decimal, BigInt and Json with dates exactly, both ways', async () => {
    const publishedAt = new Date('2023-03-04T05:06:07.891Z');
    const data = {
      title: 'Typed',
      price: new Decimal('12345.6789'),
      views: 2n ** 60n + 1n,
      publishedAt,
      metadata: { at: new Date('2020-01-01T00:00:00.000Z'), label: '2021-02-03T04:05:06.000Z', n: [1, 2] },
      authorId,
    };
    const reply = await callRpc(t, 'post', 'post/create', { data });
    expect(reply.status).toBe(201);
    const stored = await t.db.prisma.post.findUniqueOrThrow({ where: { id: reply.data.id } });
    expect(reply.data).toEqual(stored);
    expect(reply.data.price).toBeInstanceOf(Decimal);
    expect(reply.data.price.toString()).toBe('12345.6789');
    expect(reply.data.views).toBe(2n ** 60n + 1n);
    expect(reply.data.publishedAt).toEqual(publishedAt);
    // Json stores what Prisma makes of a Date (an ISO string) and keeps date-like strings as strings.
    expect(reply.data.metadata).toEqual({
      at: '2020-01-01T00:00:00.000Z',
      label: '2021-02-03T04:05:06.000Z',
      n: [1, 2],
    });
    // The wire forms of the specification.
    expect(reply.body.data).toMatchObject({
      price: '12345.6789',
      views: '1152921504606846977',
      publishedAt: '2023-03-04T05:06:07.891Z',
    });
    expect(reply.body.meta.serialization.values).toMatchObject({
      price: [['custom', 'Decimal']],
      views: ['bigint'],
      publishedAt: ['Date'],
      createdAt: ['Date'],
    });
    expect(reply.body.meta.serialization.values).not.toHaveProperty('metadata.at');
  });

  it('round-trips Bytes as a base64 custom value, both ways', async () => {
    const avatar = new Uint8Array([0, 1, 2, 253, 254, 255]);
    const reply = await callRpc(t, 'post', 'profile/create', {
      data: { userId: authorId, avatar, settings: { theme: 'dark' } },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data.avatar).toBe('AAEC/f7/');
    expect(reply.body.meta.serialization.values.avatar).toEqual([['custom', 'Bytes']]);
    expect(reply.data.avatar).toEqual(avatar);
    const found = await callRpc(t, 'get', 'profile/findFirst', { where: { avatar: { equals: avatar } } });
    expect(found.data).toEqual(await t.db.prisma.profile.findFirst({ where: { userId: authorId } }));
  });

  it('answers plain JSON, without meta, when no type needs restoring', async () => {
    const reply = await callRpc(t, 'get', 'user/findMany', { select: { id: true, name: true } });
    expect(reply.body).toEqual({ data: [{ id: authorId, name: 'Writer' }] });
  });

  it('accepts plain JSON without meta: ISO dates, decimal and bigint strings', async () => {
    const res = await t
      .http()
      .post('/api/rpc/post/create')
      .send({
        data: { title: 'Plain', price: '0.10', views: '42', publishedAt: '2022-12-31T23:59:59.999Z', authorId },
        select: { price: true, views: true, publishedAt: true },
      })
      .expect(201);
    expect(res.body).toEqual({
      data: { price: '0.1', views: '42', publishedAt: '2022-12-31T23:59:59.999Z' },
      meta: {
        serialization: { values: { price: [['custom', 'Decimal']], views: ['bigint'], publishedAt: ['Date'] }, v: 1 },
      },
    });
    const filtered = await t
      .http()
      .get('/api/rpc/post/count')
      .query({ q: JSON.stringify({ where: { publishedAt: { lt: '2023-01-01T00:00:00.000Z' }, price: { lt: '1' } } }) })
      .expect(200);
    expect(filtered.body).toEqual({ data: 1 });
  });

  it('works with a client that registers the custom types from the specification', async () => {
    const { json, meta } = handWritten.serialize({
      where: { price: { gte: new Decimal('12345.6789') } },
      select: { price: true, views: true },
    });
    const res = await t
      .http()
      .get('/api/rpc/post/findMany')
      .query({ q: JSON.stringify(json), meta: JSON.stringify({ serialization: meta }) })
      .expect(200);
    const data = handWritten.deserialize<Array<{ price: Decimal; views: bigint }>>({
      json: res.body.data,
      meta: res.body.meta.serialization,
    });
    expect(data).toEqual([{ price: new Decimal('12345.6789'), views: 2n ** 60n + 1n }]);
  });

  it('writes model reads with include, select and omit trees byte for byte as superjson writes the rows', async () => {
    const { prisma } = t.db;
    const { id: userId } = await prisma.user.create({
      data: {
        email: 'trees@example.com',
        name: 'Trees',
        profile: { create: { avatar: new Uint8Array([1, 2]), settings: { a: [1, { b: null }] } } },
      },
    });
    for (const views of [7n, 7n])
      await prisma.post.create({
        data: {
          title: 'Tree',
          price: new Decimal('1.5'),
          views,
          metadata: { 'k.0': ['v'] },
          publishedAt: new Date('2024-01-02T03:04:05.678Z'),
          authorId: userId,
          tags: { create: [{ name: `tree-${crypto.randomUUID()}` }] },
          comments: { create: [{ body: 'c', authorId: userId }, { body: 'd' }] },
        },
      });
    const reads = [
      {
        include: {
          author: { include: { profile: true } },
          tags: true,
          comments: { include: { author: true }, orderBy: { body: 'asc' } },
          _count: true,
        },
      },
      {
        select: {
          views: true,
          author: { select: { createdAt: true, id: true } },
          id: true,
          _count: { select: { tags: true } },
        },
      },
      { omit: { content: true, metadata: true }, include: { tags: { select: { name: true } } } },
    ] as const;
    for (const read of reads) {
      const args = { ...read, where: { authorId: userId }, orderBy: { id: 'asc' } } as const;
      const reply = await callRpc(t, 'get', 'post/findMany', args);
      const { json, meta } = clientSuperJSON.serialize(await prisma.post.findMany(args as never));
      expect(JSON.stringify(reply.body)).toBe(JSON.stringify({ data: json, meta: { serialization: meta } }));
    }
  });
});
