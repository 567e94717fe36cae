import type { INestApplication } from '@nestjs/common';

import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const ORIGIN = 'http://front.test';

/** The names of a `Vary` header, lower-cased, in order. */
function varyNames(value: unknown): string[] {
  return String(value ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
}

/** CORS as an application enables it, plus a middleware setting the headers a test asks for (`x-test-…`). */
function withCors(app: INestApplication): void {
  app.enableCors({ origin: [ORIGIN] });
  app.use(
    (req: { headers: Record<string, string> }, res: { setHeader(n: string, v: string): void }, next: () => void) => {
      if (req.headers['x-test-vary']) res.setHeader('Vary', req.headers['x-test-vary']);
      if (req.headers['x-test-cache-control']) res.setHeader('Cache-Control', req.headers['x-test-cache-control']);
      next();
    },
  );
}

describe.each(testProviders())('what browsers and shared caches see (%s)', (provider) => {
  const t = useTestApp(provider, {
    configure: withCors,
    seed: async ({ db }) => {
      await db.prisma.tag.create({ data: { name: 'seen' } });
    },
  });

  it('keeps the CORS middleware’s Vary: Origin beside the module’s Vary names', async () => {
    const res = await t.http().get('/api/rest/tag').set('Origin', ORIGIN).expect(200);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(new Set(varyNames(res.headers.vary))).toEqual(new Set(['origin', 'accept', 'prefer', 'authorization']));
    expect(varyNames(res.headers.vary)).toHaveLength(4);
  });

  it('merges the application’s Vary names once each, whatever their case, and keeps * alone', async () => {
    const merged = await t.http().get('/api/rest/tag').set('x-test-vary', 'Accept-Encoding, PREFER').expect(200);
    const names = varyNames(merged.headers.vary);
    // CORS' Origin too where the platform keeps it beside the middleware's header (Fastify's hook).
    expect(names.filter((name) => name !== 'origin').sort()).toEqual([
      'accept',
      'accept-encoding',
      'authorization',
      'prefer',
    ]);
    expect(new Set(names).size).toBe(names.length);
    const star = await t.http().get('/api/rest/tag').set('x-test-vary', '*').expect(200);
    expect(star.headers.vary).toBe('*');
  });

  it('keeps the application’s Cache-Control over the module’s own', async () => {
    const asset = '/api/docs/swagger-ui/swagger-ui.css';
    expect((await t.http().get(asset).expect(200)).headers['cache-control']).toBe('public, max-age=3600');
    const kept = await t.http().get(asset).set('x-test-cache-control', 'no-store').expect(200);
    expect(kept.headers['cache-control']).toBe('no-store');
  });

  it('ignores a cache buster and other implementation-specific parameters on REST', async () => {
    const res = await t.http().get('/api/rest/tag?_=1700000000&cacheBust=1&sort=name').expect(200);
    expect(res.body.data.map((tag: { attributes: { name: string } }) => tag.attributes.name)).toEqual(['seen']);
    await t.http().get(`/api/rest/tag/${res.body.data[0].id}?_=1700000000`).expect(200);
  });

  it('still refuses an unknown name JSON:API reserves (all a-z), naming it', async () => {
    const res = await t.http().get('/api/rest/tag?_=1&cachebust=1').expect(400);
    expect(res.headers['content-type']).toBe(JSON_API);
    expect(res.body.errors[0]).toMatchObject({ code: 'invalid-query-parameter', source: { parameter: 'cachebust' } });
  });

  it('ignores a cache buster on atomic operations, and refuses a reserved name there', async () => {
    const atomic = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
    const operations = { 'atomic:operations': [{ op: 'add', data: { type: 'tag', attributes: { name: 'atomic' } } }] };
    await t
      .http()
      .post('/api/rest/operations?_=1700000000')
      .set('Content-Type', atomic)
      .set('Accept', atomic)
      .send(operations)
      .expect(200);
    const refused = await t
      .http()
      .post('/api/rest/operations?include=x')
      .set('Content-Type', atomic)
      .set('Accept', atomic)
      .send(operations)
      .expect(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'invalid-query-parameter', source: { parameter: 'include' } });
    expect(await t.db.prisma.tag.count({ where: { name: 'atomic' } })).toBe(1);
  });

  it('ignores a cache buster on RPC, which reads only q and meta', async () => {
    const q = encodeURIComponent(JSON.stringify({ where: { name: 'seen' } }));
    expect((await t.http().get(`/api/rpc/tag/count?_=1700000000&q=${q}`).expect(200)).body).toEqual({ data: 1 });
    await t
      .http()
      .post('/api/rpc/tag/create?_=1700000000')
      .send({ data: { name: 'busted' } })
      .expect(201);
  });
});
