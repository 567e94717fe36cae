import { itOn } from '../support/it-on.js';
import { expectJsonApiError } from '../support/json-api-expect.js';
import { type BlogFixture, seedBlog } from '../support/rest-fixtures.js';
import { TEST_ENDPOINT as E, useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const ids = (res: { body: { data: { id: unknown }[] } }) => res.body.data.map((resource) => resource.id);

describe.each(testProviders())('REST reads (%s)', (provider) => {
  let f: BlogFixture;
  const t = useTestApp(provider, {
    seed: async ({ db }) => {
      f = await seedBlog(db);
    },
  });

  const get = (url: string) => t.http().get(`/api/rest${url}`);

  describe('list and fetch', () => {
    it('lists resources as a collection document with meta.total and pagination links', async () => {
      const res = await get('/post').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
      expect(res.body.jsonapi).toEqual({ version: '1.1' });
      expect(res.body.meta).toEqual({ total: 3 });
      expect(ids(res)).toEqual([f.hello, f.draft, f.percent]);
      expect(res.body.links).toEqual({
        self: `${E}/post`,
        first: `${E}/post?page%5Boffset%5D=0&page%5Blimit%5D=100`,
        last: `${E}/post?page%5Boffset%5D=0&page%5Blimit%5D=100`,
        prev: null,
        next: null,
      });
      expect(res.body).not.toHaveProperty('included');
    });

    it('renders a resource object with typed attributes, to-one linkage and to-many links only', async () => {
      const res = await get(`/post/${f.hello}`).expect(200);
      expect(res.body.links).toEqual({ self: `${E}/post/${f.hello}` });
      const post = res.body.data;
      expect(post).toMatchObject({ type: 'post', id: f.hello, links: { self: `${E}/post/${f.hello}` } });
      expect(post.attributes).toMatchObject({
        title: 'Hello World',
        status: 'PUBLISHED',
        published: true,
        rating: 4.5,
        price: '9.99',
        views: '12345678901234',
        metadata: { featured: true },
        publishedAt: '2024-01-02T03:04:05.000Z',
        authorId: f.alice,
        content: 'The first post',
      });
      expect(post.attributes.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(post.attributes).not.toHaveProperty('id');
      expect(post.relationships.author).toEqual({
        data: { type: 'user', id: f.alice },
        links: {
          self: `${E}/post/${f.hello}/relationships/author/${f.alice}`,
          related: `${E}/post/${f.hello}/author/${f.alice}`,
        },
      });
      expect(post.relationships.comments).toEqual({
        links: { self: `${E}/post/${f.hello}/relationships/comments`, related: `${E}/post/${f.hello}/comments` },
      });
    });

    it('renders Bytes as Base64 and Json as JSON; a to-one on the referenced side has linkage too', async () => {
      const profile = (await get(`/profile/${f.profile}`).expect(200)).body.data;
      expect(profile.id).toBe(f.profile);
      expect(profile.attributes).toEqual({
        bio: 'Writes things',
        avatar: 'AQID/w==',
        settings: { theme: 'dark', sizes: [1, 2] },
        userId: f.alice,
      });
      const user = (await get(`/user/${f.alice}`).expect(200)).body.data;
      expect(user.relationships.profile.data).toEqual({ type: 'profile', id: f.profile });
      const carol = (await get(`/user/${f.carol}`).expect(200)).body.data;
      expect(carol.relationships.profile).toEqual({
        data: null,
        links: { self: `${E}/user/${f.carol}/relationships/profile`, related: `${E}/user/${f.carol}/profile` },
      });
    });

    it('uses compound ids joined by the divider', async () => {
      const res = await get(`/like/${f.bob}_${f.hello}`).expect(200);
      expect(res.body.data).toMatchObject({
        type: 'like',
        id: `${f.bob}_${f.hello}`,
        attributes: { userId: f.bob, postId: f.hello },
      });
      expect(res.body.data.relationships.user.data).toEqual({ type: 'user', id: f.bob });
      const list = await get(`/post/${f.hello}/likes`).expect(200);
      expect(ids(list)).toEqual([`${f.bob}_${f.hello}`, `${f.carol}_${f.hello}`]);
    });

    it('answers 404 for an unknown type, a missing id and a malformed id', async () => {
      expectJsonApiError(await get('/nothing'), 404, 'unknown-type');
      expectJsonApiError(await get('/post/999999'), 404, 'not-found');
      expectJsonApiError(await get('/post/abc'), 404, 'not-found');
      expectJsonApiError(await get('/post/99999999999999999999'), 404, 'not-found');
      expectJsonApiError(await get('/like/1'), 404, 'not-found');
      expectJsonApiError(await get('/like/1_x'), 404, 'not-found');
      expectJsonApiError(await get('/__proto__'), 404, 'unknown-type');
    });

    it('refuses filter, sort and page on a single resource', async () => {
      expectJsonApiError(await get(`/post/${f.hello}?sort=title`), 400, 'invalid-query-parameter', {
        parameter: 'sort',
      });
    });
  });

  describe('related resources and relationships', () => {
    it('fetches to-many related resources with meta.total and pagination', async () => {
      const res = await get(`/post/${f.hello}/comments?page[limit]=1`).expect(200);
      expect(res.body.meta).toEqual({ total: 2 });
      expect(ids(res)).toEqual([[f.firstComment, f.reply].sort()[0]]);
      expect(res.body.links).toMatchObject({
        self: `${E}/post/${f.hello}/comments?page[limit]=1`,
        next: `${E}/post/${f.hello}/comments?page%5Boffset%5D=1&page%5Blimit%5D=1`,
        last: `${E}/post/${f.hello}/comments?page%5Boffset%5D=1&page%5Blimit%5D=1`,
      });
    });

    it('filters and sorts related resources', async () => {
      const res = await get(`/user/${f.alice}/posts?filter[published]=true&sort=-title`).expect(200);
      expect(ids(res)).toEqual([f.hello]);
      expect(res.body.meta.total).toBe(1);
    });

    it('fetches a to-one related resource through both link forms', async () => {
      const plain = await get(`/post/${f.hello}/author`).expect(200);
      expect(plain.body.data).toMatchObject({ type: 'user', id: f.alice, attributes: { name: 'Alice' } });
      const withId = await get(`/post/${f.hello}/author/${f.alice}`).expect(200);
      expect(withId.body.data.id).toBe(f.alice);
      expect(withId.body.links.self).toBe(`${E}/post/${f.hello}/author/${f.alice}`);
      expectJsonApiError(await get(`/post/${f.hello}/author/${f.bob}`), 404, 'not-found');
    });

    it('answers an empty to-one with data null on its related and relationship URLs', async () => {
      const related = await get(`/comment/${f.firstComment}/parent`).expect(200);
      expect(related.body.data).toBeNull();
      const linkage = await get(`/comment/${f.firstComment}/relationships/parent`).expect(200);
      expect(linkage.body).toEqual({
        jsonapi: { version: '1.1' },
        data: null,
        links: {
          self: `${E}/comment/${f.firstComment}/relationships/parent`,
          related: `${E}/comment/${f.firstComment}/parent`,
        },
      });
    });

    it('fetches to-one relationship linkage through both link forms', async () => {
      const res = await get(`/post/${f.hello}/relationships/author/${f.alice}`).expect(200);
      expect(res.body).toEqual({
        jsonapi: { version: '1.1' },
        data: { type: 'user', id: f.alice },
        links: {
          self: `${E}/post/${f.hello}/relationships/author/${f.alice}`,
          related: `${E}/post/${f.hello}/author/${f.alice}`,
        },
      });
      expect((await get(`/post/${f.hello}/relationships/author`).expect(200)).body.data).toEqual({
        type: 'user',
        id: f.alice,
      });
      expectJsonApiError(await get(`/post/${f.hello}/relationships/author/${f.bob}`), 404, 'not-found');
    });

    it('fetches paginated to-many linkage with meta.total', async () => {
      const res = await get(`/post/${f.hello}/relationships/tags?page[limit]=1&page[offset]=1`).expect(200);
      expect(res.body.data).toEqual([{ type: 'tag', id: f.tech }]);
      expect(res.body.meta).toEqual({ total: 2 });
      expect(res.body.links).toEqual({
        self: `${E}/post/${f.hello}/relationships/tags?page[limit]=1&page[offset]=1`,
        related: `${E}/post/${f.hello}/tags`,
        first: `${E}/post/${f.hello}/relationships/tags?page%5Boffset%5D=0&page%5Blimit%5D=1`,
        last: `${E}/post/${f.hello}/relationships/tags?page%5Boffset%5D=1&page%5Blimit%5D=1`,
        prev: `${E}/post/${f.hello}/relationships/tags?page%5Boffset%5D=0&page%5Blimit%5D=1`,
        next: null,
      });
    });

    it('follows self-relations both ways', async () => {
      expect(ids(await get(`/user/${f.bob}/following`).expect(200))).toEqual([f.alice]);
      expect(ids(await get(`/user/${f.alice}/followers`).expect(200))).toEqual([f.bob]);
    });

    it('answers 404 for an unknown relationship, a missing parent and an id form of a to-many', async () => {
      expectJsonApiError(await get(`/post/${f.hello}/nothing`), 404, 'unknown-relationship');
      expectJsonApiError(await get(`/post/${f.hello}/relationships/nothing`), 404, 'unknown-relationship');
      expectJsonApiError(await get(`/post/999999/comments`), 404, 'not-found');
      expectJsonApiError(await get(`/post/999999/relationships/author`), 404, 'not-found');
      expectJsonApiError(await get(`/post/${f.hello}/comments/${f.firstComment}`), 404, 'unknown-relationship');
      expectJsonApiError(await get(`/post/${f.hello}/title`), 404, 'unknown-relationship');
    });

    it('refuses include on relationship endpoints', async () => {
      expectJsonApiError(
        await get(`/post/${f.hello}/relationships/tags?include=posts`),
        400,
        'invalid-query-parameter',
        { parameter: 'include' },
      );
    });
  });

  describe('filter', () => {
    const filtered = async (query: string) => ids(await get(`/post?${query}`).expect(200));

    it('matches a plain field by equality, several values with OR, several filters with AND', async () => {
      expect(await filtered('filter[title]=Hello World')).toEqual([f.hello]);
      expect(await filtered(`filter[title]=Hello World,100%25 Prisma`)).toEqual([f.hello, f.percent]);
      expect(await filtered('filter[published]=true&filter[authorId]=' + f.alice)).toEqual([f.hello]);
      expect(await filtered('filter[status]=DRAFT,ARCHIVED')).toEqual([f.draft]);
    });

    it('coerces values to the field type: Float, Decimal, BigInt, DateTime, Json', async () => {
      expect(await filtered('filter[rating]=4.5')).toEqual([f.hello]);
      expect(await filtered('filter[price]=120.50')).toEqual([f.percent]);
      expect(await filtered('filter[views]=12345678901234')).toEqual([f.hello]);
      expect(await filtered('filter[publishedAt]=2024-01-02T03:04:05.000Z')).toEqual([f.hello]);
      expect(ids(await get(`/user?filter[createdAt$lt]=2000-01-01T00:00:00Z`).expect(200))).toEqual([]);
    });

    it('filters a relationship by the related id (to-one, and to-many with some)', async () => {
      expect(await filtered(`filter[author]=${f.bob}`)).toEqual([f.percent]);
      expect(await filtered(`filter[tags]=${f.news}`)).toEqual([f.hello]);
      expect(await filtered(`filter[tags]=${f.news},${f.tech}`)).toEqual([f.hello, f.percent]);
      expect(await filtered(`filter[likes]=${f.carol}_${f.hello}`)).toEqual([f.hello]);
    });

    it('reaches into relationships with several selectors', async () => {
      expect(await filtered('filter[author][name]=Bob')).toEqual([f.percent]);
      expect(await filtered('filter[comments][body]=Thanks!')).toEqual([f.hello]);
      expect(await filtered('filter[comments][author][name]=Bob')).toEqual([f.hello]);
      expect(await filtered('filter[author][profile][bio$contains]=Writes')).toEqual([f.hello, f.draft]);
    });

    it('combines filters on the same to-many path with AND on one related item', async () => {
      expect(await filtered('filter[comments][body]=Thanks!&filter[comments][author][name]=Alice')).toEqual([f.hello]);
      expect(await filtered('filter[comments][body]=Thanks!&filter[comments][author][name]=Bob')).toEqual([]);
    });

    it('supports the comparison operators', async () => {
      expect(await filtered('filter[rating$lt]=3')).toEqual([f.draft]);
      expect(await filtered('filter[rating$lte]=3')).toEqual([f.draft, f.percent]);
      expect(await filtered('filter[rating$gt]=3')).toEqual([f.hello]);
      expect(await filtered('filter[rating$gte]=3')).toEqual([f.hello, f.percent]);
      expect(await filtered('filter[price$gt]=10')).toEqual([f.percent]);
      expect(await filtered('filter[publishedAt$gte]=2024-01-01T00:00:00Z')).toEqual([f.hello]);
      expect(await filtered('filter[rating$lt]=2,4')).toEqual([f.draft, f.percent]);
    });

    it('supports the string operators', async () => {
      expect(await filtered('filter[title$contains]=World')).toEqual([f.hello]);
      expect(await filtered('filter[title$startsWith]=Hello')).toEqual([f.hello]);
      expect(await filtered('filter[title$endsWith]=Prisma')).toEqual([f.percent]);
      expect(await filtered('filter[title$icontains]=hello world')).toEqual([f.hello]);
      expect(await filtered('filter[title$contains]=World,Prisma')).toEqual([f.hello, f.percent]);
    });

    it('supports $not and $null', async () => {
      expect(await filtered('filter[status$not]=PUBLISHED')).toEqual([f.draft]);
      expect(await filtered('filter[status$not]=PUBLISHED,DRAFT')).toEqual([]);
      expect(await filtered('filter[content$null]=true')).toEqual([f.draft]);
      expect(await filtered('filter[content$null]=false')).toEqual([f.hello, f.percent]);
      expect(ids(await get('/comment?filter[parent$null]=false').expect(200))).toEqual([f.reply]);
      expect(ids(await get('/user?filter[profile$null]=true').expect(200))).toEqual([f.bob, f.carol]);
      expect(ids(await get('/user?filter[posts$null]=true').expect(200))).toEqual([f.carol]);
    });

    it('answers 400 with source.parameter for values and names that do not fit', async () => {
      const bad = async (query: string, parameter: string) =>
        expectJsonApiError(await get(`/post?${query}`), 400, 'invalid-query-parameter', { parameter });
      await bad('filter[rating]=abc', 'filter[rating]');
      await bad('filter[views]=1.5', 'filter[views]');
      await bad('filter[price]=ten', 'filter[price]');
      await bad('filter[published]=yes', 'filter[published]');
      await bad('filter[publishedAt]=not-a-date', 'filter[publishedAt]');
      await bad('filter[status]=GONE', 'filter[status]');
      await bad('filter[metadata]={bad', 'filter[metadata]');
      await bad('filter[nothing]=1', 'filter[nothing]');
      await bad('filter[title$nope]=1', 'filter[title$nope]');
      await bad('filter[rating$contains]=1', 'filter[rating$contains]');
      await bad('filter[title$null]=true', 'filter[title$null]');
      await bad('filter[content$null]=maybe', 'filter[content$null]');
      await bad('filter[author]=abc', 'filter[author]');
      await bad('filter[author$gt]=1', 'filter[author$gt]');
      await bad('filter[title][x]=1', 'filter[title][x]');
      await bad('filter=1', 'filter');
      await bad('filter[]=1', 'filter[]');
    });

    const on = (providers: Parameters<typeof itOn>[1], reason: string) => itOn(provider, providers, reason);

    on(['sqlite'], 'PostgreSQL and MySQL have full-text search')(
      'refuses list and full-text operators where the database has no such fields',
      async () => {
        for (const op of ['$has', '$hasEvery', '$hasSome', '$isEmpty']) {
          expectJsonApiError(await get(`/post?filter[title${op}]=a`), 400, 'invalid-query-parameter', {
            parameter: `filter[title${op}]`,
          });
        }
        expectJsonApiError(await get('/post?filter[content$search]=words'), 400, 'invalid-query-parameter');
      },
    );

    on(['sqlite'], 'PostgreSQL and MySQL escape LIKE wildcards')(
      'refuses LIKE wildcards SQLite cannot match literally, and matches a backslash literally',
      async () => {
        expectJsonApiError(await get('/post?filter[title$contains]=_'), 400, 'invalid-query-parameter');
        expectJsonApiError(await get('/post?filter[title$startsWith]=%25'), 400, 'invalid-query-parameter');
        expect(await filtered('filter[title$endsWith]=%5C')).toEqual([]);
      },
    );
    on(['postgresql'], 'scalar lists exist only on PostgreSQL')(
      'supports the list operators on a scalar list',
      async () => {
        expect(await filtered('filter[keywords$has]=hello')).toEqual([f.hello]);
        expect(await filtered('filter[keywords$hasEvery]=intro,hello')).toEqual([f.hello]);
        expect(await filtered('filter[keywords$hasEvery]=intro,prisma')).toEqual([]);
        expect(await filtered('filter[keywords$hasSome]=intro,prisma')).toEqual([f.hello, f.percent]);
        expect(await filtered('filter[keywords$isEmpty]=true')).toEqual([f.draft]);
        expect(await filtered('filter[keywords$isEmpty]=false')).toEqual([f.hello, f.percent]);
        expectJsonApiError(await get('/post?filter[keywords]=a'), 400, 'invalid-query-parameter', {
          parameter: 'filter[keywords]',
        });
      },
    );

    on(['postgresql', 'mysql'], 'SQLite has no full-text search')(
      'supports full-text $search without tsquery syntax errors',
      async () => {
        expect(await filtered('filter[content$search]=search words')).toEqual([f.percent]);
        expect(await filtered('filter[content$search]=first %26 | post!')).toEqual([f.hello]);
        expectJsonApiError(await get('/post?filter[content$search]=%26|!'), 400, 'invalid-query-parameter', {
          parameter: 'filter[content$search]',
        });
      },
    );

    on(['postgresql', 'mysql'], 'SQLite LIKE has no escape character')(
      'matches LIKE wildcards literally on PostgreSQL and MySQL',
      async () => {
        expect(await filtered('filter[title$contains]=_')).toEqual([f.draft]);
        expect(await filtered('filter[title$contains]=%25')).toEqual([f.percent]);
        expect(await filtered('filter[title$endsWith]=%5C')).toEqual([]);
        expect(await filtered('filter[title$icontains]=hello WORLD')).toEqual([f.hello]);
      },
    );
  });

  describe('sort', () => {
    it('sorts ascending, descending, by several fields and through to-one relations', async () => {
      expect(ids(await get('/post?sort=title').expect(200))).toEqual([f.percent, f.hello, f.draft]);
      expect(ids(await get('/post?sort=-rating').expect(200))).toEqual([f.hello, f.percent, f.draft]);
      expect(ids(await get('/post?sort=-authorId,title').expect(200))).toEqual([f.percent, f.hello, f.draft]);
      expect(ids(await get('/post?sort=-author.name,-title').expect(200))).toEqual([f.percent, f.draft, f.hello]);
      expect(ids(await get('/comment?sort=post.author.name,body').expect(200))).toEqual([
        f.firstComment,
        f.reply,
        f.anonymous,
      ]);
    });

    it('answers 400 for unknown, to-many and relationship sort keys', async () => {
      for (const sort of [
        'nothing',
        'comments.body',
        'author',
        'author.nothing',
        'title.x',
        'metadata',
        '',
        '-',
        'title,,rating',
      ]) {
        expectJsonApiError(await get(`/post?sort=${sort}`), 400, 'invalid-query-parameter', { parameter: 'sort' });
      }
    });
  });

  describe('page', () => {
    it('pages with offset and limit and links that keep every other parameter', async () => {
      const res = await get(
        '/post?filter[published]=true&sort=title&fields[post]=title&page[offset]=1&page[limit]=1',
      ).expect(200);
      expect(ids(res)).toEqual([f.hello]);
      expect(res.body.meta.total).toBe(2);
      const base = `${E}/post?filter%5Bpublished%5D=true&sort=title&fields%5Bpost%5D=title`;
      expect(res.body.links).toEqual({
        self: `${E}/post?filter[published]=true&sort=title&fields[post]=title&page[offset]=1&page[limit]=1`,
        first: `${base}&page%5Boffset%5D=0&page%5Blimit%5D=1`,
        last: `${base}&page%5Boffset%5D=1&page%5Blimit%5D=1`,
        prev: `${base}&page%5Boffset%5D=0&page%5Blimit%5D=1`,
        next: null,
      });
    });

    it('has correct links for an empty collection', async () => {
      const res = await get('/post?filter[title]=none&page[limit]=5').expect(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta.total).toBe(0);
      expect(res.body.links).toMatchObject({
        first: `${E}/post?filter%5Btitle%5D=none&page%5Boffset%5D=0&page%5Blimit%5D=5`,
        last: `${E}/post?filter%5Btitle%5D=none&page%5Boffset%5D=0&page%5Blimit%5D=5`,
        prev: null,
        next: null,
      });
    });

    it('answers 400 for negative, non-numeric, zero-limit and unknown page parameters', async () => {
      for (const [query, parameter] of [
        ['page[offset]=-1', 'page[offset]'],
        ['page[limit]=-5', 'page[limit]'],
        ['page[limit]=ten', 'page[limit]'],
        ['page[limit]=0', 'page[limit]'],
        ['page[offset]=1.5', 'page[offset]'],
        ['page[number]=1', 'page[number]'],
        ['page=1', 'page'],
      ]) {
        expectJsonApiError(await get(`/post?${query}`), 400, 'invalid-query-parameter', { parameter });
      }
    });
  });

  describe('include and fields', () => {
    it('includes nested relationships, each resource once, never primary data', async () => {
      const res = await get(`/post?include=author.profile,comments.author,tags`).expect(200);
      const keys = res.body.included.map((r: { type: string; id: unknown }) => `${r.type}:${r.id}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys.sort()).toEqual(
        [
          `user:${f.alice}`,
          `user:${f.bob}`,
          `profile:${f.profile}`,
          `comment:${f.firstComment}`,
          `comment:${f.reply}`,
          `comment:${f.anonymous}`,
          `tag:${f.news}`,
          `tag:${f.tech}`,
        ].sort(),
      );
      const hello = res.body.data.find((p: { id: number }) => p.id === f.hello);
      expect(hello.relationships.tags.data).toEqual([
        { type: 'tag', id: f.news },
        { type: 'tag', id: f.tech },
      ]);
      expect(hello.relationships.likes).not.toHaveProperty('data');
      const alice = res.body.included.find((r: { type: string; id: unknown }) => r.type === 'user' && r.id === f.alice);
      expect(alice.relationships.profile.data).toEqual({ type: 'profile', id: f.profile });

      const self = await get(`/user/${f.alice}?include=posts.author`).expect(200);
      expect(self.body.included.map((r: { type: string }) => r.type)).toEqual(['post', 'post']);
    });

    it('returns an empty included array when the included relationships are empty', async () => {
      const res = await get(`/user/${f.carol}?include=posts,profile`).expect(200);
      expect(res.body.included).toEqual([]);
      expect(res.body.data.relationships.posts.data).toEqual([]);
    });

    it('includes on related resources', async () => {
      const res = await get(`/user/${f.alice}/posts?include=comments`).expect(200);
      expect(res.body.included).toHaveLength(2);
    });

    it('answers 400 for an unknown include path', async () => {
      for (const include of ['nothing', 'author.nothing', 'title', 'author..profile']) {
        expectJsonApiError(await get(`/post?include=${include}`), 400, 'invalid-query-parameter', {
          parameter: 'include',
        });
      }
    });

    it('returns only the listed fields for a type, in data and included', async () => {
      const res = await get(`/post/${f.hello}?include=author&fields[post]=title,author&fields[user]=name`).expect(200);
      expect(res.body.data.attributes).toEqual({ title: 'Hello World' });
      expect(Object.keys(res.body.data.relationships)).toEqual(['author']);
      expect(res.body.included[0].attributes).toEqual({ name: 'Alice' });
      expect(res.body.included[0].relationships).toEqual({});
    });

    it('answers 400 for unknown types and fields in fields[]', async () => {
      expectJsonApiError(await get('/post?fields[nothing]=a'), 400, 'invalid-query-parameter', {
        parameter: 'fields[nothing]',
      });
      expectJsonApiError(await get('/post?fields[post]=title,nothing'), 400, 'invalid-query-parameter', {
        parameter: 'fields[post]',
      });
      expectJsonApiError(await get('/post?fields[post]=id'), 400, 'invalid-query-parameter', {
        parameter: 'fields[post]',
      });
      expectJsonApiError(await get('/post?fields=title'), 400, 'invalid-query-parameter', { parameter: 'fields' });
    });
  });

  describe('query parameter families', () => {
    it('answers 400 for an unknown family, and ignores implementation-specific names', async () => {
      expectJsonApiError(await get('/post?foo=1'), 400, 'invalid-query-parameter', { parameter: 'foo' });
      expectJsonApiError(await get('/post?sort[x]=1'), 400, 'invalid-query-parameter', { parameter: 'sort[x]' });
      expectJsonApiError(await get('/post?sort=title&sort=rating'), 400, 'invalid-query-parameter', {
        parameter: 'sort',
      });
      expect((await get('/post?cacheBust=1&my_param=2')).status).toBe(200);
    });
  });

  describe('query count', () => {
    it('runs the same number of statements for a nested include whatever the page size', async () => {
      const statements = async (limit: number) => {
        t.db.queries.length = 0;
        const res = await get(`/post?include=author.profile,comments.author,tags&page[limit]=${limit}`).expect(200);
        expect(res.body.data).toHaveLength(limit);
        return t.db.queries.filter((sql) => !/^(BEGIN|COMMIT|ROLLBACK)/i.test(sql)).length;
      };
      const one = await statements(1);
      const three = await statements(3);
      expect(three).toBe(one);
      expect(one).toBeLessThanOrEqual(8);
    });

    const countStatements = () => t.db.queries.filter((sql) => /\bCOUNT\(/i.test(sql)).length;
    const run = async (url: string) => {
      t.db.queries.length = 0;
      const res = await get(url).expect(200);
      return { res, counts: countStatements(), statements: t.db.queries.length };
    };

    it('counts the collection only when the page does not tell the total', async () => {
      const short = await run('/post?page[limit]=50');
      expect(short.res.body.meta.total).toBe(short.res.body.data.length);
      expect(short.counts).toBe(0);
      const full = await run('/post?page[limit]=1');
      expect(full.counts).toBe(1);
      expect(full.res.body.meta.total).toBe(short.res.body.meta.total);
      const pastTheEnd = await run('/post?page[offset]=50');
      expect(pastTheEnd.res.body.data).toEqual([]);
      expect(pastTheEnd.counts).toBe(1);
      expect(pastTheEnd.res.body.meta.total).toBe(short.res.body.meta.total);
    });

    it('reads a short related collection in one statement and checks the parent only when it is empty', async () => {
      const related = await run(`/user/${f.alice}/posts`);
      expect(related.res.body.data.length).toBeGreaterThan(0);
      expect(related.statements).toBe(1);
      const empty = await run(`/user/${f.carol}/posts`);
      expect(empty.res.body).toMatchObject({ data: [], meta: { total: 0 } });
      expect(empty.statements).toBe(2);
    });
  });
});

describe.each(testProviders())('REST pagination options (%s)', (provider) => {
  describe('with a small pageSize', () => {
    let f: BlogFixture;
    const t = useTestApp(provider, {
      options: { pageSize: 2 },
      seed: async ({ db }) => {
        f = await seedBlog(db);
      },
    });

    it('uses pageSize as the default and the cap of page[limit]', async () => {
      const plain = await t.http().get('/api/rest/post').expect(200);
      expect(ids(plain)).toEqual([f.hello, f.draft]);
      expect(plain.body.links.next).toBe(`${E}/post?page%5Boffset%5D=2&page%5Blimit%5D=2`);
      const capped = await t.http().get('/api/rest/post?page[limit]=50').expect(200);
      expect(capped.body.data).toHaveLength(2);
      expect(capped.body.links.last).toBe(`${E}/post?page%5Boffset%5D=2&page%5Blimit%5D=2`);
    });
  });

  describe('with pageSize Infinity', () => {
    const t = useTestApp(provider, {
      options: { pageSize: Infinity },
      seed: ({ db }) => seedBlog(db),
    });

    it('returns every item without a limit and still honours page[limit]', async () => {
      const all = await t.http().get('/api/rest/post').expect(200);
      expect(all.body.data).toHaveLength(3);
      expect(all.body.links).toMatchObject({ first: `${E}/post?page%5Boffset%5D=0`, prev: null, next: null });
      const limited = await t.http().get('/api/rest/post?page[limit]=1').expect(200);
      expect(limited.body.data).toHaveLength(1);
    });
  });

  describe('with tight limits', () => {
    const t = useTestApp(provider, {
      options: { limits: { maxIncludeDepth: 2, maxIncludePaths: 2, maxFilters: 2, maxFilterValueLength: 5 } },
    });

    it('answers 400 beyond the include, filter and value limits', async () => {
      const get = (q: string) => t.http().get(`/api/rest/post?${q}`);
      await get('include=author.profile,comments&filter[title]=abcde&filter[rating]=1').expect(200);
      expectJsonApiError(await get('include=author.profile.user'), 400, 'invalid-query-parameter', {
        parameter: 'include',
      });
      expectJsonApiError(await get('include=author,comments,tags'), 400, 'invalid-query-parameter', {
        parameter: 'include',
      });
      expectJsonApiError(
        await get('filter[title]=a&filter[rating]=1&filter[published]=true'),
        400,
        'invalid-query-parameter',
        { parameter: 'filter' },
      );
      expectJsonApiError(await get('filter[title]=abcdef'), 400, 'invalid-query-parameter', {
        parameter: 'filter[title]',
      });
    });
  });
});
