import { expectJsonApiError } from '../support/json-api-expect.js';
import { type BlogFixture, seedBlog } from '../support/rest-fixtures.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const tagDocument = (name: string) => JSON.stringify({ data: { type: 'tag', attributes: { name } } });

describe.each(testProviders())('REST content negotiation (%s)', (provider) => {
  const t = useTestApp(provider);

  const create = (contentType: string | undefined, name: string) => {
    const req = t.http().post('/api/rest/tag');
    return contentType === undefined
      ? req.send(tagDocument(name))
      : req.set('Content-Type', contentType).send(tagDocument(name));
  };

  it('accepts JSON:API (with profile) and plain JSON bodies', async () => {
    await create(JSON_API, 'a').expect(201);
    await create(`${JSON_API}; profile="https://example.com/profile"`, 'b').expect(201);
    await create('application/json', 'c').expect(201);
    await create('application/json; charset=utf-8', 'd').expect(201);
  });

  it('answers 415 for JSON:API with foreign parameters, an extension, or another media type', async () => {
    for (const type of [
      `${JSON_API}; charset=utf-8`,
      `${JSON_API}; ext="https://jsonapi.org/ext/atomic"`,
      'text/plain',
    ]) {
      expectJsonApiError(await create(type, 'x'), 415, 'unsupported-media-type', { header: 'Content-Type' });
    }
    expectJsonApiError(await t.http().post('/api/rest/tag'), 415, 'unsupported-media-type', { header: 'Content-Type' });
    expect(await t.db.prisma.tag.count({ where: { name: 'x' } })).toBe(0);
  });

  it('answers 406 when Accept allows no JSON:API response', async () => {
    for (const accept of [
      `${JSON_API}; charset=utf-8`,
      `${JSON_API}; ext="https://jsonapi.org/ext/atomic"`,
      'text/html',
      `${JSON_API}; charset=utf-8, */*`,
    ]) {
      expectJsonApiError(await t.http().get('/api/rest/tag').set('Accept', accept), 406, 'not-acceptable', {
        header: 'Accept',
      });
    }
  });

  it('serves any Accept that allows JSON:API, always as application/vnd.api+json', async () => {
    for (const accept of [
      JSON_API,
      `${JSON_API}; charset=utf-8, ${JSON_API}`,
      '*/*',
      'application/*',
      'application/json',
      'text/html, */*;q=0.1',
      `${JSON_API}; profile="x"`,
    ]) {
      const res = await t.http().get('/api/rest/tag').set('Accept', accept).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    }
  });

  it('answers malformed JSON with a JSON:API 400', async () => {
    const res = await t.http().post('/api/rest/tag').set('Content-Type', JSON_API).send('{"data": ');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    expect(res.body.errors[0].status).toBe('400');
  });
});

describe.each(testProviders())('REST exposure options (%s)', (provider) => {
  describe('models', () => {
    let f: BlogFixture;
    const t = useTestApp(provider, {
      options: { models: ['Post', 'tag', 'Comment'] },
      seed: async ({ db }) => {
        f = await seedBlog(db);
      },
    });

    it('answers 404 for a model not exposed and never shows it as a relationship', async () => {
      expectJsonApiError(await t.http().get('/api/rest/user'), 404, 'unknown-type');
      expectJsonApiError(await t.http().get(`/api/rest/user/${f.alice}`), 404, 'unknown-type');
      const post = (await t.http().get(`/api/rest/post/${f.hello}`).expect(200)).body.data;
      expect(Object.keys(post.relationships).sort()).toEqual(['comments', 'tags']);
      expect(post.attributes.authorId).toBe(f.alice);
      expectJsonApiError(await t.http().get(`/api/rest/post/${f.hello}/author`), 404, 'unknown-relationship');
      expectJsonApiError(
        await t.http().get(`/api/rest/post/${f.hello}/relationships/likes`),
        404,
        'unknown-relationship',
      );
      expectJsonApiError(await t.http().get('/api/rest/post?include=author'), 400, 'invalid-query-parameter', {
        parameter: 'include',
      });
      expectJsonApiError(await t.http().get('/api/rest/post?include=comments.author'), 400, 'invalid-query-parameter', {
        parameter: 'include',
      });
      expectJsonApiError(await t.http().get('/api/rest/post?filter[author][name]=Bob'), 400, 'invalid-query-parameter');
      expectJsonApiError(await t.http().get('/api/rest/post?sort=author.name'), 400, 'invalid-query-parameter');
      expectJsonApiError(await t.http().get('/api/rest/post?fields[user]=name'), 400, 'invalid-query-parameter');
      const write = await t
        .http()
        .post('/api/rest/post')
        .set('Content-Type', 'application/vnd.api+json')
        .send(
          JSON.stringify({
            data: {
              type: 'post',
              attributes: { title: 'x', authorId: f.alice },
              relationships: { author: { data: { type: 'user', id: f.alice } } },
            },
          }),
        );
      expectJsonApiError(write, 400, 'invalid-payload', { pointer: '/data/relationships/author' });
    });
  });

  describe('operations', () => {
    let f: BlogFixture;
    const t = useTestApp(provider, {
      options: { operations: { post: { readOnly: true }, Tag: { exclude: ['delete', 'findMany'] } } },
      seed: async ({ db }) => {
        f = await seedBlog(db);
      },
    });

    const send = (
      method: 'post' | 'patch' | 'delete',
      url: string,
      body: unknown = { data: { type: 'post', attributes: { title: 'x' } } },
    ) => t.http()[method](`/api/rest${url}`).set('Content-Type', 'application/vnd.api+json').send(JSON.stringify(body));

    it('answers 403 naming the refused operation and serves the others', async () => {
      await t.http().get('/api/rest/post').expect(200);
      await t.http().get(`/api/rest/post/${f.hello}/relationships/comments`).expect(200);
      const refused = await send('post', '/post');
      expectJsonApiError(refused, 403, 'forbidden');
      expect(refused.body.errors[0].detail).toMatch(/create/);
      expect((await send('patch', `/post/${f.hello}`)).body.errors[0].detail).toMatch(/update/);
      expect((await send('delete', `/post/${f.hello}`)).body.errors[0].detail).toMatch(/delete/);
      expect((await send('post', `/post/${f.hello}/relationships/tags`, { data: [] })).body.errors[0].detail).toMatch(
        /update/,
      );
      expect((await t.http().get('/api/rest/tag')).body.errors[0]).toMatchObject({
        status: '403',
        code: 'forbidden',
        detail: expect.stringMatching(/findMany/),
      });
      expect((await t.http().get(`/api/rest/post/${f.hello}/tags`)).body.errors[0].detail).toMatch(/findMany/);
      await t.http().get(`/api/rest/tag/${f.news}`).expect(200);
      expect((await send('delete', `/tag/${f.news}`)).status).toBe(403);
      expect(await t.db.prisma.post.count()).toBe(3);
    });
  });
});
