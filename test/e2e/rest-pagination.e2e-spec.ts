import fc from 'fast-check';

import { expectJsonApiError } from '../support/json-api-expect.js';
import { createTestApp, TEST_ENDPOINT as E, type TestApp, useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

type Doc = {
  data: { id: number | string; meta?: { page: { cursor: string } } }[];
  links: Record<string, string | null>;
  meta: Record<string, unknown>;
};
type PostRow = {
  id: number;
  title: string;
  rating: number;
  content: string | null;
  publishedAt: Date | null;
  published: boolean;
  authorId: number;
};

const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 4242);

/** The 26 posts: ratings repeat (ties), every third has no content and every fourth no publishedAt (nulls). */
function postData(index: number, authorId: number) {
  return {
    title: `Post ${String.fromCharCode(97 + ((index * 7) % 26))}`,
    rating: index % 4,
    content: index % 3 === 0 ? null : `text ${index % 5}`,
    publishedAt: index % 4 === 0 ? null : new Date(Date.UTC(2024, 0, 1 + (index % 6))),
    published: index % 2 === 0,
    authorId,
  };
}

/** Sort keys as cursor pagination orders them: nulls greater than any value, the id last. */
function compareBy(keys: string[]): (a: PostRow, b: PostRow) => number {
  return (a, b) => {
    for (const key of [...keys, 'id']) {
      const descending = key.startsWith('-');
      const name = (descending ? key.slice(1) : key) as keyof PostRow;
      const [x, y] = [a[name], b[name]];
      const order =
        x === y
          ? 0
          : x === null
            ? 1
            : y === null
              ? -1
              : x instanceof Date
                ? x.getTime() - (y as Date).getTime()
                : x < y!
                  ? -1
                  : x > y!
                    ? 1
                    : 0;
      if (order !== 0) return descending ? -order : order;
    }
    return 0;
  };
}

describe.each(testProviders())('REST cursor pagination and count strategies (%s)', (provider) => {
  let posts: PostRow[];
  let alice: number;
  const t = useTestApp(provider, {
    seed: async () => {
      const users = await Promise.all(
        ['alice', 'bob'].map((name) => t.db.prisma.user.create({ data: { email: `${name}@example.com`, name } })),
      );
      alice = users[0]!.id;
      for (let index = 0; index < 26; index++)
        await t.db.prisma.post.create({ data: postData(index, users[index % 3 === 0 ? 1 : 0]!.id) });
      posts = (await t.db.prisma.post.findMany()) as PostRow[];
      await t.db.prisma.like.createMany({
        data: posts.slice(0, 5).flatMap((post) => users.map((user) => ({ userId: user.id, postId: post.id }))),
      });
    },
  });

  const get = (url: string, prefer?: string) => {
    const req = t.http().get(url.startsWith(E) ? url.slice(E.length - '/api/rest'.length) : `/api/rest${url}`);
    return prefer ? req.set('Prefer', prefer) : req;
  };

  /** Follows `rel` links from `url` to the end; every page within `size`; the ids in reading order, plus the last page. */
  async function walk(
    url: string,
    rel: 'next' | 'prev',
    size: number,
  ): Promise<{ ids: (number | string)[]; last: Doc }> {
    const ids: (number | string)[] = [];
    let body: Doc = (await get(url).expect(200)).body;
    for (let pages = 0; ; pages++) {
      expect(pages).toBeLessThan(100);
      expect(body.data.length).toBeLessThanOrEqual(size);
      const pageIds = body.data.map((item) => item.id);
      ids.push(...(rel === 'next' ? pageIds : pageIds.reverse()));
      const link = body.links[rel];
      if (!link) return { ids, last: body };
      body = (await get(link).expect(200)).body;
    }
  }

  describe('walking every page', () => {
    const cases: [string, string, (post: PostRow) => boolean][] = [
      ['the default order', '', () => true],
      ['a descending key with ties', 'sort=-rating,title', () => true],
      ['a nullable key ascending', 'sort=publishedAt', () => true],
      ['a nullable key descending, then another', 'sort=-publishedAt,rating', () => true],
      ['a nullable string with a filter', 'sort=content&filter[published]=true', (post) => post.published],
    ];
    it.each(cases)('forwards and backwards gives every row once, in order: %s', async (_name, search, keep) => {
      const sort = new URLSearchParams(search).get('sort');
      const expected = posts
        .filter(keep)
        .sort(compareBy(sort ? sort.split(',') : []))
        .map((post) => post.id);
      const forward = await walk(`/post?page[size]=4&${search}`, 'next', 4);
      expect(forward.ids).toEqual(expected);
      const lastPrev = forward.last.links.prev;
      const backward = await walk(lastPrev!, 'prev', 4);
      const lastPage = forward.last.data.map((item) => item.id);
      expect([...backward.ids.reverse(), ...lastPage]).toEqual(expected);
    });

    it('composes with include and sparse fieldsets, and gives each item its cursor', async () => {
      const res = await get(
        '/post?page[size]=3&sort=-rating&include=author&fields[post]=title,author&fields[user]=name',
      ).expect(200);
      expect(res.body.data).toHaveLength(3);
      expect(Object.keys(res.body.data[0].attributes)).toEqual(['title']);
      expect(res.body.included.map((user: { type: string }) => user.type)).toContain('user');
      const second = res.body.data[1].meta.page.cursor;
      const resumed = await get(`/post?page[size]=3&sort=-rating&include=author&page[after]=${second}`).expect(200);
      expect(resumed.body.data[0].id).toBe(res.body.data[2].id);
      expect(res.body.links).toMatchObject({
        self: `${E}/post?page[size]=3&sort=-rating&include=author&fields[post]=title,author&fields[user]=name`,
        prev: null,
      });
      expect(res.body.links).not.toHaveProperty('last');
      expect(res.body.meta).toEqual({ count: 'none' });
    });

    it('walks compound ids, to-many related collections and relationship linkage', async () => {
      const likes = await walk('/like?page[size]=3', 'next', 3);
      expect(likes.ids).toHaveLength(10);
      expect(new Set(likes.ids).size).toBe(10);
      const alicePosts = posts
        .filter((post) => post.authorId === alice)
        .sort(compareBy(['-rating']))
        .map((post) => post.id);
      expect((await walk(`/user/${alice}/posts?page[size]=4&sort=-rating`, 'next', 4)).ids).toEqual(alicePosts);
      const byTitle = posts
        .filter((post) => post.authorId === alice)
        .sort(compareBy(['title']))
        .map((post) => String(post.id));
      const linkage = await walk(`/user/${alice}/relationships/posts?page[size]=5&sort=title`, 'next', 5);
      expect(linkage.ids.map(String)).toEqual(byTitle);
    });

    it('reads a deep page with the statements of the second, skipping no rows', async () => {
      const statements = async (url: string) => {
        t.db.queries.length = 0;
        t.db.queryParams.length = 0;
        const res = await get(url).expect(200);
        return { res, queries: [...t.db.queries], params: [...t.db.queryParams] };
      };
      const first = await statements('/post?page[size]=2&include=author,comments');
      const second = await statements(first.res.body.links.next);
      let next = second.res.body.links.next;
      for (let hop = 0; hop < 5; hop++) next = (await get(next).expect(200)).body.links.next;
      const deep = await statements(next);
      expect(deep.res.body.data).toHaveLength(2);
      // The same statements (relations load concurrently on PostgreSQL, so in any order).
      expect([...deep.queries].sort()).toEqual([...second.queries].sort());
      expect(deep.queries).toHaveLength(first.queries.length);
      // Prisma always writes `LIMIT ? OFFSET ?`; a cursor page binds its OFFSET to 0 and seeks with WHERE.
      for (const page of [first, second, deep]) {
        expect(page.queries[0]).toMatch(/ LIMIT \S+ OFFSET \S+$/);
        expect(Number(JSON.parse(page.params[0]!).at(-1))).toBe(0);
      }
    });
  });

  describe('refused parameters and cursors', () => {
    it.each([
      ['/post?page[offset]=2&page[size]=2', 'page[offset]'],
      ['/post?page[limit]=2&page[after]=x', 'page[limit]'],
      ['/post?page[after]=x&page[before]=y', 'page[before]'],
      ['/post?page[size]=0', 'page[size]'],
      ['/post?page[size]=101', 'page[size]'],
      ['/post?page[size]=2&sort=author.name', 'sort'],
      ['/post?page[after]=', 'page[after]'],
      ['/post?page[after]=not-a-cursor', 'page[after]'],
    ])('%s is 400 naming %s', async (url, parameter) => {
      expectJsonApiError(await get(url), 400, 'invalid-query-parameter', { parameter });
    });

    it('refuses a cursor of another sort, another type, or tampered with', async () => {
      const byTitle = (await get('/post?page[size]=2&sort=title').expect(200)).body.links.next as string;
      const cursor = new URL(byTitle).searchParams.get('page[after]')!;
      expectJsonApiError(
        await get(`/post?page[size]=2&sort=-title&page[after]=${cursor}`),
        400,
        'invalid-query-parameter',
        { parameter: 'page[after]' },
      );
      expectJsonApiError(await get(`/user?page[before]=${cursor}`), 400, 'invalid-query-parameter', {
        parameter: 'page[before]',
      });
      const body = JSON.parse(Buffer.from(cursor, 'base64url').toString());
      for (const values of [[1, 2], ['x'], [null, 1], ['x', 'not-an-int'], ['x', 2 ** 40]]) {
        const forged = Buffer.from(JSON.stringify({ ...body, v: values })).toString('base64url');
        expectJsonApiError(await get(`/post?sort=title&page[after]=${forged}`), 400, 'invalid-query-parameter', {
          parameter: 'page[after]',
        });
      }
      const moved = Buffer.from(JSON.stringify({ ...body, v: ['Post m', posts[3]!.id] })).toString('base64url');
      expect((await get(`/post?sort=title&page[after]=${moved}`).expect(200)).body.data.length).toBeGreaterThan(0);
    });

    it('answers hostile cursors with 400, never 5xx (generated)', async () => {
      const text = fc.oneof(
        fc.string(),
        fc.base64String().map((s) => s.replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '')),
        fc.json().map((json) => Buffer.from(json).toString('base64url')),
      );
      await fc.assert(
        fc.asyncProperty(
          text,
          fc.constantFrom('after', 'before'),
          fc.constantFrom('', '&sort=-publishedAt', '&sort=title'),
          async (cursor, side, sort) => {
            const res = await get(`/post?page[${side}]=${encodeURIComponent(cursor)}${sort}`);
            expect([200, 400]).toContain(res.status);
            if (res.status === 400) expect(res.body.errors[0].source).toEqual({ parameter: `page[${side}]` });
          },
        ),
        { numRuns: FUZZ_RUNS, seed: FUZZ_SEED },
      );
    });
  });

  describe('count strategies', () => {
    it('exact by default: meta.total and a last link, as before', async () => {
      const res = await get('/post?page[limit]=10').expect(200);
      expect(res.body.meta).toEqual({ total: 26 });
      expect(res.body.links.last).toBe(`${E}/post?page%5Boffset%5D=20&page%5Blimit%5D=10`);
      expect(res.headers.vary).toMatch(/Prefer/);
      expect(res.headers['preference-applied']).toBeUndefined();
    });

    it('none omits meta.total and the last link, runs no count, and still knows the next page', async () => {
      t.db.queries.length = 0;
      const res = await get('/post?page[limit]=10&page[offset]=10', 'count=none').expect(200);
      expect(t.db.queries.filter((sql) => /COUNT/i.test(sql))).toEqual([]);
      expect(res.body.meta).toEqual({ count: 'none' });
      expect(res.headers['preference-applied']).toBe('count=none');
      expect(res.body.data).toHaveLength(10);
      expect(res.body.links).not.toHaveProperty('last');
      expect(res.body.links.next).toBe(`${E}/post?page%5Boffset%5D=20&page%5Blimit%5D=10`);
      const end = await get('/post?page[limit]=10&page[offset]=20', 'count=none').expect(200);
      expect(end.body.data).toHaveLength(6);
      expect(end.body.links.next).toBeNull();
      const exact = await get('/post?page[limit]=13&page[offset]=13', 'count=none').expect(200);
      expect(exact.body.links.next).toBeNull();
    });

    it('estimated uses the planner on an unfiltered PostgreSQL table, and is exact elsewhere', async () => {
      if (provider === 'postgresql') await t.db.prisma.$executeRawUnsafe('ANALYZE "Post"');
      const res = await get('/post?page[limit]=5', 'count=estimated').expect(200);
      if (provider === 'postgresql') {
        expect(res.body.meta).toEqual({ total: 26, count: 'estimated' });
        expect(res.headers['preference-applied']).toBe('count=estimated');
        expect(res.body.links).not.toHaveProperty('last');
      } else {
        expect(res.body.meta).toEqual({ total: 26, count: 'exact' });
        expect(res.headers['preference-applied']).toBeUndefined();
      }
      const filtered = await get('/post?page[limit]=5&filter[published]=true', 'count=estimated').expect(200);
      expect(filtered.body.meta).toEqual({ total: 13, count: 'exact' });
      const related = await get(`/user/${alice}/posts?page[limit]=2`, 'count=estimated').expect(200);
      expect(related.body.meta).toEqual({
        total: posts.filter((post) => post.authorId === alice).length,
        count: 'exact',
      });
    });

    it('counts a cursor page only when asked, over the whole filtered collection', async () => {
      const res = await get('/post?page[size]=5&filter[published]=true', 'count=exact').expect(200);
      expect(res.body.meta).toEqual({ total: 13 });
      expect(res.headers['preference-applied']).toBe('count=exact');
      const deeper = await get(res.body.links.next, 'count=exact').expect(200);
      expect(deeper.body.meta).toEqual({ total: 13 });
    });

    it('ignores preferences it does not know (RFC 7240)', async () => {
      const res = await get('/post?page[limit]=5', 'count=planned, return=minimal').expect(200);
      expect(res.body.meta).toEqual({ total: 26 });
      expect(res.headers['preference-applied']).toBeUndefined();
    });
  });

  describe('the count option', () => {
    let scoped: TestApp;
    afterEach(() => scoped?.close());

    it('sets the default strategy; a Prefer header still chooses', async () => {
      scoped = await createTestApp(provider, { options: { count: 'none' } });
      await scoped.db.prisma.user.create({ data: { email: 'x@example.com', name: 'x' } });
      expect((await scoped.http().get('/api/rest/user').expect(200)).body.meta).toEqual({ count: 'none' });
      expect((await scoped.http().get('/api/rest/user').set('Prefer', 'count=exact').expect(200)).body.meta).toEqual({
        total: 1,
      });
    });

    it('never estimates over a per-request client, which may hide rows', async () => {
      scoped = await createTestApp(provider, {});
      const app = await createTestApp(provider, { options: { prisma: undefined, getPrisma: () => scoped.db.prisma } });
      try {
        await scoped.db.prisma.user.create({ data: { email: 'y@example.com', name: 'y' } });
        if (provider === 'postgresql') await scoped.db.prisma.$executeRawUnsafe('ANALYZE users');
        const res = await app.http().get('/api/rest/user').set('Prefer', 'count=estimated').expect(200);
        expect(res.body.meta).toEqual({ total: 1, count: 'exact' });
      } finally {
        await app.close();
      }
    });
  });
});
