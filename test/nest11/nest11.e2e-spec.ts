import { expectJsonApiError } from '../support/json-api-expect.js';
import { callRpc } from '../support/rpc-client.js';
import { type Nest11Bootstrap, type RunningNest11App, startNest11App } from './nest11-app-process.js';
import { prepareNest11App } from './prepare-nest11-app.js';

// A real Nest 11 application compiled to CommonJS (test/nest11-app), installing the packed library
// from its own package: the first run installs it from the registry (minutes), later runs reuse it.
const PREPARE_TIMEOUT_MS = 15 * 60_000;
let prepared: Promise<boolean> | undefined;

const JSON_API = 'application/vnd.api+json';
const MALFORMED = '{"data": {';
const AS_USER_1 = { 'x-user-id': '1' };

const bootstraps: Nest11Bootstrap[] = [
  { platform: 'express', bootstrap: 'factory' },
  { platform: 'fastify', bootstrap: 'factory' },
  { platform: 'express', bootstrap: 'testing' },
  { platform: 'fastify', bootstrap: 'testing' },
];

describe.each(bootstraps)('Nest 11 (CommonJS) application on $platform, created by $bootstrap', (bootstrap) => {
  let app: RunningNest11App;
  const asUser1 = { http: () => app.http(AS_USER_1) };

  beforeAll(async () => {
    prepared ??= prepareNest11App();
    await prepared;
    app = await startNest11App(bootstrap);
    const author = await app
      .http()
      .post('/api/rest/user')
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'user', attributes: { email: 'ada@example.com', name: 'Ada' } } });
    expect(author.status).toBe(201);
  }, PREPARE_TIMEOUT_MS);

  afterAll(() => app?.stop());

  it('REST: writes and reads JSON:API documents', async () => {
    const created = await app
      .http()
      .post('/api/rest/post')
      .set(AS_USER_1)
      .set('Content-Type', `${JSON_API}; profile="https://example.com/profile"`)
      .send({
        data: {
          type: 'post',
          attributes: { title: 'Hello', published: true },
          relationships: { author: { data: { type: 'user', id: '1' } } },
        },
      });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe(JSON_API);

    const read = await app.http().get(`/api/rest/post/${created.body.data.id}?include=author`);
    expect(read.status).toBe(200);
    expect(read.body.data.attributes).toMatchObject({ title: 'Hello', published: true });
    expect(read.body.included).toEqual([
      expect.objectContaining({ type: 'user', attributes: { email: 'ada@example.com', name: 'Ada' } }),
    ]);
  });

  it('RPC: writes and reads with superjson types', async () => {
    const createdAt = new Date('2020-01-02T03:04:05.678Z');
    const created = await callRpc(app, 'post', 'post/create', { data: { title: 'Dated', authorId: 1, createdAt } });
    expect(created.status).toBe(403);

    const allowed = await callRpc(asUser1, 'post', 'post/create', { data: { title: 'Dated', authorId: 1, createdAt } });
    expect(allowed.status).toBe(201);
    const read = await callRpc(asUser1, 'get', 'post/findUnique', { where: { id: allowed.data.id } });
    expect(read.status).toBe(200);
    expect(read.data).toMatchObject({ title: 'Dated', createdAt });
    expect(read.data.createdAt).toBeInstanceOf(Date);
  });

  it('answers each interface in its error format', async () => {
    expectJsonApiError(await app.http().get('/api/rest/nothing'), 404, 'unknown-type');
    const wrongMethod = await callRpc(app, 'get', 'post/create');
    // The specification's status for a wrong method is 400.
    expect({ status: wrongMethod.status, allow: wrongMethod.headers.allow, body: wrongMethod.body }).toEqual({
      status: 400,
      allow: 'POST',
      body: { error: { message: 'Operation "create" accepts POST, not GET.', errorCode: 'method-not-allowed' } },
    });
  });

  it('refuses what the policies refuse, in the API and in a hand-written controller', async () => {
    const rest = await app
      .http()
      .post('/api/rest/post')
      .set('Content-Type', JSON_API)
      .send({
        data: {
          type: 'post',
          attributes: { title: 'Anonymous' },
          relationships: { author: { data: { type: 'user', id: '1' } } },
        },
      });
    expectJsonApiError(rest, 403, 'rejected-by-policy');
    expect(rest.body.errors[0].meta).toEqual({ reason: 'ACCESS_POLICY_VIOLATION' });

    const rpc = await callRpc(app, 'post', 'post/create', { data: { title: 'Anonymous', authorId: 1 } });
    expect(rpc).toMatchObject({
      status: 403,
      body: { error: { errorCode: 'rejected-by-policy', rejectedByPolicy: true, reason: 'ACCESS_POLICY_VIOLATION' } },
    });

    const handWritten = await app.http().post('/drafts').send({ title: 'Anonymous', authorId: 1 });
    expect({ status: handWritten.status, body: handWritten.body }).toEqual({
      status: 403,
      body: { statusCode: 403, message: rpc.body.error.message },
    });
  });

  it.each(['application/json', JSON_API])(
    'answers malformed %s with malformed-json on both interfaces',
    async (contentType) => {
      expectJsonApiError(
        await app.http().post('/api/rest/post').set(AS_USER_1).set('Content-Type', contentType).send(MALFORMED),
        400,
        'malformed-json',
      );
      if (contentType !== 'application/json') return;
      const rpc = await app
        .http()
        .post('/api/rpc/post/create')
        .set(AS_USER_1)
        .set('Content-Type', contentType)
        .send(MALFORMED);
      expect({ status: rpc.status, type: rpc.headers['content-type'], body: rpc.body }).toEqual({
        status: 400,
        type: 'application/json',
        body: { error: { message: 'The request body is not valid JSON.', errorCode: 'malformed-json' } },
      });
    },
  );

  it('applies bodyLimit (10kb here) to both interfaces', async () => {
    const title = 'x'.repeat(20 * 1024);
    const rest = await app
      .http()
      .post('/api/rest/post')
      .set(AS_USER_1)
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'post', attributes: { title } } });
    expectJsonApiError(rest, 413, 'payload-too-large');
    const rpc = await callRpc(asUser1, 'post', 'post/create', { data: { title, authorId: 1 } });
    expect(rpc.status).toBe(413);
    expect(rpc.body).toEqual({
      error: { message: expect.stringContaining('10240 bytes'), errorCode: 'payload-too-large' },
    });
  });
});
