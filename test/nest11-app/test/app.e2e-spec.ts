import { type INestApplication, Module, type Type } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test, type TestingModule } from '@nestjs/testing';
import { CrudApiModule } from 'nestjs-crud-api';
import { createRpcClient } from 'nestjs-crud-api/client';
import request from 'supertest';
import type { App } from 'supertest/types';
import { AppModule } from './../src/app.module';
import { modelMeta } from './../src/generated/crud-api';
import type { PrismaClient } from './../src/generated/prisma/client';
import { PrismaModule } from './../src/prisma.module';
import { PrismaService } from './../src/prisma.service';

// The e2e test of a `nest new` application (test/jest-e2e.json: ts-jest, CommonJS, no transform of
// node_modules), against the module's routes: the package loads under Jest as it is. DATABASE_URL
// names a SQLite file with the schema's tables (test/nest11/nest11-jest.e2e-spec.ts creates it).
const JSON_API = 'application/vnd.api+json';

/** The module with its OpenAPI documents and Swagger UI, which read swagger-ui-dist's files. */
@Module({
  imports: [
    CrudApiModule.forRootAsync({
      imports: [PrismaModule],
      inject: [PrismaService],
      useFactory: (prisma: PrismaService) => ({ endpoint: 'http://localhost/api/rest', prisma, modelMeta }),
      openapi: true,
    }),
  ],
})
class DocsModule {}

async function createApp(platform: 'express' | 'fastify', module: Type): Promise<INestApplication<App>> {
  const moduleFixture: TestingModule = await Test.createTestingModule({ imports: [module] }).compile();
  const app =
    platform === 'fastify'
      ? moduleFixture.createNestApplication(new FastifyAdapter())
      : moduleFixture.createNestApplication();
  await app.init();
  if (platform === 'fastify') await app.getHttpAdapter().getInstance().ready();
  return app;
}

describe.each(['express', 'fastify'] as const)('CrudApiModule in a Nest 11 app on %s (e2e)', (platform) => {
  let app: INestApplication<App>;
  let authorId: string;

  beforeAll(async () => {
    app = await createApp(platform, AppModule);
    const author = await request(app.getHttpServer())
      .post('/api/rest/user')
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'user', attributes: { email: `${platform}@example.com`, name: 'Ada' } } })
      .expect(201);
    authorId = author.body.data.id;
    // The first start loads the module, Prisma and ts-jest's output: slow on a busy machine.
  }, 30_000);

  afterAll(() => app.close());

  it('REST: reads the JSON:API resource it created', async () => {
    const read = await request(app.getHttpServer()).get(`/api/rest/user/${authorId}`).expect(200);
    expect(read.headers['content-type']).toBe(JSON_API);
    expect(read.body.data).toMatchObject({ type: 'user', id: authorId, attributes: { name: 'Ada' } });
  });

  it('RPC: calls operations, and refuses what the policies refuse', async () => {
    await request(app.getHttpServer())
      .post('/api/rpc/post/create')
      .send({ data: { title: 'Anonymous', authorId: Number(authorId) } })
      .expect(403);
    const created = await request(app.getHttpServer())
      .post('/api/rpc/post/create')
      .set('x-user-id', authorId)
      .send({ data: { title: 'Hello', authorId: Number(authorId), published: true } })
      .expect(201);
    expect(created.body.data).toMatchObject({ title: 'Hello', published: true });
  });

  it('typed client (nestjs-crud-api/client): writes and reads with superjson types', async () => {
    await app.listen(0, '127.0.0.1');
    const client = createRpcClient<PrismaClient>({
      baseUrl: `${await app.getUrl()}/api/rpc`,
      headers: { 'x-user-id': authorId },
    });
    const createdAt = new Date('2020-01-02T03:04:05.678Z');
    const created = await client.post.create({ data: { title: 'Dated', authorId: Number(authorId), createdAt } });
    const read = await client.post.findUnique({ where: { id: created.id } });
    expect(read?.createdAt).toBeInstanceOf(Date);
    expect(read?.createdAt).toEqual(createdAt);
  });

  it('OpenAPI: serves the documents and Swagger UI with its assets', async () => {
    const docs = await createApp(platform, DocsModule);
    try {
      const rest = await request(docs.getHttpServer()).get('/api/docs/rest.json').expect(200);
      expect(rest.body.openapi).toMatch(/^3\.1\./);
      const css = await request(docs.getHttpServer()).get('/api/docs/swagger-ui/swagger-ui.css').expect(200);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    } finally {
      await docs.close();
    }
  });
});
