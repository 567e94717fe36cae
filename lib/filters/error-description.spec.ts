import { BadRequestException, ForbiddenException, HttpException, InternalServerErrorException } from '@nestjs/common';
import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import mariadb from 'mariadb';
import pg from 'pg';

import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { CrudApiError } from '../errors/crud-api.error.js';
import { describeError, GENERIC_ERROR_MESSAGE, summarizeValidationMessage } from './error-description.js';
import { mergePrismaErrorMap } from './prisma-error-map.js';

const defaults = mergePrismaErrorMap();

/** What no client-facing message may contain: dumps, stack frames, paths, SQL, driver texts. */
function expectClientSafe(message: string): void {
  expect(message).not.toMatch(
    /\n|invocation|\.m?[jt]s\b|\/tmp|\bat .+:\d+|SELECT|INSERT|SQLITE|constraint failed: |→/i,
  );
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the query to fail');
}

function knownError(code: string, message: string, meta?: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { name: 'PrismaClientKnownRequestError', code, meta });
}

describe('describeError with real Prisma errors (sqlite)', () => {
  let db: TestDatabase;
  let prisma: any;
  let userId: number;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    prisma = db.prisma;
    const user = await prisma.user.create({ data: { email: 'taken@example.com', name: 'Taken' } });
    await prisma.profile.create({ data: { userId: user.id } });
    userId = user.id;
  });
  afterAll(() => db.drop());

  it.each([
    [
      'P2002 unique violation',
      () => prisma.user.create({ data: { email: 'taken@example.com', name: 'B' } }),
      400,
      'constraint-violation',
      'P2002',
    ],
    [
      'P2003 foreign key violation',
      () => prisma.post.create({ data: { title: 't', authorId: 999 } }),
      400,
      'constraint-violation',
      'P2003',
    ],
    [
      'P2025 update of a missing record',
      () => prisma.user.update({ where: { id: 999 }, data: { name: 'x' } }),
      404,
      'not-found',
      'P2025',
    ],
    ['P2025 findUniqueOrThrow', () => prisma.user.findUniqueOrThrow({ where: { id: 999 } }), 404, 'not-found', 'P2025'],
    [
      'P2025 nested connect',
      () => prisma.post.create({ data: { title: 't', author: { connect: { id: 999 } } } }),
      404,
      'not-found',
      'P2025',
    ],
    [
      'P2018 connect of missing records',
      () => prisma.user.update({ where: { id: userId }, data: { posts: { connect: [{ id: 999 }] } } }),
      404,
      'not-found',
      'P2018',
    ],
    [
      'P2014 required relation',
      () => prisma.user.update({ where: { id: userId }, data: { profile: { disconnect: true } } }),
      400,
      'constraint-violation',
      'P2014',
    ],
    [
      'P2010 failed raw query',
      () => prisma.$queryRawUnsafe('SELECT * FROM secret_table'),
      400,
      'data-layer-error',
      'P2010',
    ],
  ])('maps %s', async (_label, run, status, code, ormCode) => {
    const error = await rejectionOf(run());
    expect(error.message).toMatch(/invocation/); // Prisma's dump is really there...
    const description = describeError(error, defaults);
    expect(description).toMatchObject({ status, code, ormCode });
    expectClientSafe(description.message); // ...and never reaches the client.
  });

  it('keeps the line of a not-found error that names the missing record', async () => {
    const error = await rejectionOf(prisma.post.create({ data: { title: 't', author: { connect: { id: 999 } } } }));
    expect(describeError(error, defaults).message).toBe(
      "An operation failed because it depends on one or more records that were required but not found. No 'User' record (needed to inline the relation on 'Post' record(s)) was found for a nested connect on one-to-many relation 'PostAuthor'.",
    );
  });

  it('shows neither the table nor the database message of a failed raw query', async () => {
    const error = await rejectionOf(prisma.$queryRawUnsafe('SELECT * FROM secret_table'));
    expect(describeError(error, defaults).message).toBe('Data layer rejected the request');
  });

  it.each([
    ['an unknown argument', () => prisma.user.findMany({ where: { nope: 1 } }), 'Unknown argument `nope`.'],
    [
      'a wrong type',
      () => prisma.user.findMany({ where: { id: 'abc' } }),
      'Argument `id`: Invalid value provided. Expected IntFilter or Int, provided String.',
    ],
    ['a missing argument', () => prisma.user.create({ data: { name: 'x' } }), 'Argument `email` is missing.'],
    [
      'an invalid date',
      () => prisma.user.findMany({ where: { createdAt: 'soon' } }),
      expect.stringMatching(/^Invalid value for argument `createdAt`/),
    ],
  ])('reduces a validation error about %s to one line', async (_label, run, expected) => {
    const error = await rejectionOf(run());
    expect(error.name).toBe('PrismaClientValidationError');
    const description = describeError(error, defaults);
    expect(description).toMatchObject({ status: 400, code: 'invalid-argument', message: expected });
    expect(description.ormCode).toBeUndefined();
    expectClientSafe(description.message);
  });
});

describe('describeError', () => {
  it('maps P2004 with a policy reason to 403', () => {
    const error = knownError('P2004', "denied by policy: post entities failed 'create' check", {
      reason: 'ACCESS_POLICY_VIOLATION',
    });
    expect(describeError(error, defaults)).toMatchObject({
      status: 403,
      code: 'rejected-by-policy',
      rejectedByPolicy: true,
      reason: 'ACCESS_POLICY_VIOLATION',
      ormCode: 'P2004',
      message: "denied by policy: post entities failed 'create' check",
    });
  });

  it('treats P2004 without a reason as an ordinary data-layer error', () => {
    const description = describeError(knownError('P2004', 'A constraint failed on the database: `check_x`'), defaults);
    expect(description).toMatchObject({
      status: 400,
      code: 'data-layer-error',
      ormCode: 'P2004',
      message: 'Data layer rejected the request',
    });
    expect(description.rejectedByPolicy).toBeUndefined();
  });

  it.each(['P2001', 'P2015', 'P2018', 'P2025'])('maps %s to 404', (code) => {
    expect(describeError(knownError(code, 'Not there.'), defaults)).toMatchObject({
      status: 404,
      code: 'not-found',
      ormCode: code,
    });
  });

  it.each(['P2000', 'P2002', 'P2003', 'P2011', 'P2012', 'P2014'])('maps %s to 400', (code) => {
    expect(describeError(knownError(code, 'Violated.'), defaults)).toMatchObject({
      status: 400,
      code: 'constraint-violation',
      ormCode: code,
    });
  });

  it('lets the application add and override rows', () => {
    const map = mergePrismaErrorMap({
      P2002: { status: 409, code: 'conflict' },
      P2034: { status: 409, code: 'conflict', message: 'Try again.' },
    });
    expect(describeError(knownError('P2002', 'Unique constraint failed on the fields: (`email`)'), map)).toMatchObject({
      status: 409,
      code: 'conflict',
      message: 'Unique constraint failed on the fields: (`email`)',
    });
    expect(describeError(knownError('P2034', 'Transaction failed due to a write conflict'), map)).toMatchObject({
      status: 409,
      message: 'Try again.',
    });
    expect(describeError(knownError('P2025', 'Gone.'), map)).toMatchObject({ status: 404 });
  });

  it('falls back to the title when the summary line names a file or SQL', () => {
    expect(describeError(knownError('P2025', 'Record missing in /srv/app/dist/main.js'), defaults).message).toBe(
      'Resource not found',
    );
    expect(describeError(knownError('P2012', 'Failed: SELECT id FROM users WHERE x'), defaults).message).toBe(
      'Constraint violation',
    );
  });

  it('hides everything about unexpected errors', () => {
    const description = describeError(new Error('secret internals at /etc/x'), defaults);
    expect(description).toEqual({
      status: 500,
      code: 'internal-error',
      title: 'Internal server error',
      message: GENERIC_ERROR_MESSAGE,
    });
    expect(describeError(new InternalServerErrorException('db password is hunter2'), defaults).message).toBe(
      GENERIC_ERROR_MESSAGE,
    );
    expect(
      describeError(Object.assign(new Error('engine crashed'), { name: 'PrismaClientUnknownRequestError' }), defaults)
        .status,
    ).toBe(500);
    expect(describeError('a thrown string', defaults).status).toBe(500);
  });

  it('keeps the status and message of Nest HTTP exceptions', () => {
    expect(describeError(new ForbiddenException(), defaults)).toMatchObject({
      status: 403,
      code: 'forbidden',
      message: 'Forbidden',
    });
    expect(
      describeError(new BadRequestException(['name must be a string', 'age must be positive']), defaults),
    ).toMatchObject({
      status: 400,
      code: 'invalid-request',
      message: 'name must be a string; age must be positive',
    });
    expect(describeError(new HttpException('Slow down', 429), defaults)).toMatchObject({
      status: 429,
      code: 'http-error',
      title: 'Too Many Requests',
      message: 'Slow down',
    });
  });

  it('recognizes body-parser failures, raw or wrapped by Nest', () => {
    const tooLarge = Object.assign(new Error('request entity too large'), {
      type: 'entity.too.large',
      status: 413,
      limit: 1024,
    });
    expect(describeError(tooLarge, defaults)).toMatchObject({
      status: 413,
      code: 'payload-too-large',
      message: 'The request body exceeds the limit of 1024 bytes.',
    });
    const malformed = Object.assign(new SyntaxError('Unexpected token } in JSON'), {
      type: 'entity.parse.failed',
      status: 400,
    });
    const wrapped = new BadRequestException(malformed.message, { cause: malformed });
    expect(describeError(wrapped, defaults)).toMatchObject({
      status: 400,
      code: 'malformed-json',
      message: 'The request body is not valid JSON.',
    });
  });

  it('passes a CrudApiError through with its source and reason', () => {
    const error = new CrudApiError('rejected-by-policy', 'Not readable.', {
      reason: 'RESULT_NOT_READABLE',
      source: { pointer: '/data' },
    });
    expect(describeError(error, defaults)).toMatchObject({
      status: 403,
      code: 'rejected-by-policy',
      rejectedByPolicy: true,
      reason: 'RESULT_NOT_READABLE',
      source: { pointer: '/data' },
      message: 'Not readable.',
    });
  });

  it('summarizes validation messages without the dump or its references', () => {
    expect(
      summarizeValidationMessage(
        '\nInvalid `prisma.user.findMany()` invocation:\n\n{\n  where: {}\n}\n\nArgument `where` needs at least one of `id` arguments. Available options are marked with ?.',
      ),
    ).toBe('Argument `where` needs at least one of `id` arguments.');
    expect(summarizeValidationMessage('\nInvalid `prisma.user.findMany()` invocation in\n/app/src/x.ts:3:1\n')).toBe(
      'Invalid query arguments.',
    );
  });

  it("never repeats Prisma's suggestions, which could name hidden fields", () => {
    const dump =
      '\nInvalid `prisma.user.findMany()` invocation:\n\n{\n}\n\nUnknown argument `passwordHas`. Did you mean `passwordHash`? Available options are marked with ?.';
    expect(summarizeValidationMessage(dump)).toBe('Unknown argument `passwordHas`.');
    const known = knownError(
      'P2012',
      'Missing a required value at `x`. Did you mean `passwordHash`? Available options are listed in green.',
    );
    expect(describeError(known, defaults).message).toBe('Missing a required value at `x`.');
  });
});

describe("describeError: values the database cannot store are the client's fault", () => {
  const driverError = (code: string, originalCode: string) =>
    knownError(code, `Database error. Code: \`${originalCode}\`. Message: \`secret detail\``, {
      driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode, originalMessage: 'secret detail' } },
    });

  it.each([
    ['P2020', '22003', 'A value is out of range for its field.'],
    ['P2039', '22021', 'A text value holds a character the database cannot store (such as U+0000).'],
    ['P2039', '22P05', 'A text value holds a character the database cannot store (such as U+0000).'],
    ['P2039', '22008', 'A date-time value is out of the range the database stores.'],
    ['P2039', '22009', 'A date-time value is out of the range the database stores.'],
    ['P2039', '22P02', 'A value cannot be stored in its field.'],
    ['P2039', 'SQLITE_TOOBIG', 'A value is too large for the database.'],
  ])('%s from the database code %s is 400 with a plain message', (code, originalCode, message) => {
    expect(describeError(driverError(code, originalCode), defaults)).toMatchObject({
      status: 400,
      code: 'data-layer-error',
      message,
      ormCode: code,
    });
  });

  it('keeps an unknown database code to the title only', () => {
    expect(describeError(driverError('P2039', 'XX000'), defaults)).toMatchObject({
      status: 400,
      message: 'Data layer rejected the request',
    });
  });

  it("maps better-sqlite3's refusal to bind a too large value to 400, other RangeErrors stay 500", () => {
    expect(describeError(new RangeError('The bound string, buffer, or bigint is too big'), defaults)).toMatchObject({
      status: 400,
      code: 'data-layer-error',
    });
    expect(describeError(new RangeError('Maximum call stack size exceeded'), defaults)).toMatchObject({
      status: 500,
      message: GENERIC_ERROR_MESSAGE,
    });
  });
});

describe('describeError: the database cannot serve the request now', () => {
  /** A Prisma error as Prisma 7 builds it from a driver adapter's error (`meta.driverAdapterError`). */
  const adapterError = (code: string, cause: ConstructorParameters<typeof DriverAdapterError>[0]) =>
    knownError(code, 'Database error. Code: `N/A`. Message: `secret detail`', {
      driverAdapterError: new DriverAdapterError(cause),
    });
  /** The cause the pg adapter gives an error it has no kind for (`mapDriverError`'s default). */
  const postgres = (code: string) =>
    adapterError('P2039', {
      kind: 'postgres',
      originalCode: code,
      originalMessage: 'secret detail',
      code,
      severity: 'ERROR',
      message: 'secret detail',
      detail: undefined,
      column: undefined,
      hint: undefined,
    });
  /** The same of the mariadb adapter, from the server's or the driver's error number. */
  const mysql = (errno: number, state = 'HY000', cause?: string) =>
    adapterError('P2039', {
      kind: 'mysql',
      originalCode: String(errno),
      originalMessage: 'secret detail',
      code: errno,
      message: 'secret detail',
      state,
      cause,
    });

  const rows: Array<[string, Error, number, string, string]> = [
    // Captured on PostgreSQL 15 through @prisma/adapter-pg 7 (test/e2e/database-faults.e2e-spec.ts).
    ['pg_terminate_backend (57P01)', postgres('57P01'), 503, 'service-unavailable', 'closed the connection'],
    ['a crash shutdown (57P02)', postgres('57P02'), 503, 'service-unavailable', 'closed the connection'],
    ['a server starting up (57P03)', postgres('57P03'), 503, 'service-unavailable', 'cannot be reached'],
    ['a connection failure (08006)', postgres('08006'), 503, 'service-unavailable', 'cannot be reached'],
    ['a read-only transaction (25006)', postgres('25006'), 503, 'database-read-only', 'no writes'],
    ['a statement timeout (57014)', postgres('57014'), 504, 'database-timeout', 'nothing was written'],
    ['a lock timeout (55P03)', postgres('55P03'), 504, 'database-timeout', 'nothing was written'],
    ['a deadlock (40P01)', postgres('40P01'), 503, 'service-unavailable', 'concurrent'],
    ['out of memory (53200)', postgres('53200'), 503, 'service-unavailable', 'out of resources'],
    [
      'a connection limit (P2037, 53300)',
      adapterError('P2037', { kind: 'TooManyConnections', cause: 'too many connections for role "app"' }),
      503,
      'service-unavailable',
      'no more connections',
    ],
    [
      'a stopped server (P1001)',
      adapterError('P1001', { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 }),
      503,
      'service-unavailable',
      'cannot be reached',
    ],
    [
      'a closed connection (P1017)',
      adapterError('P1017', { kind: 'ConnectionClosed' }),
      503,
      'service-unavailable',
      'closed the connection',
    ],
    // Captured on MariaDB 10.11 through @prisma/adapter-mariadb 7.
    ['KILL QUERY (1317)', mysql(1317, '70100'), 503, 'service-unavailable', 'closed the connection'],
    ['KILL during a query (45009)', mysql(45009, '08S01'), 503, 'service-unavailable', 'closed the connection'],
    ['a killed connection (1927)', mysql(1927, '70100'), 503, 'service-unavailable', 'closed the connection'],
    ['another connection error (08S01)', mysql(2013, '08S01'), 503, 'service-unavailable', 'closed the connection'],
    ['max_statement_time (1969)', mysql(1969, '70100'), 504, 'database-timeout', 'nothing was written'],
    ['a lock wait timeout (1205)', mysql(1205), 504, 'database-timeout', 'nothing was written'],
    ['--read-only (1290)', mysql(1290), 503, 'database-read-only', 'no writes'],
    ['a READ ONLY transaction (1792)', mysql(1792, '25006'), 503, 'database-read-only', 'no writes'],
    ['max_user_connections (1226)', mysql(1226, '42000'), 503, 'service-unavailable', 'no more connections'],
    [
      'a pool timeout (45028)',
      mysql(45028, 'HY000', 'pool timeout: failed to retrieve a connection from pool after 701ms'),
      503,
      'service-unavailable',
      'became free',
    ],
    [
      'a pool timeout of a refused connection (45028)',
      mysql(45028, 'HY000', 'connect ECONNREFUSED 127.0.0.1:3306'),
      503,
      'service-unavailable',
      'cannot be reached',
    ],
    // pg and pg-pool errors the pg adapter passes on as they are, and drivers' own errors.
    [
      'pg: Connection terminated unexpectedly',
      new Error('Connection terminated unexpectedly'),
      503,
      'service-unavailable',
      'closed the connection',
    ],
    [
      'pg-pool: connectionTimeoutMillis',
      new Error('timeout exceeded when trying to connect'),
      503,
      'service-unavailable',
      'became free',
    ],
    [
      'pg: a DatabaseError thrown by the driver',
      Object.assign(new pg.DatabaseError('terminating connection', 0, 'error'), { code: '57P01', severity: 'FATAL' }),
      503,
      'service-unavailable',
      'closed the connection',
    ],
    [
      'mariadb: a SqlError thrown by the driver',
      new mariadb.SqlError('Lock wait timeout exceeded', undefined, false, undefined, 'HY000', 1205),
      504,
      'database-timeout',
      'nothing was written',
    ],
  ];

  it.each(rows)('%s: status, code, message and Retry-After', (_name, error, status, code, message) => {
    const description = describeError(error, defaults);
    expect(description).toMatchObject({ status, code });
    expect(description.message).toContain(message);
    expectClientSafe(description.message);
    expect(description.headers?.['Retry-After']).toBe(status === 503 ? '1' : undefined);
  });

  it('is never 500 for a database fault, and never 503 for an error of the application', () => {
    for (const [, error, status] of rows) expect(describeError(error, defaults).status).toBe(status);
    const own = [
      new Error('Connection terminated unexpectedly, said the payment service'),
      Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), {
        code: 'ECONNREFUSED',
        syscall: 'connect',
        errno: -111,
      }),
      new TypeError('timeout exceeded when trying to connect'),
      Object.assign(new Error('not a database'), { code: '57P01' }),
      new mariadb.SqlError('Duplicate entry', undefined, false, undefined, '23000', 1062),
    ];
    for (const error of own)
      expect(describeError(error, defaults)).toMatchObject({ status: 500, code: 'internal-error' });
  });

  it("keeps an application's row over the default, with Retry-After on its 503", () => {
    const map = mergePrismaErrorMap({
      P2034: { status: 409, code: 'conflict' },
      P2024: { status: 503, code: 'service-unavailable' },
    });
    const conflict = describeError(knownError('P2034', 'conflict'), map);
    expect(conflict.status).toBe(409);
    expect(conflict.headers).toBeUndefined();
    expect(describeError(knownError('P2024', 'pool'), map).headers).toEqual({ 'Retry-After': '1' });
  });
});
