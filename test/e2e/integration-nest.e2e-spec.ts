import { type CallHandler, type ExecutionContext, Injectable, Module, type NestInterceptor } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { Request } from 'express';
import request from 'supertest';

import {
  type ApiRequest,
  type ApiResponse,
  CrudApiModule,
  type PrismaClientLike,
  RestService,
  RpcService,
} from '../../lib/index.js';
import { TEST_ENDPOINT, useTestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

@Injectable()
class ReplacedRestService extends RestService {
  override async fetch(_req: ApiRequest, type: string, id: string): Promise<ApiResponse> {
    return { status: 200, body: { meta: { replacedRest: `${type}/${id}` } } };
  }

  override async list(): Promise<ApiResponse> {
    throw new Error('raised by the replaced RestService');
  }
}

@Injectable()
class ReplacedRpcService extends RpcService {
  override async handle(_req: ApiRequest, model: string, operation: string): Promise<ApiResponse> {
    if (operation === 'fail') throw new Error('raised by the replaced RpcService');
    return { status: 200, body: { data: { replacedRpc: `${model}.${operation}` } } };
  }
}

/** Records every request that reaches a route, as an application's logging interceptor would. */
@Injectable()
class RecordingInterceptor implements NestInterceptor {
  static seen: string[] = [];

  intercept(context: ExecutionContext, next: CallHandler) {
    const req = context.switchToHttp().getRequest<Request>();
    RecordingInterceptor.seen.push(`${req.method} ${(req.originalUrl ?? req.url).split('?')[0]}`);
    return next.handle();
  }
}

describe.each(testProviders())('Nest integration (%s)', (provider) => {
  describe('with RestService and RpcService replaced through the restService and rpcService extras', () => {
    const t = useTestApp(provider, {
      options: { restService: ReplacedRestService, rpcService: ReplacedRpcService },
    });

    it('routes both interfaces to the replacements', async () => {
      expect((await t.http().get('/api/rest/post/7').expect(200)).body).toEqual({ meta: { replacedRest: 'post/7' } });
      expect((await t.http().get('/api/rpc/post/findMany').expect(200)).body).toEqual({
        data: { replacedRpc: 'post.findMany' },
      });
    });

    it('renders their errors in the interface formats, without the internal message', async () => {
      expect((await t.http().get('/api/rest/post').expect(500)).body.errors[0]).toMatchObject({
        status: '500',
        code: 'internal-error',
      });
      expect((await t.http().get('/api/rpc/post/fail').expect(500)).body).toEqual({
        error: { errorCode: 'internal-error', message: 'An unexpected error occurred.' },
      });
    });
  });

  describe('with a global interceptor and a counting getPrisma', () => {
    let getPrismaCalls = 0;
    const t = useTestApp(provider, {
      options: {
        prisma: undefined,
        getPrisma: () => {
          getPrismaCalls += 1;
          return t.db.prisma as unknown as PrismaClientLike;
        },
      },
      metadata: { providers: [{ provide: APP_INTERCEPTOR, useClass: RecordingInterceptor }] },
    });

    it('lets the interceptor see every request of both interfaces, failed ones included', async () => {
      RecordingInterceptor.seen = [];
      await t.http().get('/api/rpc/user/count').expect(200);
      await t.http().get('/api/rpc/nothing/findMany').expect(404);
      await t.http().get('/api/rest/user').expect(200);
      await t.http().get('/api/rest/nothing').expect(404);
      expect(RecordingInterceptor.seen).toEqual([
        'GET /api/rpc/user/count',
        'GET /api/rpc/nothing/findMany',
        'GET /api/rest/user',
        'GET /api/rest/nothing',
      ]);
    });

    it('calls getPrisma once per RPC request, however many statements it runs', async () => {
      getPrismaCalls = 0;
      t.db.queries.length = 0;
      await t
        .http()
        .post('/api/rpc/user/create')
        .send({
          data: { email: 'nested@example.com', name: 'N', posts: { create: [{ title: 'a' }, { title: 'b' }] } },
          include: { posts: true },
        })
        .expect(201);
      expect(t.db.queries.length).toBeGreaterThan(2);
      expect(getPrismaCalls).toBe(1);
      await t.http().get('/api/rpc/user/count').expect(200);
      expect(getPrismaCalls).toBe(2);
    });

    it('calls getPrisma once per REST request, however many queries it runs', async () => {
      getPrismaCalls = 0;
      t.db.queries.length = 0;
      const res = await t.http().get('/api/rest/user?include=posts').expect(200);
      expect(res.body.included).toHaveLength(2);
      expect(t.db.queries.length).toBeGreaterThan(1);
      expect(getPrismaCalls).toBe(1);
    });
  });
});

/** An application service the options factory depends on: per-caller clients by tenant header. */
@Injectable()
class TenantClients {
  base!: TestDatabase['prisma'];
  readonly tenantsSeen: string[] = [];

  forRequest(req: Request): PrismaClientLike {
    const tenant = String(req.headers['x-tenant'] ?? 'anonymous');
    this.tenantsSeen.push(tenant);
    return this.base.$extends({
      result: { user: { tenant: { needs: {}, compute: () => tenant } } },
    }) as unknown as PrismaClientLike;
  }
}

@Module({ providers: [TenantClients], exports: [TenantClients] })
class TenantModule {}

describe.each(testProviders())('getPrisma through forRootAsync (%s)', (provider) => {
  let db: TestDatabase;
  let close: () => Promise<void>;
  let http: () => ReturnType<typeof request>;
  let tenants: TenantClients;

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    await db.prisma.user.create({ data: { email: 'a@example.com', name: 'A' } });
    const moduleRef = await Test.createTestingModule({
      imports: [
        CrudApiModule.forRootAsync({
          imports: [TenantModule],
          inject: [TenantClients],
          useFactory: (clients: TenantClients) => {
            clients.base = db.prisma;
            return { endpoint: TEST_ENDPOINT, modelMeta: db.modelMeta, getPrisma: (req) => clients.forRequest(req) };
          },
        }),
      ],
    }).compile();
    tenants = moduleRef.get(TenantClients);
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    http = () => request(app.getHttpServer());
    close = async () => {
      await app.close();
      await db.drop();
    };
  });
  afterAll(() => close());

  it('serves each request with the client the injected service builds for it', async () => {
    const rpc = await http().get('/api/rpc/user/findMany').set('x-tenant', 'acme').expect(200);
    expect(rpc.body.data).toEqual([expect.objectContaining({ email: 'a@example.com', tenant: 'acme' })]);
    const rest = await http().get('/api/rest/user').set('x-tenant', 'globex').expect(200);
    expect(rest.body.data[0].attributes).toMatchObject({ email: 'a@example.com' });
    expect(tenants.tenantsSeen).toEqual(['acme', 'globex']);
  });
});
