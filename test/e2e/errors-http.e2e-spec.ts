import {
  BadRequestException,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Injectable,
  Module,
  type PipeTransform,
  Post,
  Req,
  UnauthorizedException,
} from '@nestjs/common';
import { APP_GUARD, APP_PIPE, NestFactory } from '@nestjs/core';
import type { Request } from 'express';
import request from 'supertest';

import { type ApiRequest, type ApiResponse, CrudApiModule, RestService, RpcService } from '../../lib/index.js';
import { TEST_ENDPOINT, useTestApp } from '../support/test-app.js';
import { createTestDatabase, testProviders } from '../support/test-database.js';

/** Services that answer with the size of the parsed body, so body parsing is tested alone. */
@Injectable()
class BodySizeRpcService extends RpcService {
  override async handle(req: ApiRequest): Promise<ApiResponse> {
    return { status: 200, body: { data: { bytes: JSON.stringify(req.body ?? null).length } } };
  }
}

@Injectable()
class BodySizeRestService extends RestService {
  override async create(req: ApiRequest): Promise<ApiResponse> {
    return { status: 201, body: { meta: { bytes: JSON.stringify(req.body ?? null).length } } };
  }
}

/** One of the application's own routes, outside the module. */
@Controller('own')
class OwnController {
  @Post()
  echo(@Req() req: Request) {
    return { bytes: JSON.stringify(req.body ?? null).length };
  }
}

@Injectable()
class TokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest<Request>().headers.authorization !== 'Bearer ok') {
      throw new UnauthorizedException('Sign in first.');
    }
    return true;
  }
}

@Injectable()
class RejectBadParamPipe implements PipeTransform {
  transform(value: unknown) {
    if (value === 'bad') throw new BadRequestException('The parameter "bad" is refused.');
    return value;
  }
}

const probes = (builder: any) =>
  builder
    .overrideProvider(RpcService)
    .useClass(BodySizeRpcService)
    .overrideProvider(RestService)
    .useClass(BodySizeRestService);

/** A JSON document of about `bytes` bytes. */
function documentOf(bytes: number): string {
  return JSON.stringify({ data: { type: 'post', attributes: { title: 'x'.repeat(bytes) } } });
}

const JSON_API = 'application/vnd.api+json';

describe.each(testProviders())('HTTP errors around the routes (%s)', (provider) => {
  describe('body parsing with the default limit (1mb)', () => {
    const t = useTestApp(provider, { metadata: { controllers: [OwnController] }, override: probes });

    it.each([['application/json'], [JSON_API]])('accepts a %s body beyond Nest’s 100kb default', async (type) => {
      const body = documentOf(500_000);
      const rest = await t.http().post('/api/rest/post').set('content-type', type).send(body).expect(201);
      expect(rest.body.meta.bytes).toBe(body.length);
      const rpc = await t.http().post('/api/rpc/post/create').set('content-type', type).send(body).expect(200);
      expect(rpc.body.data.bytes).toBe(body.length);
    });

    it.each([['application/json'], [JSON_API]])('answers a %s body over 1mb with 413 in each format', async (type) => {
      const body = documentOf(1_100_000);
      const rest = await t.http().post('/api/rest/post').set('content-type', type).send(body).expect(413);
      expect(rest.headers['content-type']).toBe(JSON_API);
      expect(rest.body).toEqual({
        links: { self: `${TEST_ENDPOINT}/post` },
        errors: [
          {
            status: '413',
            code: 'payload-too-large',
            title: 'Payload too large',
            detail: 'The request body exceeds the limit of 1048576 bytes.',
          },
        ],
      });
      const rpc = await t.http().post('/api/rpc/post/create').set('content-type', type).send(body).expect(413);
      expect(rpc.headers['content-type']).toMatch(/^application\/json/);
      expect(rpc.body).toEqual({
        error: { errorCode: 'payload-too-large', message: 'The request body exceeds the limit of 1048576 bytes.' },
      });
    });

    it.each([['application/json'], [JSON_API]])(
      'answers malformed %s with 400 malformed-json in each format',
      async (type) => {
        const rest = await t.http().post('/api/rest/post').set('content-type', type).send('{"data": {').expect(400);
        expect(rest.headers['content-type']).toBe(JSON_API);
        expect(rest.body.errors).toEqual([
          {
            status: '400',
            code: 'malformed-json',
            title: 'Malformed JSON',
            detail: 'The request body is not valid JSON.',
          },
        ]);
        const rpc = await t
          .http()
          .post('/api/rpc/post/create')
          .set('content-type', type)
          .send('{"data": {')
          .expect(400);
        expect(rpc.body).toEqual({
          error: { errorCode: 'malformed-json', message: 'The request body is not valid JSON.' },
        });
      },
    );

    it('leaves the application’s own routes to Nest’s parser, limit and error format', async () => {
      const small = await t
        .http()
        .post('/own')
        .set('content-type', 'application/json')
        .send(documentOf(1000))
        .expect(201);
      expect(small.body.bytes).toBeGreaterThan(1000);
      const large = await t
        .http()
        .post('/own')
        .set('content-type', 'application/json')
        .send(documentOf(1_100_000))
        .expect(413); // past Nest's 100kb (Express) and Fastify's 1MiB
      expect(large.body).toMatchObject({ statusCode: 413 });
      const malformed = await t.http().post('/own').set('content-type', 'application/json').send('{').expect(400);
      expect(malformed.body).toMatchObject({ statusCode: 400 });
      expect(malformed.body.errors).toBeUndefined();
    });

    it('leaves paths that no route serves to the application’s 404, below the mounts too', async () => {
      const own = await t.http().get('/elsewhere').expect(404);
      expect(own.body).toMatchObject({ statusCode: 404 });
      const rpc = await t.http().get('/api/rpc/post/findMany/extra').expect(404);
      expect(rpc.body).toMatchObject({ statusCode: 404 });
    });
  });

  describe('body parsing with bodyLimit "10kb"', () => {
    const t = useTestApp(provider, { options: { bodyLimit: '10kb' }, override: probes });

    it.each([['application/json'], [JSON_API]])('applies the option to %s bodies', async (type) => {
      await t.http().post('/api/rpc/post/create').set('content-type', type).send(documentOf(5_000)).expect(200);
      const res = await t.http().post('/api/rest/post').set('content-type', type).send(documentOf(20_000)).expect(413);
      expect(res.body.errors[0]).toMatchObject({
        code: 'payload-too-large',
        detail: 'The request body exceeds the limit of 10240 bytes.',
      });
    });
  });

  describe('with a global guard and a global pipe', () => {
    const t = useTestApp(provider, {
      metadata: {
        providers: [
          { provide: APP_GUARD, useClass: TokenGuard },
          { provide: APP_PIPE, useClass: RejectBadParamPipe },
        ],
      },
      override: probes,
    });

    it('renders the guard’s 401 in each interface’s format', async () => {
      const rest = await t.http().get('/api/rest/post').expect(401);
      expect(rest.headers['content-type']).toBe(JSON_API);
      expect(rest.body).toEqual({
        links: { self: `${TEST_ENDPOINT}/post` },
        errors: [{ status: '401', code: 'unauthorized', title: 'Unauthorized', detail: 'Sign in first.' }],
      });
      const rpc = await t.http().get('/api/rpc/post/findMany').expect(401);
      expect(rpc.body).toEqual({ error: { errorCode: 'unauthorized', message: 'Sign in first.' } });
    });

    it('renders a pipe’s 400 in each interface’s format', async () => {
      const rest = await t.http().post('/api/rest/bad').set('authorization', 'Bearer ok').send({}).expect(400);
      expect(rest.body.errors[0]).toMatchObject({
        status: '400',
        code: 'invalid-request',
        detail: 'The parameter "bad" is refused.',
      });
      const rpc = await t.http().post('/api/rpc/bad/create').set('authorization', 'Bearer ok').send({}).expect(400);
      expect(rpc.body).toEqual({ error: { errorCode: 'invalid-request', message: 'The parameter "bad" is refused.' } });
    });

    it('lets authorized requests through', async () => {
      await t.http().post('/api/rpc/post/create').set('authorization', 'Bearer ok').send({ data: {} }).expect(200);
    });
  });
});

describe('body parsing in an application made by NestFactory.create', () => {
  it('applies bodyLimit to application/json bodies there too', async () => {
    const db = await createTestDatabase('sqlite');
    @Module({
      imports: [CrudApiModule.forRoot({ endpoint: TEST_ENDPOINT, prisma: db.prisma, modelMeta: db.modelMeta })],
    })
    class AppModule {}
    const app = await NestFactory.create(AppModule, { logger: false });
    try {
      await app.init();
      const res = await request(app.getHttpServer())
        .post('/api/rpc/tag/create')
        .set('content-type', 'application/json')
        .send(JSON.stringify({ data: { name: 'x'.repeat(500_000) } }))
        .expect(201);
      expect(res.body.data.name).toHaveLength(500_000);
      await request(app.getHttpServer())
        .post('/api/rpc/tag/create')
        .set('content-type', 'application/json')
        .send(JSON.stringify({ data: { name: 'x'.repeat(1_100_000) } }))
        .expect(413);
    } finally {
      await app.close();
      await db.drop();
    }
  });
});
