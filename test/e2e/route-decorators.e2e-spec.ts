import {
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  Catch,
  type ExceptionFilter,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  UnauthorizedException,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import request from 'supertest';

import { CrudApiModule } from '../../lib/index.js';
import { expectJsonApiError } from '../support/json-api-expect.js';
import { createPlatformApp, TEST_ENDPOINT, useTestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const TOKEN = 'Bearer good-token';
const IS_PUBLIC = 'isPublic';
/** The application's `@Public()`, as Nest's authentication recipe writes it. */
const Public = () => SetMetadata(IS_PUBLIC, true);

const authorizationOf = (context: ExecutionContext): unknown =>
  context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers.authorization;

/** A global guard as in Nest's recipe: every route needs the token unless `@Public()` says otherwise. */
@Injectable()
class GlobalTokenGuard implements CanActivate {
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    if (authorizationOf(context) !== TOKEN) throw new UnauthorizedException();
    return true;
  }
}

/** A guard the application binds where it chooses (no metadata involved). */
@Injectable()
class TokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return authorizationOf(context) === TOKEN;
  }
}

/** Records the paths of the requests it sees. */
@Injectable()
class RecordingInterceptor implements NestInterceptor {
  static readonly seen: string[] = [];

  intercept(context: ExecutionContext, next: CallHandler) {
    const req = context.switchToHttp().getRequest<{ url: string; originalUrl?: string }>();
    RecordingInterceptor.seen.push((req.originalUrl ?? req.url).split('?')[0]!);
    return next.handle();
  }
}

/** A catch-all filter in the application's format (418), which must not replace the module's. */
@Catch()
class TeapotFilter implements ExceptionFilter {
  catch(_exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse();
    if (typeof response.code === 'function') response.code(418).send('{}');
    else response.status(418).send('{}');
  }
}

const globalGuard = { providers: [{ provide: APP_GUARD, useClass: GlobalTokenGuard }] };
const seedTag = ({ db }: { db: TestDatabase }) => db.prisma.tag.create({ data: { name: 'nest' } });

describe('decorators on the generated routes (sqlite)', () => {
  describe('a global guard honouring @Public(), with the documentation routes public', () => {
    const t = useTestApp('sqlite', {
      metadata: globalGuard,
      options: { openapi: { decorators: [Public()] } },
      seed: seedTag,
    });

    it('guards the REST and RPC routes, answering in their formats', async () => {
      expectJsonApiError(await t.http().get('/api/rest/tag'), 401, 'unauthorized');
      expect((await t.http().get('/api/rest/tag').set('Authorization', TOKEN).expect(200)).body.data).toHaveLength(1);
      const refused = await t.http().get('/api/rpc/tag/findMany').expect(401);
      expect(refused.body.error).toEqual(expect.objectContaining({ message: expect.any(String) }));
      await t.http().get('/api/rpc/tag/findMany').set('Authorization', TOKEN).expect(200);
    });

    it('serves the documents and Swagger UI without a token', async () => {
      await t.http().get('/api/docs/rest.json').expect(200);
      await t.http().get('/api/docs/rpc.json').expect(200);
      await t.http().get('/api/docs').expect(200);
      await t.http().get('/api/docs/swagger-ui/initializer.js').expect(200);
    });
  });

  describe('@Public() on one interface only', () => {
    const t = useTestApp('sqlite', { metadata: globalGuard, options: { restDecorators: [Public()] }, seed: seedTag });

    it('opens that interface, and neither the other nor the documentation routes', async () => {
      await t.http().get('/api/rest/tag').expect(200);
      await t.http().get('/api/rpc/tag/findMany').expect(401);
      await t.http().get('/api/docs/rest.json').expect(401);
    });
  });

  describe('a guard on the RPC routes, an interceptor and a filter on the REST routes of one instance', () => {
    let db: TestDatabase;
    let http: () => ReturnType<typeof request>;
    let close: () => Promise<void>;

    beforeAll(async () => {
      db = await createTestDatabase('sqlite');
      await db.prisma.tag.create({ data: { name: 'nest' } });
      const base = { endpoint: TEST_ENDPOINT, prisma: db.prisma, modelMeta: db.modelMeta };
      const moduleRef = await Test.createTestingModule({
        imports: [
          CrudApiModule.forRoot({
            ...base,
            rpcDecorators: [UseGuards(TokenGuard)],
            restDecorators: [UseInterceptors(RecordingInterceptor), UseFilters(TeapotFilter)],
          }),
          // A second instance: another controller class, untouched by the first one's decorators.
          CrudApiModule.forRoot({
            ...base,
            endpoint: 'http://localhost/admin/rest',
            restPath: 'admin/rest',
            rpcPath: 'admin/rpc',
          }),
        ],
      }).compile();
      const app = await createPlatformApp(moduleRef);
      http = () => request(app.getHttpServer());
      close = async () => {
        await app.close();
        await db.drop();
      };
    });
    afterAll(() => close?.());

    it('refuses RPC calls without the token, in the RPC format', async () => {
      const refused = await http().get('/api/rpc/tag/findMany').expect(403);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.body.error).toEqual(expect.objectContaining({ message: expect.any(String) }));
      expect((await http().get('/api/rpc/tag/findMany').set('Authorization', TOKEN).expect(200)).body.data).toEqual([
        expect.objectContaining({ name: 'nest' }),
      ]);
    });

    it('leaves REST open, intercepted, and the other instance alone', async () => {
      RecordingInterceptor.seen.length = 0;
      await http().get('/api/rest/tag').expect(200);
      await http().get('/api/rpc/tag/findMany').set('Authorization', TOKEN).expect(200);
      await http().get('/admin/rest/tag').expect(200);
      await http().get('/admin/rpc/tag/findMany').expect(200);
      expect(RecordingInterceptor.seen).toEqual(['/api/rest/tag']);
    });

    it('answers in the module’s format whatever filter the decorators add', async () => {
      expectJsonApiError(await http().get('/api/rest/nothing'), 404, 'unknown-type');
    });
  });
});
