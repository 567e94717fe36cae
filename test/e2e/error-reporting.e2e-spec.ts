import {
  type ArgumentsHost,
  Body,
  Catch,
  Controller,
  type ExceptionFilter,
  HttpException,
  Injectable,
  Module,
  Post,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import request from 'supertest';

import { CrudApiModule, withPolicies } from '../../lib/index.js';
import { settled } from '../support/eventually.js';
import { expectJsonApiError } from '../support/json-api-expect.js';
import { createPlatformApp, TEST_ENDPOINT } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/**
 * The application's catch-all filter, in the usual pattern: the status of an `HttpException`, else
 * 500; it reports what is unexpected (a Sentry call, a metric), and answers in the application's format.
 */
@Catch()
@Injectable()
class AppExceptionFilter implements ExceptionFilter {
  readonly reported: unknown[] = [];

  catch(exception: unknown, host: ArgumentsHost): void {
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    if (status >= 500) this.report(exception);
    const message = exception instanceof HttpException ? exception.getResponse() : 'Internal error';
    const body = JSON.stringify({ app: true, status, message });
    const response = host.switchToHttp().getResponse();
    // Express's response or Fastify's reply
    if (typeof response.code === 'function')
      response.code(status).header('content-type', 'application/json').send(body);
    else response.status(status).type('application/json').send(body);
  }

  report(error: unknown): void {
    this.reported.push(error);
  }
}

/** Where the application keeps its filter: global, and injectable into the module's options factory. */
@Module({
  providers: [AppExceptionFilter, { provide: APP_FILTER, useExisting: AppExceptionFilter }],
  exports: [AppExceptionFilter],
})
class ReportingModule {}

/** The application's own route, using the module's policy engine. */
@Controller('own')
class OwnController {
  static db: TestDatabase;

  @Post('posts')
  createPost(@Body() body: { title: string }) {
    const { prisma, modelMeta } = OwnController.db;
    const client = withPolicies(prisma, {
      policies: { Post: { create: false } },
      defaultPolicy: 'allow',
      modelMeta,
      context: {},
    });
    return client.post.create({ data: { title: body.title, authorId: 1 } });
  }
}

const INJECTED = 'injected failure';

describe('errors the application observes (sqlite)', () => {
  let db: TestDatabase;
  let filter: AppExceptionFilter;
  let http: () => ReturnType<typeof request>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    OwnController.db = db;
    await db.prisma.user.create({ data: { email: 'a@example.com', name: 'A' } });
    const moduleRef = await Test.createTestingModule({
      imports: [
        ReportingModule,
        CrudApiModule.forRootAsync({
          imports: [ReportingModule],
          inject: [AppExceptionFilter],
          useFactory: (reporting: AppExceptionFilter) => ({
            endpoint: TEST_ENDPOINT,
            modelMeta: db.modelMeta,
            // A request with `x-fail` makes the module fail unexpectedly (500).
            getPrisma: (req: { headers: Record<string, unknown> }) => {
              if (req.headers['x-fail']) throw new Error(INJECTED);
              return db.prisma;
            },
            onServerError: (error) => reporting.report(error),
          }),
        }),
      ],
      controllers: [OwnController],
    }).compile();
    const app = await createPlatformApp(moduleRef);
    filter = app.get(AppExceptionFilter);
    http = () => request(app.getHttpServer());
    close = async () => {
      await app.close();
      await db.drop();
    };
  });
  afterAll(() => close?.());
  beforeEach(() => {
    filter.reported.length = 0;
  });

  it('hands an unexpected error of a module route to the application’s filter, the answer in the module’s format', async () => {
    expectJsonApiError(await http().get('/api/rest/tag').set('x-fail', '1'), 500, 'internal-error');
    const rpc = await http().get('/api/rpc/tag/findMany').set('x-fail', '1').expect(500);
    expect(rpc.body).toEqual({ error: { message: expect.any(String), errorCode: 'internal-error' } });
    expect(filter.reported).toEqual([
      expect.objectContaining({ message: INJECTED }),
      expect.objectContaining({ message: INJECTED }),
    ]);
  });

  it('reports none of the client’s errors', async () => {
    expectJsonApiError(await http().get('/api/rest/nothing'), 404, 'unknown-type');
    await http().get('/api/rpc/tag/nope').expect(400);
    await settled();
    expect(filter.reported).toEqual([]);
  });

  it('answers a CrudApiError of the application’s own route as an HttpException: its status, not 500', async () => {
    const refused = await http().post('/own/posts').send({ title: 'x' }).expect(403);
    expect(refused.body).toEqual({ app: true, status: 403, message: expect.any(String) });
    expect(await db.prisma.post.count()).toBe(0);
    expect(filter.reported).toEqual([]);
  });
});
