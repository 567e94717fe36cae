import { itOn } from '../support/it-on.js';
import { callRpc, rpcQuery } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

/** `{"key":{"key":...leaf}}`, `levels` objects deep, as text (JSON.stringify would overflow the stack first). */
function nest(key: string, levels: number, leaf: string): string {
  return `${`{"${key}":`.repeat(levels)}${leaf}${'}'.repeat(levels)}`;
}

describe.each(testProviders())('RPC argument validation (%s)', (provider) => {
  const titles = ['50% off', '500 off', 'snake_case', 'snakeXcase', 'a\\b', 'ab', 'x\\'];

  const t = useTestApp(provider, {
    seed: async () => {
      const author = await t.db.prisma.user.create({ data: { email: 'v@example.com', name: 'V' } });
      for (const title of titles) await t.db.prisma.post.create({ data: { title, authorId: author.id } });
      for (const name of ['one', 'two', 'three']) await t.db.prisma.tag.create({ data: { name } });
    },
  });

  const get = (path: string, q: string) => t.http().get(`/api/rpc/${path}`).query({ q });
  const tagNames = async () => (await t.db.prisma.tag.findMany({ orderBy: { id: 'asc' } })).map((tag) => tag.name);

  it('refuses a __proto__ key instead of dropping it: deleteMany deletes nothing', async () => {
    const before = await tagNames();
    const res = await t
      .http()
      .delete('/api/rpc/tag/deleteMany')
      .query({ q: '{"__proto__":{"where":{"id":9}}}' })
      .expect(400);
    expect(res.body.error.message).toBe('Invalid argument at "/__proto__": "__proto__" is not allowed as a key.');
    await t.http().delete('/api/rpc/tag/deleteMany').query({ q: '{"where":{"constructor":{"id":1}}}' }).expect(400);
    await t.http().patch('/api/rpc/tag/updateMany').send(JSON.parse('{"data":{"__proto__":{"name":"x"}}}')).expect(400);
    expect(await tagNames()).toEqual(before);
  });

  it.each([
    ['take 1.5', { take: 1.5 }],
    ['skip -1', { skip: -1 }],
    ['a fractional id', { where: { id: 1.5 } }],
    ['an Int beyond 32 bits', { where: { id: 2 ** 31 } }],
    ['a year beyond 9999', { where: { createdAt: { gt: '99999-01-01' } } }],
    ['an invalid date', { where: { createdAt: '2024-02-31T99:00:00Z' } }],
    ['an unknown key', { where: { title: { like: '%' } } }],
    ['a BigInt beyond 64 bits', { where: { views: { gt: '99999999999999999999' } } }],
    ['an unknown enum value', { where: { status: 'GONE' } }],
  ])('answers 400 for %s', async (_name, args) => {
    const res = await get('post/findMany', JSON.stringify(args)).expect(400);
    expect(res.body.error).toEqual({ message: expect.any(String), errorCode: 'invalid-argument' });
    expect(res.body.error.message).toMatch(/^Invalid argument at "\//);
  });

  it('answers 400 for a year beyond 9999 sent as a superjson Date', async () => {
    const reply = await callRpc(t, 'get', 'post/findMany', {
      where: { createdAt: { gt: new Date('+099999-01-01T00:00:00Z') } },
    });
    expect(reply.status).toBe(400);
  });

  it('refuses superjson types the wire format does not need', async () => {
    for (const annotation of ['regexp', 'set', 'map', 'Error', 'number', ['class', 'Post'], ['symbol', 'x'], 'URL']) {
      const meta = JSON.stringify({ serialization: { values: { 'where.title': [annotation] } } });
      const res = await t
        .http()
        .get('/api/rpc/post/findMany')
        .query({ q: '{"where":{"title":"x"}}', meta })
        .expect(400);
      expect(res.body.error.message).toMatch(/^Query parameter "meta" names the type/);
    }
  });

  it('answers deep nesting and deep includes with a 400 at once, not a 500 or a hang', async () => {
    for (const levels of [150, 330]) {
      const started = Date.now();
      const res = await get('post/findMany', `{"where":${nest('AND', levels, '{"id":1}')}}`).expect(400);
      expect(res.body.error.message).toMatch(/maxArgumentDepth/);
      expect(Date.now() - started).toBeLessThan(2000);
    }
    const deepBody = `{"where":${nest('AND', 5000, '{"id":1}')},"data":{"name":"x"}}`;
    await t.http().patch('/api/rpc/tag/updateMany').set('content-type', 'application/json').send(deepBody).expect(400);
    expect(await tagNames()).toEqual(['one', 'two', 'three']);
    const deepInclude = {
      include: {
        author: { include: { posts: { include: { author: { include: { posts: { include: { author: true } } } } } } } },
      },
    };
    const started = Date.now();
    const res = await get('post/findMany', JSON.stringify(deepInclude)).expect(400);
    expect(res.body.error.message).toMatch(/maxSelectionDepth/);
    await get('post/findMany', nest('include', 300, 'true')).expect(400);
    expect(Date.now() - started).toBeLessThan(2000);
    const wide = { where: { id: { in: Array.from({ length: 5000 }, (_, i) => i) } }, data: { name: 'x' } };
    expect((await t.http().patch('/api/rpc/tag/updateMany').send(wide).expect(400)).body.error.message).toMatch(
      /maxArgumentNodes/,
    );
  });

  it('accepts valid arguments of every family', async () => {
    const args = {
      where: {
        OR: [{ title: { startsWith: 's' } }, { author: { is: { name: 'V' } } }],
        createdAt: { lt: new Date('9999-01-01') },
      },
      include: { author: { select: { name: true } }, _count: { select: { comments: true } } },
      orderBy: [{ title: 'asc' }, { author: { email: 'desc' } }],
      take: 3,
      skip: 1,
    };
    const reply = await callRpc(t, 'get', 'post/findMany', args);
    expect(reply.status).toBe(200);
    expect(reply.data).toEqual(await t.db.prisma.post.findMany(args as never));
    const grouped = await callRpc(t, 'get', 'post/groupBy', {
      by: ['published'],
      _count: { _all: true },
      having: { rating: { _avg: { gte: 0 } } },
    });
    expect(grouped.data).toEqual([{ published: false, _count: { _all: titles.length } }]);
  });

  describe('contains/startsWith/endsWith match their text literally', () => {
    const matching = async (filter: Record<string, string>) => {
      const reply = await callRpc(t, 'get', 'post/findMany', {
        where: { title: filter },
        select: { title: true },
        orderBy: { title: 'asc' },
      });
      return {
        status: reply.status,
        titles: reply.status === 200 ? reply.data.map((p: { title: string }) => p.title) : reply.body.error.message,
      };
    };

    it('matches a backslash literally on every database, a trailing one included', async () => {
      expect(await matching({ contains: 'a\\b' })).toEqual({ status: 200, titles: ['a\\b'] });
      expect(await matching({ endsWith: 'x\\' })).toEqual({ status: 200, titles: ['x\\'] });
      expect(await matching({ endsWith: '\\' })).toEqual({ status: 200, titles: ['x\\'] });
    });

    itOn(
      provider,
      ['sqlite'],
      'PostgreSQL and MySQL escape them',
    )(
      'refuses % and _ with a 400 saying why, since SQLite has no escape character (and Prisma sends no ESCAPE)',
      async () => {
        t.db.queries.length = 0;
        await matching({ contains: 'snake' });
        expect(t.db.queries.find((sql) => /LIKE/i.test(sql))).not.toMatch(/ESCAPE/i);
        for (const filter of [{ contains: '50%' }, { startsWith: 'snake_' }, { endsWith: '_case' }] as Record<
          string,
          string
        >[]) {
          const answer = await matching(filter);
          expect(answer.status).toBe(400);
          expect(answer.titles).toMatch(/cannot be matched literally on sqlite/);
        }
      },
    );

    itOn(
      provider,
      ['postgresql', 'mysql'],
      'SQLite LIKE has no escape character',
    )('escapes % and _ so that they match themselves', async () => {
      expect(await matching({ contains: '50%' })).toEqual({ status: 200, titles: ['50% off'] });
      expect(await matching({ contains: 'snake_case' })).toEqual({ status: 200, titles: ['snake_case'] });
      expect(await matching({ startsWith: '5', endsWith: '%' })).toEqual({ status: 200, titles: [] });
      // MySQL's default collations are case-insensitive already, and it has no `mode`.
      const mode = provider === 'postgresql' ? { mode: 'insensitive' } : {};
      const insensitive = await callRpc(t, 'get', 'post/count', { where: { title: { contains: 'SNAKE_', ...mode } } });
      expect(insensitive.data).toBe(1);
    });

    it('treats Json string filters the same way', async () => {
      const path = provider === 'postgresql' ? ['label'] : '$.label';
      const post = await t.db.prisma.post.findFirstOrThrow({ where: { title: 'ab' } });
      await t.db.prisma.post.update({ where: { id: post.id }, data: { metadata: { label: '50x' } } });
      const reply = await callRpc(t, 'get', 'post/count', { where: { metadata: { path, string_contains: '50%' } } });
      if (provider === 'sqlite') expect(reply.status).toBe(400);
      else expect(reply.data).toBe(0);
      expect(
        (await callRpc(t, 'get', 'post/count', { where: { metadata: { path, string_contains: '50' } } })).data,
      ).toBe(1);
    });

    it('escapes on REST too', async () => {
      const res = await t.http().get('/api/rest/post').query({ 'filter[title$endsWith]': 'x\\' });
      expect(res.status).toBe(200);
      expect(res.body.data.map((r: { attributes: { title: string } }) => r.attributes.title)).toEqual(['x\\']);
      const wildcard = await t.http().get('/api/rest/post').query({ 'filter[title$contains]': '50%' });
      if (provider === 'sqlite') expect(wildcard.status).toBe(400);
      else
        expect(wildcard.body.data.map((r: { attributes: { title: string } }) => r.attributes.title)).toEqual([
          '50% off',
        ]);
    });
  });

  it('keeps q for query-string arguments as the error source', async () => {
    const res = await t
      .http()
      .get('/api/rpc/post/findMany')
      .query(rpcQuery({ where: { nope: 1 } }))
      .expect(400);
    expect(res.body).toEqual({
      error: { errorCode: 'invalid-argument', message: 'Invalid argument at "/where/nope": unknown key "nope".' },
    });
  });
});
