import { jest } from '@jest/globals';
import { type INestApplication, Logger } from '@nestjs/common';
import { context, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';

import type { PlatformRequest, PrismaClientLike, ServerErrorListener } from '../../lib/index.js';
import { type CollectedTelemetry, parentIdOf, useTelemetry } from '../support/telemetry-collector.js';
import { testPlatform, useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';
import { sendTogether, type TogetherRequest } from '../support/together.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The server span an HTTP instrumentation would make: the module's spans must be its children. */
const httpSpans: Span[] = [];
function withHttpServerSpan(app: INestApplication): void {
  const tracer = trace.getTracer('test-http');
  const begin = (response: { on(event: 'finish', done: () => void): unknown }, next: () => void) => {
    const span = tracer.startSpan('HTTP server');
    httpSpans.push(span);
    response.on('finish', () => span.end());
    context.with(trace.setSpan(context.active(), span), next);
  };
  const instance = app.getHttpAdapter().getInstance();
  if (testPlatform() === 'fastify') {
    instance.addHook('onRequest', (_request: unknown, reply: { raw: never }, done: () => void) =>
      begin(reply.raw, done),
    );
  } else {
    instance.use((_request: unknown, response: never, next: () => void) => begin(response, next));
  }
}

/** The one span of `spans` named `name` (the newest, when there are several). */
function spanNamed(spans: ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name).at(-1);
  if (!found) throw new Error(`No span "${name}" among ${spans.map((span) => span.name).join(', ')}`);
  return found;
}

const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan) =>
  spans.filter((span) => parentIdOf(span) === parent.spanContext().spanId);

/** Whether `span` is `ancestor` or below it. */
function isUnder(spans: ReadableSpan[], span: ReadableSpan, ancestor: ReadableSpan): boolean {
  const byId = new Map(spans.map((candidate) => [candidate.spanContext().spanId, candidate]));
  for (let current: ReadableSpan | undefined = span; current; current = byId.get(parentIdOf(current) ?? '')) {
    if (current === ancestor) return true;
  }
  return false;
}

/** The attributes naming what a request was. */
const scope = (api: string, model: string, operation: string) => ({
  'crud_api.interface': api,
  'crud_api.model': model,
  'crud_api.operation': operation,
});

async function metricPoint(telemetry: CollectedTelemetry, name: string, attributes: Record<string, unknown>) {
  const points = await telemetry.metrics();
  return points.find(
    (point) =>
      point.name === name && Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
  );
}

describe.each(testProviders())('OpenTelemetry traces and metrics (%s)', (provider) => {
  const telemetry = useTelemetry();
  const t = useTestApp(provider, {
    options: {
      defaultPolicy: 'allow',
      policies: { Post: { read: true, create: true } },
      rules: { Post: { beforeCreate: async () => undefined } },
    },
    configure: withHttpServerSpan,
    seed: ({ db }) => db.prisma.user.create({ data: { id: 1, email: 'ada@example.com', name: 'Ada' } }),
  });

  it('traces a REST request: parse, policies with Prisma under them, serialization', async () => {
    const res = await t.http().get('/api/rest/post').expect(200);
    const spans = telemetry.spans();
    const request = spanNamed(spans, 'rest list Post');
    expect(request.attributes).toMatchObject({
      ...scope('rest', 'Post', 'list'),
      'crud_api.request.id': res.headers['x-request-id'],
      'http.request.method': 'GET',
      'http.route': '/api/rest/:type',
      'http.response.status_code': 200,
    });
    expect(request.status.code).toBe(SpanStatusCode.UNSET);
    expect(parentIdOf(request)).toBe(httpSpans.at(-1)!.spanContext().spanId);
    const children = childrenOf(spans, request).map((span) => span.name);
    expect(children).toEqual(expect.arrayContaining(['crud_api.parse', 'crud_api.policy', 'crud_api.serialize']));
    const policy = childrenOf(spans, request).find((span) => span.name === 'crud_api.policy')!;
    expect(policy.attributes).toMatchObject({ 'crud_api.model': 'Post', 'crud_api.operation': 'findMany' });
    const prisma = spans.filter((span) => span.name.startsWith('prisma:') && isUnder(spans, span, policy));
    expect(prisma.map((span) => span.name)).toContain('prisma:client:operation');
    const inTrace = spans.filter((span) => span.spanContext().traceId === request.spanContext().traceId);
    expect(inTrace.filter((span) => span.name.startsWith('prisma:') && !isUnder(spans, span, request))).toEqual([]);
  });

  let base = '';
  const together = sendTogether(() => base);

  it("gives each GET that shares a read its own request span, and the read's spans to the first", async () => {
    if (!base) {
      await t.app.listen(0, '127.0.0.1');
      base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    }
    const list: TogetherRequest = { path: '/api/rest/post?sort=id', headers: { Accept: 'application/vnd.api+json' } };
    const answers = await together(Array<TogetherRequest>(4).fill(list));
    const spans = telemetry.spans();
    const ids = answers.map((answer) => answer.headers['x-request-id']);
    expect(new Set(ids).size).toBe(4);
    const requests = ids.map((id) => spans.find((span) => span.attributes['crud_api.request.id'] === id)!);
    for (const request of requests) {
      expect(request.attributes).toMatchObject({ ...scope('rest', 'Post', 'list'), 'http.response.status_code': 200 });
    }
    const reading = requests.filter((request) =>
      childrenOf(spans, request).some((span) => span.name === 'crud_api.policy'),
    );
    expect(reading.length).toBeGreaterThanOrEqual(1);
    expect(reading.length).toBeLessThan(requests.length);
  });

  it('traces an RPC write: parse, policies, rules, Prisma, serialization', async () => {
    await t
      .http()
      .post('/api/rpc/post/create')
      .send({ data: { title: 'Traced', authorId: 1 } })
      .expect(201);
    const spans = telemetry.spans();
    const request = spanNamed(spans, 'rpc create Post');
    expect(request.attributes).toMatchObject({
      ...scope('rpc', 'Post', 'create'),
      'http.route': '/api/rpc/:model/:operation',
      'http.response.status_code': 201,
    });
    const children = childrenOf(spans, request);
    expect(children.map((span) => span.name)).toEqual(
      expect.arrayContaining(['crud_api.parse', 'crud_api.policy', 'crud_api.serialize']),
    );
    const policy = children.find((span) => span.name === 'crud_api.policy')!;
    expect(spans.some((span) => span.name === 'crud_api.rules' && isUnder(spans, span, policy))).toBe(true);
    expect(spans.some((span) => span.name === 'prisma:client:operation' && isUnder(spans, span, policy))).toBe(true);
  });

  it('traces an RPC transaction as $transaction', async () => {
    await t
      .http()
      .post('/api/rpc/$transaction/sequential')
      .send([{ model: 'Post', op: 'count', args: {} }])
      .expect(200);
    const request = spanNamed(telemetry.spans(), 'rpc $transaction');
    expect(request.attributes).toMatchObject({
      'crud_api.operation': '$transaction',
      'http.response.status_code': 200,
    });
  });

  it('traces and counts a request failed before routing (a malformed body)', async () => {
    const res = await t
      .http()
      .post('/api/rest/post')
      .set('Content-Type', 'application/vnd.api+json')
      .send('{"data":')
      .expect(400);
    expect(res.headers['x-request-id']).toMatch(UUID);
    const request = telemetry
      .spans()
      .find((span) => span.attributes['crud_api.request.id'] === res.headers['x-request-id']);
    expect(request?.attributes).toMatchObject({
      'crud_api.interface': 'rest',
      'http.response.status_code': 400,
      'crud_api.error.code': 'malformed-json',
    });
    expect(request?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('counts requests by interface, model, operation and status, with their duration', async () => {
    await t.http().get('/api/rest/post').expect(200);
    const attributes = { ...scope('rest', 'Post', 'list'), 'http.response.status_code': 200 };
    expect((await metricPoint(telemetry, 'crud_api.requests', attributes))?.value).toBeGreaterThanOrEqual(2);
    const duration = await metricPoint(telemetry, 'crud_api.request.duration', attributes);
    expect((duration?.value as { count: number }).count).toBeGreaterThanOrEqual(2);
    await t.http().get('/api/rest/nope').expect(404);
    expect(
      await metricPoint(telemetry, 'crud_api.requests', {
        'crud_api.interface': 'rest',
        'crud_api.operation': 'list',
        'http.response.status_code': 404,
      }),
    ).toMatchObject({ value: 1 });
  });

  it('counts database errors by the code they are answered with and Prisma code', async () => {
    const duplicate = { data: { email: 'ada@example.com', name: 'Ada again' } };
    await t.http().post('/api/rpc/user/create').send(duplicate).expect(400);
    const point = await metricPoint(telemetry, 'crud_api.database.errors', {
      ...scope('rpc', 'User', 'create'),
      'crud_api.error.code': 'constraint-violation',
    });
    expect(point?.value).toBe(1);
    expect(point?.attributes['crud_api.prisma.code']).toMatch(/^P\d{4}$/);
    // The module's own refusals are not the database's.
    await t.http().get('/api/rpc/post/findMany?q=nope').expect(400);
    const points = await telemetry.metrics();
    expect(points.filter((candidate) => candidate.name === 'crud_api.database.errors')).toHaveLength(1);
  });
});

const spyOnLoggerError = () => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);

/** Every query of a request carrying `x-fail` throws an unexpected error. */
function failingOn(base: PrismaClientLike) {
  return (request: PlatformRequest): PrismaClientLike =>
    request.headers['x-fail'] === undefined
      ? base
      : base.$extends({
          query: {
            $allModels: {
              $allOperations: () => {
                throw new Error('secret internals');
              },
            },
          },
        });
}

describe.each(testProviders())('request ids and the onServerError hook (%s)', (provider) => {
  const telemetry = useTelemetry();
  const onServerError = jest.fn<ServerErrorListener>();
  let base: PrismaClientLike | undefined;
  const t = useTestApp(provider, {
    options: { onServerError, getPrisma: (request: PlatformRequest) => failingOn(base!)(request) },
    seed: async ({ db }) => {
      base = db.prisma;
    },
  });
  let logged: ReturnType<typeof spyOnLoggerError>;
  beforeEach(() => {
    onServerError.mockReset();
    logged = spyOnLoggerError();
  });
  afterEach(() => logged.mockRestore());

  it.each([
    ['REST', '/api/rest/post', 'rest', 'list'],
    ['RPC', '/api/rpc/post/findMany', 'rpc', 'findMany'],
  ])('reports a 5xx on %s with the request id of its header and log line', async (_label, path, api, operation) => {
    const res = await t.http().get(path).set('x-fail', '1').expect(500);
    const requestId = res.headers['x-request-id'];
    expect(requestId).toMatch(UUID);
    expect(onServerError).toHaveBeenCalledTimes(1);
    const [error, info] = onServerError.mock.calls[0]!;
    expect((error as Error).message).toBe('secret internals');
    expect(info).toMatchObject({
      requestId,
      interface: api,
      model: 'Post',
      operation,
      status: 500,
      code: 'internal-error',
    });
    expect(info.request.headers['x-fail']).toBe('1');
    expect(logged.mock.calls.some(([message]) => String(message).includes(`(request ${requestId})`))).toBe(true);
    const span = telemetry.spans().find((candidate) => candidate.attributes['crud_api.request.id'] === requestId)!;
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('internal-error');
    expect(span.events.map((event) => event.name)).toContain('exception');
  });

  it('is not called for a 4xx, which still carries a request id', async () => {
    const res = await t.http().get('/api/rest/nope').expect(404);
    expect(res.headers['x-request-id']).toMatch(UUID);
    await t.http().get('/api/rpc/post/findMany?q=nope').expect(400);
    expect(onServerError).not.toHaveBeenCalled();
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('reporter down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('reporter down'))],
  ])('changes nothing of the answer when it %s, and is logged', async (_label, failure) => {
    const expected = await t.http().get('/api/rest/post').set('x-fail', '1').expect(500);
    onServerError.mockImplementation(failure);
    const res = await t.http().get('/api/rest/post').set('x-fail', '1').expect(500);
    expect(res.body).toEqual(expected.body);
    await new Promise((resolve) => setImmediate(resolve));
    const requestId = res.headers['x-request-id'];
    expect(
      logged.mock.calls.some(
        ([message]) => String(message) === `onServerError failed for request ${requestId}: Error: reporter down`,
      ),
    ).toBe(true);
  });

  it('answers every request with its id: a well-formed incoming one, else a new UUID', async () => {
    const characters = [...'abcXYZ0189._-', ' ', '/', ':', '+', '@', '!'];
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.constantFrom(...characters), maxLength: 140 }), async (given) => {
        const res = await t.http().get('/api/rpc/post/count').set('X-Request-Id', given).expect(200);
        // HTTP drops the whitespace around a header value.
        const sent = given.trim();
        const wellFormed = /^[A-Za-z0-9._-]{1,128}$/.test(sent);
        expect(res.headers['x-request-id']).toEqual(wellFormed ? sent : expect.stringMatching(UUID));
      }),
      { seed: 26, numRuns: 40 },
    );
  });

  it('hands an incoming id to the hook', async () => {
    await t.http().get('/api/rest/post').set('x-fail', '1').set('X-Request-Id', 'edge-7f3a.1').expect(500);
    expect(onServerError.mock.calls[0]![1]).toMatchObject({ requestId: 'edge-7f3a.1' });
  });
});
