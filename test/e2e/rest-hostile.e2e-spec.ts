import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import { snapshotDatabase } from '../support/db-snapshot.js';
import { expectJsonApiError } from '../support/json-api-expect.js';
import { type BlogFixture, seedBlog } from '../support/rest-fixtures.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';

/** `{ a: { a: ... 1 } }` nested `depth` objects deep, as JSON text (the client never builds the object). */
const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe.each(testProviders())('REST under hostile input (%s)', (provider) => {
  let f: BlogFixture;
  const t = useTestApp(provider, {
    seed: async ({ db }) => {
      f = await seedBlog(db);
    },
  });

  const get = (url: string) => t.http().get(`/api/rest${url}`);
  const sendText = (method: 'post' | 'patch' | 'delete', url: string, json: string) =>
    t.http()[method](`/api/rest${url}`).set('Content-Type', JSON_API).send(json);
  const send = (method: 'post' | 'patch' | 'delete', url: string, body: unknown) =>
    sendText(method, url, JSON.stringify(body));

  /** Runs a write that must be refused and proves the database did not change. */
  async function refusedWrite(
    run: () => PromiseLike<{ status: number; body: any }>,
    status: number,
    code: string,
    source?: Record<string, string>,
  ) {
    const before = await snapshotDatabase(t.db);
    const res = await run();
    expectJsonApiError(res as never, status, code, source);
    expect(await snapshotDatabase(t.db)).toEqual(before);
    return res;
  }

  describe('query parameters', () => {
    it.each([20, 40])('refuses a %i-deep filter selector at once, naming it', async (depth) => {
      const parameter = `filter${'[author][posts]'.repeat(depth / 2)}[title]`;
      const started = Date.now();
      expectJsonApiError(await get(`/post?${parameter}=x`), 400, 'invalid-query-parameter', { parameter });
      // A bound against runaway parsing, not a timing: generous for a machine under load.
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('accepts the deepest selector and the most filters the defaults allow, quickly', async () => {
      const filters = Array.from(
        { length: 20 },
        (_, i) => `filter[comments][author][posts][title$contains]=${'x'.repeat(i + 1)}`,
      );
      const started = Date.now();
      await get(`/post?${filters.join('&')}&sort=-title&include=comments.author.posts`).expect(200);
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it.each(['constructor=1', '[filter]=1', 'cachebust=1', 'page[number]=1'])(
      'refuses %s naming the parameter',
      async (query) => {
        const parameter = new URLSearchParams(query).keys().next().value!;
        expectJsonApiError(await get(`/post?${query}`), 400, 'invalid-query-parameter', { parameter });
      },
    );

    it.each(['_=1', 'Filter[x]=1', 'x-y=1', 'cacheBust[]=1', 'my_param[a b]=1'])(
      'ignores the implementation-specific %s',
      async (query) => {
        await get(`/post?${query}`).expect(200);
      },
    );

    // Names that break JSON:API's naming rules, as sent raw: 400 on every REST route, writes unmade.
    it.each(['__proto__[x]=1', 'filterisbn]=x', 'filter]title[=x', 'filter%00[title]=x', 'filter(title)=x', 'x_=1'])(
      'refuses %s on reads, writes, relationship and atomic routes, naming it',
      async (query) => {
        const parameter = new URLSearchParams(query).keys().next().value!;
        const post = `/post/${f.hello}`;
        for (const url of ['/post', post, `${post}/author`, `${post}/relationships/tags`]) {
          expectJsonApiError(await get(`${url}?${query}`), 400, 'invalid-query-parameter', { parameter });
        }
        await refusedWrite(
          () =>
            send('patch', `${post}?${query}`, {
              data: { type: 'post', id: String(f.hello), attributes: { title: 'x' } },
            }),
          400,
          'invalid-query-parameter',
          { parameter },
        );
        await refusedWrite(
          () =>
            t
              .http()
              .post(`/api/rest/operations?${query}`)
              .set('Content-Type', 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"')
              .send({ 'atomic:operations': [{ op: 'remove', ref: { type: 'tag', id: String(f.news) } }] }),
          400,
          'invalid-query-parameter',
          { parameter },
        );
      },
    );

    it('refuses sort paths deeper than the filter depth and a field sorted twice', async () => {
      expectJsonApiError(await get('/comment?sort=parent.parent.parent.parent.body'), 400, 'invalid-query-parameter', {
        parameter: 'sort',
      });
      expectJsonApiError(await get('/post?sort=title,-title'), 400, 'invalid-query-parameter', { parameter: 'sort' });
    });

    it('bounds the joins of filter and sort together (60 at the defaults) before the database does', async () => {
      const keys = (path: string, fields: string[]) => fields.map((field) => `${path}.${field}`);
      const post = keys('parent.parent.post', [
        'title',
        'content',
        'status',
        'published',
        'rating',
        'price',
        'views',
        'publishedAt',
        'createdAt',
        'updatedAt',
        'authorId',
      ]);
      const comment = keys('parent.parent.parent', ['body', 'createdAt', 'postId', 'authorId', 'parentId', 'id']);
      const user = keys('parent.post.author', ['name', 'email', 'role', 'createdAt']);
      await get(
        `/comment?sort=${[...post, ...comment].join(',')}&filter[post][author][name]=Alice&filter[post][title]=x`,
      ).expect(200);
      expectJsonApiError(
        await get(`/comment?sort=${[...post, ...comment, ...user].join(',')}`),
        400,
        'invalid-query-parameter',
        { parameter: 'sort' },
      );
    });

    it.each([
      ['filter[id]=2147483648', 'filter[id]'],
      ['filter[views]=9223372036854775808', 'filter[views]'],
      ['filter[rating$gt]=1e999', 'filter[rating$gt]'],
      ['filter[publishedAt$gte]=%2B010000-01-01T00:00:00Z', 'filter[publishedAt$gte]'],
      ['filter[publishedAt]=2023-02-29', 'filter[publishedAt]'],
    ])('refuses the out-of-range filter value %s', async (query, parameter) => {
      expectJsonApiError(await get(`/post?${query}`), 400, 'invalid-query-parameter', { parameter });
    });
  });

  describe('request documents', () => {
    const post = (attributes: Record<string, unknown>) => ({
      data: {
        type: 'post',
        attributes: { title: 't', ...attributes },
        relationships: { author: { data: { type: 'user', id: f.alice } } },
      },
    });

    it('refuses a Json attribute nested thousands of levels deep, on create, update and relationship bodies', async () => {
      const body = (inner: string) =>
        `{"data":{"type":"post","attributes":{"title":"t","metadata":${inner}},"relationships":{"author":{"data":{"type":"user","id":${f.alice}}}}}}`;
      const res = await refusedWrite(() => sendText('post', '/post', body(deepJson(5000))), 400, 'invalid-payload');
      expect(res.body.errors[0].source.pointer).toMatch(/^\/data\/attributes\/metadata(\/a)+$/);
      await refusedWrite(() => sendText('patch', `/post/${f.hello}`, body(deepJson(100_000))), 400, 'invalid-payload');
      await refusedWrite(
        () => sendText('post', `/post/${f.hello}/relationships/tags`, `{"data":[],"meta":${deepJson(3000)}}`),
        400,
        'invalid-payload',
      );
      await send('post', '/post', post({ metadata: JSON.parse(deepJson(20)) })).expect(201);
    });

    it.each([
      [
        'attributes',
        `{"data":{"type":"post","attributes":{"title":"t","__proto__":{"x":1}}}}`,
        '/data/attributes/__proto__',
      ],
      [
        'Json values',
        `{"data":{"type":"post","attributes":{"metadata":{"a":[{"constructor":{"prototype":1}}]}}}}`,
        '/data/attributes/metadata/a/0/constructor',
      ],
      ['meta', `{"data":{"type":"post","meta":{"prototype":1}}}`, '/data/meta/prototype'],
      ['the document', `{"__proto__":{},"data":{"type":"post"}}`, '/__proto__'],
    ])('refuses a prototype key in %s and writes nothing', async (_where, json, pointer) => {
      await refusedWrite(() => sendText('patch', `/post/${f.hello}`, json), 400, 'invalid-payload', { pointer });
    });

    it.each([
      [{ data: { type: 'post', id: 'x' }, errors: [] }, '/errors'],
      [{ data: { type: 'post' }, unknown: 1 }, '/unknown'],
      [{ data: { type: 'post', attributes: {}, extra: 1 } }, '/data/extra'],
      [
        { data: { type: 'post', relationships: { author: { data: null, extra: 1 } } } },
        '/data/relationships/author/extra',
      ],
      [
        { data: { type: 'post', relationships: { tags: { data: [{ type: 'tag', id: 1, attributes: {} }] } } } },
        '/data/relationships/tags/data/0',
      ],
      [{ data: { type: 'post', meta: 'text' } }, '/data/meta'],
      [{ data: { type: 'post' }, jsonapi: [] }, '/jsonapi'],
    ])('refuses the member of %j that JSON:API does not allow there', async (body, pointer) => {
      await refusedWrite(() => send('patch', `/post/${f.hello}`, body), 400, 'invalid-payload', { pointer });
    });

    it('refuses unknown members in relationship endpoint bodies', async () => {
      await refusedWrite(
        () => send('post', `/post/${f.hello}/relationships/tags`, { data: [{ type: 'tag', id: f.news, extra: 1 }] }),
        400,
        'invalid-payload',
        {
          pointer: '/data/0',
        },
      );
      await refusedWrite(
        () => send('patch', `/post/${f.hello}/relationships/tags`, { data: [], errors: [] }),
        400,
        'invalid-payload',
        { pointer: '/errors' },
      );
    });

    it.each([
      ['authorId', 2 ** 31],
      // eslint-disable-next-line no-loss-of-precision -- a value beyond a double, as a client may send
      ['rating', 1e309],
      ['views', '9223372036854775808'],
      ['views', '-9223372036854775809'],
      ['publishedAt', '+010000-01-01T00:00:00.000Z'],
      ['publishedAt', '-000001-01-01T00:00:00.000Z'],
      ['publishedAt', '2024-02-30'],
    ])('refuses %s = %p on every database and writes nothing', async (name, value) => {
      const json = JSON.stringify(post({ [name]: value })).replace('1e+309', '1e309');
      await refusedWrite(() => sendText('post', '/post', json), 400, 'validation-failed', {
        pointer: `/data/attributes/${name}`,
      });
    });

    it('stores the extreme values every database accepts', async () => {
      const res = await send(
        'post',
        '/post',
        post({ views: '-9223372036854775808', publishedAt: '9999-12-31T23:59:59.999Z', rating: -1.5e300 }),
      ).expect(201);
      expect(res.body.data.attributes).toMatchObject({
        views: '-9223372036854775808',
        publishedAt: '9999-12-31T23:59:59.999Z',
        rating: -1.5e300,
      });
    });

    it('answers values the database cannot store with 400, never 500', async () => {
      // Decimals beyond what DECIMAL(65,30) holds are refused before the database is asked.
      for (const [attributes, code] of [
        [{ title: 'nul\u0000byte' }, 'data-layer-error'],
        [{ metadata: { a: 'nul\u0000' } }, 'data-layer-error'],
        [{ price: '1e40' }, 'validation-failed'],
        [{ price: '1e99999' }, 'validation-failed'],
      ] as const) {
        const before = await snapshotDatabase(t.db);
        const res = await send('post', '/post', post(attributes));
        expect({ attributes, status: res.status }).toEqual({ attributes, status: expect.any(Number) });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expectJsonApiError(res, 400, code);
          expect(await snapshotDatabase(t.db)).toEqual(before);
        }
      }
    });
  });

  describe('error documents', () => {
    it('quote at most 100 characters of a megabyte type, id or relationship name', async () => {
      const type = 't'.repeat(1_000_000);
      const conflict = await send('post', '/post', { data: { type } });
      expectJsonApiError(conflict, 409, 'conflict', { pointer: '/data/type' });
      expect(JSON.stringify(conflict.body).length).toBeLessThan(1000);
      for (const url of [`/${'u'.repeat(3000)}`, `/post/${'9'.repeat(3000)}`, `/post/${f.hello}/${'r'.repeat(3000)}`]) {
        const res = await get(url);
        // Fastify refuses a path segment over its maxParamLength (100) with 414 before routing.
        expect([404, 414]).toContain(res.status);
        expect(JSON.stringify(res.body.errors ?? res.body).length).toBeLessThan(1000);
      }
      const related = await send('post', `/post/${f.hello}/relationships/tags`, {
        data: [{ type: 'tag', id: 'x'.repeat(100_000) }],
      });
      expect(related.status).toBe(404);
      expect(JSON.stringify(related.body).length).toBeLessThan(1000);
    });

    it('point at the object holding a megabyte member name rather than repeat it', async () => {
      const res = await send('patch', `/post/${f.hello}`, {
        data: { type: 'post', attributes: { ['k'.repeat(1_000_000)]: 1 } },
      });
      expectJsonApiError(res, 400, 'invalid-payload', { pointer: '/data/attributes' });
      expect(JSON.stringify(res.body).length).toBeLessThan(1000);
    });
  });
});

describe.each(testProviders())('REST hides hidden fields like missing ones (%s)', (provider) => {
  let caller: DemoUser | undefined;
  let alice: DemoUser;
  const t = useTestApp(provider, {
    options: { policies: samplePolicies, context: () => ({ user: caller }) },
    seed: async () => {
      const created = await t.db.prisma.user.create({
        data: { name: 'alice', email: 'alice@x.test', passwordHash: 'secret' },
        select: { id: true, role: true },
      });
      alice = created as DemoUser;
      caller = alice;
    },
  });

  /** The answer with the field name replaced, so a hidden and a missing field's answers compare. */
  async function answer(method: 'get' | 'patch', url: string, name: string, body?: unknown) {
    const request = t.http()[method](`/api/rest${url}`);
    const res = await (body === undefined ? request : request.set('Content-Type', JSON_API).send(JSON.stringify(body)));
    return { status: res.status, body: JSON.parse(JSON.stringify(res.body).replaceAll(name, 'NAME')) };
  }

  it.each([
    ['/user?fields[user]=name,FIELD'],
    ['/user?filter[FIELD]=secret'],
    ['/user?filter[FIELD$startsWith]=s'],
    ['/user?sort=-FIELD'],
    ['/post?filter[author][FIELD]=secret'],
    ['/post?sort=author.FIELD'],
    ['/post?fields[user]=FIELD'],
  ])('GET %s answers the same 400 for passwordHash and for a field that does not exist', async (url) => {
    const hidden = await answer('get', url.replace('FIELD', 'passwordHash'), 'passwordHash');
    const missing = await answer('get', url.replace('FIELD', 'passwordHasx'), 'passwordHasx');
    expect(hidden).toEqual(missing);
    expect(hidden.status).toBe(400);
    expect(hidden.body.errors[0].code).toBe('invalid-query-parameter');
  });

  it('answers a hidden attribute in a body like an unknown one', async () => {
    const body = (name: string) => ({ data: { type: 'user', id: alice.id, attributes: { [name]: 'x' } } });
    const hidden = await answer('patch', `/user/${alice.id}`, 'passwordHash', body('passwordHash'));
    const missing = await answer('patch', `/user/${alice.id}`, 'passwordHasx', body('passwordHasx'));
    expect(hidden).toEqual(missing);
    expect(hidden.body.errors[0]).toMatchObject({
      code: 'invalid-payload',
      source: { pointer: '/data/attributes/NAME' },
    });
  });
});
