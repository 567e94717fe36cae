import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { Request } from 'express';

import { Prisma } from '../../fixtures/generated/sqlite/prisma/client.js';
import type { PrismaClientLike } from '../../lib/index.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';

/** Prisma's message shape: a call dump with a file path, then the one line that matters. */
function prismaMessage(summary: string): string {
  return `\nInvalid \`prisma.post.findMany()\` invocation in\n/srv/app/src/posts.service.ts:12:7\n\n→ 12 prisma.post.findMany(\n${summary}`;
}

/** What the data layer throws for a request carrying `x-fail-with` (see `failingClient`). */
function failureFor(header: string): Error {
  if (header === 'validation') {
    return new Prisma.PrismaClientValidationError(
      prismaMessage('Unknown argument `nope`. Available options are marked with ?.'),
      {
        clientVersion: Prisma.prismaVersion.client,
      },
    );
  }
  if (header === 'plain') return new Error('secret internals at /etc/x');
  const [code, reason] = header.split(':');
  return new Prisma.PrismaClientKnownRequestError(prismaMessage(`The ${code} summary.`), {
    code: code!,
    clientVersion: Prisma.prismaVersion.client,
    meta: reason ? { reason } : undefined,
  });
}

/** A per-request client, as an application builds one: here every query of a marked request fails. */
function failingClient(base: any) {
  return (req: Request): PrismaClientLike => {
    const header = req.headers['x-fail-with'];
    if (typeof header !== 'string') return base;
    return base.$extends({
      query: {
        $allModels: {
          $allOperations: () => {
            throw failureFor(header);
          },
        },
      },
    });
  };
}

const ROWS: Array<[string, number, string, Record<string, unknown>?]> = [
  ['P2025', 404, 'not-found'],
  ['P2018', 404, 'not-found'],
  ['P2001', 404, 'not-found'],
  ['P2015', 404, 'not-found'],
  ['P2002', 400, 'constraint-violation'],
  ['P2003', 400, 'constraint-violation'],
  ['P2000', 400, 'constraint-violation'],
  ['P2011', 400, 'constraint-violation'],
  ['P2012', 400, 'constraint-violation'],
  ['P2014', 400, 'constraint-violation'],
  [
    'P2004:ACCESS_POLICY_VIOLATION',
    403,
    'rejected-by-policy',
    { rejectedByPolicy: true, reason: 'ACCESS_POLICY_VIOLATION' },
  ],
  ['P2004', 400, 'data-layer-error'],
  ['P2021', 400, 'data-layer-error'],
  ['P1008', 503, 'service-unavailable'],
  ['P2028', 503, 'service-unavailable'],
  ['P2034', 503, 'service-unavailable'],
];

const spyOnLoggerError = () => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);

/** Nothing of the dump: no file path, no call, no stack. */
function expectNoInternals(body: unknown): void {
  expect(JSON.stringify(body)).not.toMatch(/invocation|\/srv|\.ts|→|\bat /);
}

describe.each(testProviders())('data-layer errors (%s)', (provider) => {
  const t = useTestApp(provider, {
    options: { prisma: undefined, getPrisma: (req) => failingClient(t.db.prisma)(req) },
    seed: async () => {
      await t.db.prisma.user.create({ data: { email: 'taken@example.com', name: 'Taken' } });
    },
  });

  describe.each(ROWS)('thrown by a per-request client: %s', (header, status, code, extra = {}) => {
    const ormCode = header.split(':')[0];

    it(`is ${status} on RPC with orm and code`, async () => {
      const res = await t.http().get('/api/rpc/post/findMany').set('x-fail-with', header).expect(status);
      const message = code === 'data-layer-error' ? 'Data layer rejected the request' : `The ${ormCode} summary.`;
      expect(res.body).toEqual({
        error: { message: expect.any(String), errorCode: code, orm: true, code: ormCode, ...extra },
      });
      if (!['P2002', 'P2003', 'P2000', 'P2011', 'P1008', 'P2028', 'P2034'].includes(ormCode!))
        expect(res.body.error.message).toBe(message);
      expectNoInternals(res.body);
    });

    it(`is ${status} on REST as a JSON:API error`, async () => {
      const res = await t.http().get('/api/rest/post').set('x-fail-with', header).expect(status);
      expect(res.headers['content-type']).toBe(JSON_API);
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0]).toMatchObject({ status: String(status), code, meta: { prismaCode: ormCode } });
      if (extra.reason) expect(res.body.errors[0].meta.reason).toBe(extra.reason);
      expectNoInternals(res.body);
    });
  });

  it('answers a validation error with 400 and its one-line summary on both interfaces', async () => {
    const rpc = await t.http().get('/api/rpc/post/findMany').set('x-fail-with', 'validation').expect(400);
    expect(rpc.body).toEqual({ error: { errorCode: 'invalid-argument', message: 'Unknown argument `nope`.' } });
    const rest = await t.http().get('/api/rest/post').set('x-fail-with', 'validation').expect(400);
    expect(rest.body.errors[0]).toMatchObject({
      status: '400',
      code: 'invalid-argument',
      detail: 'Unknown argument `nope`.',
    });
  });

  describe('an unexpected error', () => {
    let logged: ReturnType<typeof spyOnLoggerError>;
    beforeEach(() => {
      logged = spyOnLoggerError();
    });
    afterEach(() => logged.mockRestore());

    it.each([
      [
        'RPC',
        '/api/rpc/post/findMany',
        { error: { message: 'An unexpected error occurred.', errorCode: 'internal-error' } },
      ],
      [
        'REST',
        '/api/rest/post',
        {
          links: { self: 'http://localhost/api/rest/post' },
          errors: [
            {
              status: '500',
              code: 'internal-error',
              title: 'Internal server error',
              detail: 'An unexpected error occurred.',
            },
          ],
        },
      ],
    ])('is a generic 500 on %s, with the real error in the log', async (_label, path, body) => {
      const res = await t.http().get(path).set('x-fail-with', 'plain').expect(500);
      expect(res.body).toEqual(body);
      expect(res.text).not.toContain('secret');
      const [message, stack] = logged.mock.calls.at(-1)!;
      expect(message).toBe(
        `GET ${path} failed (request ${res.headers['x-request-id']}): Error: secret internals at /etc/x`,
      );
      expect(stack).toMatch(/secret internals at \/etc\/x\n\s+at /);
    });
  });

  it('maps real constraint violations and missing records on RPC', async () => {
    const duplicate = await t
      .http()
      .post('/api/rpc/user/create')
      .send({ data: { email: 'taken@example.com', name: 'Again' } })
      .expect(400);
    expect(duplicate.body).toEqual({
      error: {
        errorCode: 'constraint-violation',
        message: 'A record with the same unique value already exists.',
        orm: true,
        code: 'P2002',
      },
    });
    const missing = await t
      .http()
      .put('/api/rpc/user/update')
      .send({ where: { id: 999 }, data: { name: 'x' } })
      .expect(404);
    expect(missing.body.error).toMatchObject({ orm: true, code: 'P2025' });
    expectNoInternals(missing.body);
  });

  it('maps a real constraint violation on REST', async () => {
    const res = await t
      .http()
      .post('/api/rest/user')
      .set('content-type', JSON_API)
      .send({ data: { type: 'user', attributes: { email: 'taken@example.com', name: 'Again' } } })
      .expect(400);
    expect(res.body.errors[0]).toMatchObject({
      status: '400',
      code: 'constraint-violation',
      meta: { prismaCode: 'P2002' },
    });
  });
});

describe.each(testProviders())('the prismaErrorMap option (%s)', (provider) => {
  const t = useTestApp(provider, {
    options: { prismaErrorMap: { P2002: { status: 409, code: 'conflict', message: 'Taken.' } } },
    seed: async () => {
      await t.db.prisma.user.create({ data: { email: 'taken@example.com', name: 'Taken' } });
    },
  });

  it('overrides a default row on both interfaces', async () => {
    const rpc = await t
      .http()
      .post('/api/rpc/user/create')
      .send({ data: { email: 'taken@example.com', name: 'Again' } })
      .expect(409);
    expect(rpc.body).toEqual({ error: { errorCode: 'conflict', message: 'Taken.', orm: true, code: 'P2002' } });
    const rest = await t
      .http()
      .post('/api/rest/user')
      .set('content-type', JSON_API)
      .send({ data: { type: 'user', attributes: { email: 'taken@example.com', name: 'Again' } } })
      .expect(409);
    expect(rest.body.errors[0]).toMatchObject({ status: '409', code: 'conflict', detail: 'Taken.' });
  });

  it('keeps the other default rows', async () => {
    await t
      .http()
      .put('/api/rpc/user/update')
      .send({ where: { id: 999 }, data: { name: 'x' } })
      .expect(404);
  });
});
