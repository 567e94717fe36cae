import { PrismaClientKnownRequestError } from '@prisma/client/runtime/client';

import { callRpc } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

/** Nothing of Prisma's developer dump, a stack or a file path may reach the client. */
function expectNoInternals(body: unknown): void {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/invocation|prisma\.|\bat .+:\d+|\/work\/|node_modules|\.ts\b|SELECT|\\n/i);
}

describe.each(testProviders())('RPC errors (%s)', (provider) => {
  const t = useTestApp(provider, {
    seed: async () => {
      await t.db.prisma.user.create({ data: { email: 'taken@example.com', name: 'Taken' } });
    },
  });

  it('answers 404 for an unknown model', async () => {
    const res = await t.http().get('/api/rpc/nothing/findMany').expect(404);
    expect(res.body).toEqual({ error: { errorCode: 'unknown-type', message: 'Unknown model "nothing".' } });
    await t.http().get('/api/rpc/User/findMany').expect(404);
  });

  it.each([
    'findAll',
    '__proto__',
    'constructor',
    'toString',
    '$queryRaw',
    '$executeRaw',
    '$transaction',
    '$connect',
    'then',
  ])('answers 400 for the operation %s', async (operation) => {
    const res = await t.http().get(`/api/rpc/user/${operation}`).query({ q: '{}' }).expect(400);
    expect(res.body).toEqual({
      error: { errorCode: 'unknown-operation', message: `Unknown operation "${operation}".` },
    });
  });

  it.each([
    ['post', 'user/findMany', 'GET'],
    ['get', 'user/create', 'POST'],
    ['delete', 'user/upsert', 'POST'],
    ['post', 'user/update', 'PATCH, PUT'],
    ['patch', 'user/delete', 'DELETE'],
    ['head', 'user/count', 'GET'],
  ] as const)('answers 400 with Allow for %s %s', async (method, path, allowed) => {
    const res = await t.http()[method](`/api/rpc/${path}`).expect(400);
    expect(res.headers.allow).toBe(allowed);
    if (method !== 'head') {
      const operation = path.split('/')[1];
      expect(res.body).toEqual({
        error: {
          errorCode: 'method-not-allowed',
          message: `Operation "${operation}" accepts ${allowed}, not ${method.toUpperCase()}.`,
        },
      });
    }
  });

  it.each([
    [{ q: '{"where":' }, 'malformed-json', 'Query parameter "q" is not valid JSON.'],
    [{ q: '{}', meta: '{serialization' }, 'malformed-json', 'Query parameter "meta" is not valid JSON.'],
    [{ q: '"text"' }, 'invalid-query-parameter', 'Query parameter "q" must be a JSON object of query arguments.'],
    [
      { q: '{}', meta: '[]' },
      'invalid-query-parameter',
      'Query parameter "meta" must be an object { "serialization": <superjson meta> }.',
    ],
    [
      { q: '{"where":{"id":"x"}}', meta: '{"serialization":{"values":{"where.id":[["custom","Nope"]]}}}' },
      'invalid-query-parameter',
      'Query parameter "meta" names the type "["custom","Nope"]", which the RPC interface does not accept (only Date, bigint, undefined, Decimal and Bytes).',
    ],
  ])('answers 400 for the query %j', async (query, errorCode, message) => {
    const res = await t.http().get('/api/rpc/user/findMany').query(query).expect(400);
    expect(res.body).toEqual({ error: { message, errorCode } });
  });

  it('answers 400 for a malformed body and a malformed body meta', async () => {
    const malformed = await t
      .http()
      .post('/api/rpc/user/create')
      .set('Content-Type', 'application/json')
      .send('{"data":')
      .expect(400);
    expect(malformed.body).toEqual({
      error: { errorCode: 'malformed-json', message: 'The request body is not valid JSON.' },
    });
    const array = await t
      .http()
      .post('/api/rpc/user/create')
      .send([{ email: 'x' }])
      .expect(400);
    expect(array.body).toEqual({
      error: { errorCode: 'invalid-payload', message: 'The request body must be a JSON object of query arguments.' },
    });
    const meta = await t
      .http()
      .post('/api/rpc/user/create')
      .send({ data: {}, meta: { values: {} } })
      .expect(400);
    expect(meta.body).toEqual({
      error: {
        errorCode: 'invalid-payload',
        message: 'The body field "meta" must be an object { "serialization": <superjson meta> }.',
      },
    });
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await t.http().post('/api/rpc/user/create').type('form').send('data[email]=x').expect(415);
    expect(res.body).toEqual({
      error: { errorCode: 'unsupported-media-type', message: 'The request body must be application/json.' },
    });
  });

  it('answers 400 with orm and code for a unique constraint violation (P2002)', async () => {
    const reply = await callRpc(t, 'post', 'user/create', { data: { email: 'taken@example.com', name: 'Again' } });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      error: {
        errorCode: 'constraint-violation',
        message: 'A record with the same unique value already exists.',
        orm: true,
        code: 'P2002',
      },
    });
  });

  it('answers 404 with orm and code when the record does not exist (P2025)', async () => {
    const update = await callRpc(t, 'patch', 'user/update', { where: { id: 12345 }, data: { name: 'Nobody' } });
    expect(update.status).toBe(404);
    expect(update.body.error).toMatchObject({ orm: true, code: 'P2025' });
    expectNoInternals(update.body);
    const find = await callRpc(t, 'get', 'user/findUniqueOrThrow', { where: { id: 12345 } });
    expect(find.status).toBe(404);
    expect(find.body.error).toMatchObject({ orm: true, code: 'P2025' });
    const remove = await callRpc(t, 'delete', 'user/delete', { where: { id: 12345 } });
    expect(remove.status).toBe(404);
  });

  it('answers 400 with a short message for a Prisma validation error', async () => {
    const unknownField = await callRpc(t, 'get', 'user/findMany', { where: { nope: 1 } });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body).toEqual({
      error: { errorCode: 'invalid-argument', message: 'Invalid argument at "/where/nope": unknown key "nope".' },
    });
    const missing = await callRpc(t, 'post', 'user/create');
    expect(missing.status).toBe(400);
    expectNoInternals(missing.body);
    const wrongType = await callRpc(t, 'get', 'post/findMany', { take: 'many' });
    expect(wrongType.status).toBe(400);
    expect(Object.keys(wrongType.body.error)).toEqual(['message', 'errorCode']);
    expectNoInternals(wrongType.body);
  });
});

describe.each(testProviders())('RPC options (%s)', (provider) => {
  const t = useTestApp(provider, {
    options: {
      models: ['User', 'Post', 'Tag'],
      operations: { post: { readOnly: true }, Tag: { exclude: ['deleteMany', 'createManyAndReturn'] } },
      maxTake: 2,
    },
    seed: async () => {
      const user = await t.db.prisma.user.create({ data: { email: 'a@example.com', name: 'A' } });
      for (let i = 0; i < 4; i++) await t.db.prisma.post.create({ data: { title: `P${i}`, authorId: user.id } });
      await t.db.prisma.tag.createMany({ data: [{ name: 't1' }, { name: 't2' }, { name: 't3' }] });
    },
  });

  it('answers 404 for a model that is not exposed', async () => {
    const res = await t.http().get('/api/rpc/comment/findMany').expect(404);
    expect(res.body).toEqual({ error: { errorCode: 'unknown-type', message: 'Unknown model "comment".' } });
  });

  it.each([
    ['post', 'post/create'],
    ['patch', 'post/update'],
    ['delete', 'tag/deleteMany'],
    ['post', 'tag/createManyAndReturn'],
  ] as const)('answers 400 for %s %s, which the operations option removes', async (method, path) => {
    const reply = await callRpc(t, method, path, {});
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      error: {
        errorCode: 'unknown-operation',
        message: `Operation "${path.split('/')[1]}" is not available for this model.`,
      },
    });
  });

  it('still serves the operations the option leaves', async () => {
    expect((await callRpc(t, 'get', 'post/count')).body).toEqual({ data: 4 });
    expect((await callRpc(t, 'delete', 'tag/delete', { where: { name: 't3' } })).status).toBe(200);
  });

  it('caps take with maxTake, fills a missing take on findMany and limits included lists', async () => {
    expect((await callRpc(t, 'get', 'post/findMany')).data).toHaveLength(2);
    expect((await callRpc(t, 'get', 'post/findMany', { take: 100 })).data).toHaveLength(2);
    const backwards = await callRpc(t, 'get', 'post/findMany', {
      take: -100,
      orderBy: { id: 'asc' },
      select: { title: true },
    });
    expect(backwards.data).toEqual([{ title: 'P2' }, { title: 'P3' }]);
    expect((await callRpc(t, 'get', 'post/count', { take: 100 })).data).toBe(2);
    const users = await callRpc(t, 'get', 'user/findMany', { include: { posts: true } });
    expect(users.data[0].posts).toHaveLength(2);
    expect((await callRpc(t, 'get', 'post/findFirst', { orderBy: { id: 'desc' } })).data.title).toBe('P3');
  });
});

describe.each(testProviders())('RPC errors of a per-request client (%s)', (provider) => {
  const logged: string[] = [];
  const failing = {
    user: {
      findMany: () => Promise.reject(new Error('connect ECONNREFUSED at /srv/app/db.ts:12:3')),
      create: () =>
        Promise.reject(
          new PrismaClientKnownRequestError('denied by policy', {
            code: 'P2004',
            clientVersion: '7.10.0',
            meta: { reason: 'RESULT_NOT_READABLE' },
          }),
        ),
    },
  };
  const t = useTestApp(provider, {
    options: { getPrisma: () => failing as never },
    configure: (app) =>
      app.useLogger({
        log() {},
        warn() {},
        error: (...parts: unknown[]) => logged.push(parts.map(String).join(' ')),
      }),
  });

  it('answers 500 with a generic message and logs the real error', async () => {
    const res = await t.http().get('/api/rpc/user/findMany').expect(500);
    expect(res.body).toEqual({ error: { errorCode: 'internal-error', message: 'An unexpected error occurred.' } });
    expect(logged.join('\n')).toContain('ECONNREFUSED');
  });

  it('answers 403 with rejectedByPolicy and reason for an access-policy rejection', async () => {
    const reply = await callRpc(t, 'post', 'user/create', { data: { email: 'x@example.com', name: 'X' } });
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({
      error: {
        errorCode: 'rejected-by-policy',
        message: 'denied by policy',
        orm: true,
        code: 'P2004',
        rejectedByPolicy: true,
        reason: 'RESULT_NOT_READABLE',
      },
    });
  });
});
