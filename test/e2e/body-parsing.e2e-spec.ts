import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { type BlogFixture, seedBlog } from '../support/rest-fixtures.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

interface RawAnswer {
  status: number;
  body: any;
}

/**
 * Bodies as clients send them, byte for byte: supertest always sends a Content-Length, so a
 * chunked (possibly empty) body goes through node's own client. Both platforms must answer alike.
 */
describe.each(testProviders())('JSON body parsing on the module routes (%s)', (provider) => {
  let f: BlogFixture;
  let port: number;
  const t = useTestApp(provider, {
    seed: async ({ db }) => {
      f = await seedBlog(db);
    },
  });
  beforeAll(async () => {
    const server = t.app.getHttpServer() as http.Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  const send = (method: string, path: string, contentType: string, chunks: string[]): Promise<RawAnswer> =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: { 'content-type': contentType, 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
        },
      );
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });

  it.each(['application/json', 'application/vnd.api+json'])(
    'treats an empty chunked %s body of a DELETE as no body',
    async (contentType) => {
      const comment = await t.db.prisma.comment.create({ data: { body: 'to delete', postId: f.hello } });
      expect((await send('DELETE', `/api/rest/comment/${comment.id}`, contentType, [])).status).toBe(204);
      const rpc = await send(
        'DELETE',
        `/api/rpc/tag/deleteMany?q=${encodeURIComponent('{"where":{"name":"none such"}}')}`,
        contentType,
        [],
      );
      expect(rpc).toEqual({ status: 200, body: { data: { count: 0 } } });
    },
  );

  it.each([
    [
      'REST',
      'PATCH',
      `{"data":{"type":"post","id":"$ID","attributes":{"__proto__":{"title":"x"}}}}`,
      '/data/attributes/__proto__',
    ],
    ['RPC', 'POST', '{"data":{"__proto__":{"name":"x"}}}', '/data/__proto__'],
  ])(
    'refuses a prototype key in an application/json %s body, pointing at it and writing nothing',
    async (kind, method, body, pointer) => {
      const before = {
        tags: await t.db.prisma.tag.count(),
        post: await t.db.prisma.post.findUnique({ where: { id: f.hello } }),
      };
      const path = kind === 'REST' ? `/api/rest/post/${f.hello}` : '/api/rpc/tag/create';
      const answer = await send(method, path, 'application/json', [body.replace('$ID', String(f.hello))]);
      expect(answer.status).toBe(400);
      // REST names the member in `source.pointer`; RPC errors carry no source, their message names the path.
      if (kind === 'REST')
        expect(answer.body.errors[0]).toMatchObject({ code: 'invalid-payload', source: { pointer } });
      else expect(answer.body.error.message).toContain(pointer);
      expect({
        tags: await t.db.prisma.tag.count(),
        post: await t.db.prisma.post.findUnique({ where: { id: f.hello } }),
      }).toEqual(before);
    },
  );

  it('still parses application/json bodies sent in several chunks', async () => {
    const answer = await send('POST', '/api/rpc/tag/create', 'application/json', ['{"data":{"na', 'me":"chunked"}}']);
    expect(answer).toMatchObject({ status: 201, body: { data: { name: 'chunked' } } });
  });
});
