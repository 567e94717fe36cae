import { jest } from '@jest/globals';
import { Controller, Get, type INestApplication, Logger, VERSION_NEUTRAL, VersioningType } from '@nestjs/common';

import { TEST_ENDPOINT, useTestApp } from '../support/test-app.js';

// Where Nest serves the module is a matter of routing alone: one database is enough.
const PROVIDER = 'sqlite';
const JSON_API = 'application/vnd.api+json';
const BODY_LIMIT = 2048;

/** The application's own controller, versioned like the rest of the application. */
@Controller('own')
class OwnController {
  @Get()
  ping() {
    return { own: true };
  }
}

interface Routing {
  name: string;
  configure: (app: INestApplication) => void;
  /** Where each interface and the documents are served. */
  rest: string;
  rpc: string;
  docs: string;
  /** What selects the version on every request. */
  headers: Record<string, string>;
}

const ROUTINGS: Routing[] = [
  {
    name: 'URI versioning',
    configure: (app) => app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' }),
    rest: '/v1/api/rest',
    rpc: '/v1/api/rpc',
    docs: '/v1/api/docs',
    headers: {},
  },
  {
    name: 'URI versioning under a global prefix',
    configure: (app) => {
      app.setGlobalPrefix('app');
      app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
    },
    rest: '/app/v1/api/rest',
    rpc: '/app/v1/api/rpc',
    docs: '/app/v1/api/docs',
    headers: {},
  },
  {
    name: "the global prefix 'api', which the default paths do not repeat",
    configure: (app) => app.setGlobalPrefix('api'),
    rest: '/api/rest',
    rpc: '/api/rpc',
    docs: '/api/docs',
    headers: {},
  },
  {
    name: "the global prefix 'api' and URI versioning",
    configure: (app) => {
      app.setGlobalPrefix('api');
      app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
    },
    rest: '/api/v1/rest',
    rpc: '/api/v1/rpc',
    docs: '/api/v1/docs',
    headers: {},
  },
  {
    name: 'header versioning',
    configure: (app) =>
      app.enableVersioning({ type: VersioningType.HEADER, header: 'X-Api-Version', defaultVersion: '1' }),
    rest: '/api/rest',
    rpc: '/api/rpc',
    docs: '/api/docs',
    headers: { 'X-Api-Version': '1' },
  },
  {
    name: 'media type versioning',
    configure: (app) => app.enableVersioning({ type: VersioningType.MEDIA_TYPE, key: 'v=', defaultVersion: '1' }),
    rest: '/api/rest',
    rpc: '/api/rpc',
    docs: '/api/docs',
    // Nest reads the version from the first parameter; JSON:API wants its own media type unmodified.
    headers: { Accept: `${JSON_API}, */*;v=1` },
  },
  {
    name: 'a global prefix excluding the REST routes',
    configure: (app) => app.setGlobalPrefix('app', { exclude: ['api/rest/{*path}'] }),
    rest: '/api/rest',
    rpc: '/app/api/rpc',
    docs: '/app/api/docs',
    headers: {},
  },
];

describe.each(ROUTINGS)('the module under $name', (routing) => {
  const t = useTestApp(PROVIDER, {
    options: { bodyLimit: BODY_LIMIT },
    metadata: { controllers: [OwnController] },
    configure: routing.configure,
  });
  const oversized = 'x'.repeat(BODY_LIMIT * 2);

  it('parses the bodies of both interfaces where Nest serves them', async () => {
    const created = await t
      .http()
      .post(`${routing.rest}/tag`)
      .set(routing.headers)
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'tag', attributes: { name: `rest ${routing.name}` } } })
      .expect(201);
    expect(created.body.data.attributes.name).toBe(`rest ${routing.name}`);
    await t
      .http()
      .post(`${routing.rpc}/tag/create`)
      .set(routing.headers)
      .send({ data: { name: `rpc ${routing.name}` } })
      .expect(201);
    expect(await t.db.prisma.tag.count({ where: { name: { endsWith: routing.name } } })).toBe(2);
  });

  it('holds bodies to bodyLimit, answering 413 in each interface’s format', async () => {
    const rest = await t
      .http()
      .post(`${routing.rest}/tag`)
      .set(routing.headers)
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'tag', attributes: { name: oversized } } })
      .expect(413);
    expect(rest.headers['content-type']).toBe(JSON_API);
    expect(rest.body.errors[0]).toMatchObject({ status: '413', code: 'payload-too-large' });
    const rpc = await t
      .http()
      .post(`${routing.rpc}/tag/create`)
      .set(routing.headers)
      .send({ data: { name: oversized } })
      .expect(413);
    expect(rpc.body.error).toMatchObject({ errorCode: 'payload-too-large' });
    expect(await t.db.prisma.tag.count({ where: { name: oversized } })).toBe(0);
  });

  it('answers malformed JSON in each interface’s format', async () => {
    const rest = await t
      .http()
      .post(`${routing.rest}/tag`)
      .set(routing.headers)
      .set('Content-Type', JSON_API)
      .send('{"data":')
      .expect(400);
    expect(rest.headers['content-type']).toBe(JSON_API);
    expect(rest.body.errors[0]).toMatchObject({ code: 'malformed-json' });
    expect(rest.body.links.self).toBe(`${TEST_ENDPOINT}/tag`);
    const rpc = await t
      .http()
      .post(`${routing.rpc}/tag/create`)
      .set(routing.headers)
      .set('Content-Type', 'application/json')
      .send('{"data":')
      .expect(400);
    expect(rpc.body.error).toMatchObject({ errorCode: 'malformed-json' });
  });

  it('documents the paths where Nest serves them', async () => {
    for (const kind of ['rest', 'rpc'] as const) {
      const document = await t.http().get(`${routing.docs}/${kind}.json`).set(routing.headers).expect(200);
      const paths = Object.keys(document.body.paths);
      expect(paths.length).toBeGreaterThan(0);
      expect(paths.filter((path) => !path.startsWith(`${routing[kind]}/`))).toEqual([]);
    }
  });
});

describe('the version option', () => {
  describe('VERSION_NEUTRAL under URI versioning', () => {
    const t = useTestApp(PROVIDER, {
      options: { version: VERSION_NEUTRAL },
      metadata: { controllers: [OwnController] },
      configure: (app) => app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' }),
    });

    it('keeps the module’s paths while the application’s move below the version', async () => {
      await t.http().get('/v1/own').expect(200);
      await t.http().get('/own').expect(404);
      await t
        .http()
        .post('/api/rest/tag')
        .set('Content-Type', JSON_API)
        .send({ data: { type: 'tag', attributes: { name: 'neutral' } } })
        .expect(201);
      await t.http().get('/v1/api/rest/tag').expect(404);
      const paths = Object.keys((await t.http().get('/api/docs/rest.json').expect(200)).body.paths);
      expect(paths.every((path) => path.startsWith('/api/rest/'))).toBe(true);
    });
  });

  describe('a list of versions under URI versioning', () => {
    const t = useTestApp(PROVIDER, {
      options: { version: ['2', '3'] },
      configure: (app) => app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' }),
    });

    it('serves and parses below each version, and documents the first', async () => {
      for (const version of ['v2', 'v3']) {
        await t
          .http()
          .post(`/${version}/api/rpc/tag/create`)
          .set('Content-Type', 'application/json')
          .send('{"data":')
          .expect(400)
          .expect(({ body }) => expect(body.error).toMatchObject({ errorCode: 'malformed-json' }));
        await t
          .http()
          .post(`/${version}/api/rest/tag`)
          .set('Content-Type', JSON_API)
          .send({ data: { type: 'tag', attributes: { name: version } } })
          .expect(201);
      }
      await t.http().get('/v1/api/rest/tag').expect(404);
      const paths = Object.keys((await t.http().get('/v2/api/docs/rpc.json').expect(200)).body.paths);
      expect(paths.every((path) => path.startsWith('/v2/api/rpc/'))).toBe(true);
    });
  });
});

describe('mount paths given explicitly under the global prefix api', () => {
  const t = useTestApp(PROVIDER, {
    options: { restPath: 'api/rest', rpcPath: 'api/rpc', openapi: { path: 'api/docs' } },
    configure: (app) => app.setGlobalPrefix('api'),
  });

  it('are served as given', async () => {
    await t.http().get('/api/api/rest/tag').expect(200);
    await t.http().get('/api/api/rpc/tag/count').expect(200);
    await t.http().get('/api/api/docs/rest.json').expect(200);
    await t.http().get('/api/rest/tag').expect(404);
  });
});

const URI_VERSIONING = (app: INestApplication) =>
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });

describe.each([
  { endpoint: TEST_ENDPOINT, versioning: 'URI', configure: URI_VERSIONING, warns: true },
  { endpoint: 'http://localhost/v1/api/rest', versioning: 'URI', configure: URI_VERSIONING, warns: false },
  // Behind a proxy that serves the API below a path of its own.
  { endpoint: 'https://example.com/shop/v1/api/rest/', versioning: 'URI', configure: URI_VERSIONING, warns: false },
  {
    endpoint: TEST_ENDPOINT,
    versioning: 'header',
    configure: (app: INestApplication) =>
      app.enableVersioning({ type: VersioningType.HEADER, header: 'X-Api-Version', defaultVersion: '1' }),
    warns: false,
  },
])('endpoint $endpoint under $versioning versioning', ({ endpoint, configure, warns }) => {
  let warn: jest.Spied<Logger['warn']>;
  beforeAll(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  const t = useTestApp(PROVIDER, { options: { endpoint }, configure });
  afterAll(() => warn.mockRestore());

  it(warns ? 'is warned about once at start-up, with both paths' : 'is not warned about', async () => {
    await t.http().get('/v1/api/rest/tag').set('X-Api-Version', '1');
    const messages = warn.mock.calls.map(([message]) => String(message)).filter((text) => text.includes('endpoint'));
    expect(messages).toEqual(
      warns
        ? [
            'endpoint http://localhost/api/rest does not end with the path URI versioning serves the REST routes at ' +
              '(/v1/api/rest): the JSON:API links built from it miss the version. ' +
              'Give endpoint that path, as in http://localhost/v1/api/rest.',
          ]
        : [],
    );
  });
});
