import request from 'supertest';
import xxhash from 'xxhash-wasm';

import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const q = (args: unknown) => encodeURIComponent(JSON.stringify(args));

/** The names of a `Vary` header, lower-cased. */
const varyNames = (value: unknown) =>
  new Set(
    String(value ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );

/** The strong tag of the text a client received: the XXH64 of its UTF-8 bytes, in hex. */
let tagOf: (body: string) => string;
beforeAll(async () => {
  const { h64ToString } = await xxhash();
  tagOf = (body) => `"${h64ToString(body)}"`;
});

describe.each(testProviders())('conditional reads (%s)', (provider) => {
  let postId: number;
  let userId: number;
  const t = useTestApp(provider, {
    seed: async ({ db }) => {
      const user = await db.prisma.user.create({ data: { email: 'etag@example.com', name: 'Tag' } });
      const post = await db.prisma.post.create({
        data: { title: 'first', authorId: user.id, tags: { create: [{ name: 'cached' }] } },
      });
      await db.prisma.comment.create({ data: { body: 'hello', postId: post.id } });
      userId = user.id;
      postId = post.id;
    },
  });

  /** Every kind of read of both interfaces, as a client sends it. */
  const reads = (): Array<[string, string]> => [
    ['REST resource', `/api/rest/post/${postId}`],
    [
      'REST resource with include and fields',
      `/api/rest/post/${postId}?include=comments&fields%5Bpost%5D=title,comments`,
    ],
    ['REST collection', '/api/rest/post?sort=id'],
    ['REST related collection', `/api/rest/user/${userId}/posts`],
    ['REST related resource', `/api/rest/post/${postId}/author`],
    ['REST relationship', `/api/rest/post/${postId}/relationships/tags`],
    ['RPC findUnique', `/api/rpc/post/findUnique?q=${q({ where: { id: postId } })}`],
    ['RPC findMany', `/api/rpc/post/findMany?q=${q({ include: { tags: true }, orderBy: { id: 'asc' } })}`],
    ['RPC count', `/api/rpc/post/count?q=${q({})}`],
    ['RPC aggregate', `/api/rpc/post/aggregate?q=${q({ _max: { title: true } })}`],
    ['RPC groupBy', `/api/rpc/post/groupBy?q=${q({ by: ['authorId'], _count: { _all: true } })}`],
  ];

  const get = (path: string) =>
    t
      .http()
      .get(path)
      .set('Accept', path.startsWith('/api/rest') ? JSON_API : 'application/json');

  it('tag every successful read with a strong ETag of the bytes sent, private and revalidated', async () => {
    for (const [name, path] of reads()) {
      const res = await get(path).expect(200);
      expect({ name, etag: res.headers.etag }).toEqual({ name, etag: tagOf(res.text) });
      expect(res.headers['cache-control']).toBe('private, no-cache');
      const vary = varyNames(res.headers.vary);
      expect({ name, authorization: vary.has('authorization') }).toEqual({ name, authorization: true });
      if (path.startsWith('/api/rest')) expect([vary.has('accept'), vary.has('prefer')]).toEqual([true, true]);
    }
  });

  it('answer 304 with no body to a matching If-None-Match (listed, weak or *), 200 otherwise', async () => {
    for (const [name, path] of reads()) {
      const first = await get(path).expect(200);
      const etag = first.headers.etag as string;
      for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await get(path).set('If-None-Match', condition);
        expect({ name, condition, status: again.status }).toEqual({ name, condition, status: 304 });
        expect(again.text ?? '').toBe('');
        expect(again.headers.etag).toBe(etag);
        expect(again.headers['cache-control']).toBe('private, no-cache');
        expect(again.headers['x-request-id']).toEqual(expect.any(String));
        expect(again.headers['content-type']).toBeUndefined();
      }
      const other = await get(path).set('If-None-Match', '"not-this-one"').expect(200);
      expect(other.text).toBe(first.text);
    }
  });

  it('answer 200 with a new ETag once the data changed, through either interface', async () => {
    const rest = `/api/rest/post/${postId}`;
    const rpc = `/api/rpc/post/findUnique?q=${q({ where: { id: postId } })}`;
    const [restTag, rpcTag] = [(await get(rest)).headers.etag, (await get(rpc)).headers.etag];
    await t
      .http()
      .patch('/api/rpc/post/update')
      .send({ where: { id: postId }, data: { title: 'changed over RPC' } })
      .expect(200);
    const afterRpc = await get(rest).set('If-None-Match', restTag).expect(200);
    expect(afterRpc.body.data.attributes.title).toBe('changed over RPC');
    expect(afterRpc.headers.etag).not.toBe(restTag);
    await t
      .http()
      .patch(rest)
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'post', id: String(postId), attributes: { title: 'changed over REST' } } })
      .expect(200);
    const afterRest = await get(rpc).set('If-None-Match', rpcTag).expect(200);
    expect(afterRest.body.data.title).toBe('changed over REST');
    expect(afterRest.headers.etag).not.toBe(rpcTag);
    await get(rpc).set('If-None-Match', afterRest.headers.etag).expect(304);
  });

  it('tag HEAD like GET, and never an error', async () => {
    // The platforms answer HEAD with the GET route, which the documents describe: a plain agent.
    const head = () => request(t.app.getHttpServer()).head(`/api/rest/post/${postId}`).set('Accept', JSON_API);
    const { etag } = (await get(`/api/rest/post/${postId}`)).headers;
    expect((await head().expect(200)).headers.etag).toBe(etag);
    await head().set('If-None-Match', etag).expect(304);
    const missing = await get('/api/rest/post/987654').expect(404);
    expect(missing.headers.etag).toBeUndefined();
    const notModifiedError = await get('/api/rest/post/987654').set('If-None-Match', '*').expect(404);
    expect(notModifiedError.headers.etag).toBeUndefined();
  });
});

describe.each(testProviders())('caching options (%s)', (provider) => {
  describe('configured', () => {
    const t = useTestApp(provider, {
      options: { caching: { cacheControl: 'private, max-age=30', vary: ['Cookie', 'X-Tenant'] } },
    });

    it('send the configured Cache-Control and Vary names', async () => {
      const res = await t.http().get('/api/rest/tag').set('Accept', JSON_API).expect(200);
      expect(res.headers['cache-control']).toBe('private, max-age=30');
      expect(varyNames(res.headers.vary)).toEqual(new Set(['accept', 'prefer', 'cookie', 'x-tenant']));
      const rpc = await t
        .http()
        .get(`/api/rpc/tag/count?q=${q({})}`)
        .expect(200);
      expect(varyNames(rpc.headers.vary)).toEqual(new Set(['cookie', 'x-tenant']));
    });
  });

  describe('off', () => {
    const t = useTestApp(provider, { options: { caching: false } });

    it('send no validators and ignore If-None-Match', async () => {
      const res = await t.http().get('/api/rest/tag').set('Accept', JSON_API).set('If-None-Match', '*').expect(200);
      expect(res.headers.etag).toBeUndefined();
      expect(res.headers['cache-control']).toBeUndefined();
      expect(varyNames(res.headers.vary)).toEqual(new Set(['prefer']));
    });
  });
});
