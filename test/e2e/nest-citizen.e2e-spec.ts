import {
  type ArgumentsHost,
  Body,
  Catch,
  Controller,
  type ExceptionFilter,
  Get,
  Injectable,
  Post,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import request from 'supertest';

import {
  CrudApiModule,
  type CrudApiOptions,
  type CrudApiOptionsFactory,
  type CrudApiPolicies,
  withPolicies,
} from '../../lib/index.js';
import { createPlatformApp, TEST_ENDPOINT } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';

/** The host's catch-all filter: it answers 418 with its own body. */
@Catch()
class HostFilter implements ExceptionFilter {
  catch(_exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse();
    const body = JSON.stringify({ host: true });
    // Express's response or Fastify's reply
    if (typeof response.code === 'function') response.code(418).header('content-type', 'application/json').send(body);
    else response.status(418).type('application/json').send(body);
  }
}

const posts: CrudApiPolicies = { Post: { read: { published: true }, create: false } };

/** An application's own endpoint using the module's policy engine. */
@Controller('own')
class OwnController {
  static db: TestDatabase;

  @Get('fail')
  fail(): never {
    throw new Error('host route failure');
  }

  @Post('posts')
  createPost(@Body() body: { title: string }) {
    const client = withPolicies(OwnController.db.prisma, {
      policies: posts,
      defaultPolicy: 'allow',
      modelMeta: OwnController.db.modelMeta,
      context: {},
    });
    return client.post.create({ data: { title: body.title, authorId: 1 } });
  }

  @Get('posts')
  listPosts() {
    const client = withPolicies(OwnController.db.prisma, {
      policies: posts,
      defaultPolicy: 'allow',
      modelMeta: OwnController.db.modelMeta,
      context: {},
    });
    // A prototype key in query arguments: the policy engine refuses it (400).
    return client.post.findMany({ where: JSON.parse('{"__proto__": {"title": "x"}}') });
  }

  @Post('x/api/rest/echo')
  echo(@Body() body: unknown) {
    return { received: body ?? null };
  }
}

async function appWith(
  db: TestDatabase,
  imports: any[],
  configure?: Parameters<typeof createPlatformApp>[1],
  providers: any[] = [],
) {
  const moduleRef = await Test.createTestingModule({ imports, controllers: [OwnController], providers }).compile();
  const app = await createPlatformApp(moduleRef, configure);
  return { app, http: () => request(app.getHttpServer()) };
}

describe.each(testProviders())('a good Nest citizen (%s)', (provider) => {
  let db: TestDatabase;
  const base = (): CrudApiOptions => ({ endpoint: TEST_ENDPOINT, prisma: db.prisma, modelMeta: db.modelMeta });

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    OwnController.db = db;
    await db.prisma.user.create({ data: { email: 'a@example.com', name: 'A' } });
    await db.prisma.tag.createMany({ data: [{ name: 't1' }, { name: 't2' }, { name: 't3' }] });
  });
  afterAll(() => db.drop());

  it.each([
    ['APP_FILTER', [{ provide: APP_FILTER, useClass: HostFilter }]],
    ['useGlobalFilters', []],
  ] as const)('keeps the host’s %s on its routes and the module’s formats on the module’s', async (kind, providers) => {
    const { app, http } = await appWith(
      db,
      [CrudApiModule.forRoot(base())],
      kind === 'useGlobalFilters' ? (nest) => nest.useGlobalFilters(new HostFilter()) : undefined,
      [...providers],
    );
    try {
      expect((await http().get('/own/fail').expect(418)).body).toEqual({ host: true });
      const rest = await http().get('/api/rest/nothing').expect(404);
      expect(rest.headers['content-type']).toBe(JSON_API);
      expect(rest.body.errors[0]).toMatchObject({ code: 'unknown-type' });
      expect((await http().get('/api/rpc/tag/nope').expect(400)).body).toEqual({
        error: { errorCode: 'unknown-operation', message: 'Unknown operation "nope".' },
      });
      const malformed = await http()
        .post('/api/rpc/tag/create')
        .set('content-type', 'application/json')
        .send('{"data":')
        .expect(400);
      expect(malformed.body).toEqual({
        error: { errorCode: 'malformed-json', message: 'The request body is not valid JSON.' },
      });
    } finally {
      await app.close();
    }
  });

  it('serves two instances with their own paths, page sizes and models', async () => {
    const { app, http } = await appWith(db, [
      CrudApiModule.forRoot({ ...base(), pageSize: 2 }),
      CrudApiModule.forRoot({
        ...base(),
        endpoint: 'http://localhost/admin/rest',
        restPath: 'admin/rest',
        rpcPath: 'admin/rpc',
        pageSize: 1,
        models: ['Tag'],
      }),
    ]);
    try {
      expect((await http().get('/api/rest/tag').expect(200)).body.data).toHaveLength(2);
      const admin = await http().get('/admin/rest/tag').expect(200);
      expect(admin.body.data).toHaveLength(1);
      expect(admin.body.links.self).toBe('http://localhost/admin/rest/tag');
      await http().get('/api/rest/user').expect(200);
      expect((await http().get('/admin/rest/user').expect(404)).body.errors[0]).toMatchObject({ code: 'unknown-type' });
      expect((await http().get('/admin/rpc/user/count').expect(404)).body).toEqual({
        error: { errorCode: 'unknown-type', message: 'Unknown model "user".' },
      });
      expect((await http().get('/admin/rpc/tag/count').expect(200)).body).toEqual({ data: 3 });
    } finally {
      await app.close();
    }
  });

  it("hears the other instance's commits: its conditional GETs revalidated from changes read again", async () => {
    const fromChanges = { live: {}, caching: { revalidate: 'changes' as const } };
    const { app, http } = await appWith(db, [
      CrudApiModule.forRoot({ ...base(), ...fromChanges }),
      CrudApiModule.forRoot({ ...base(), ...fromChanges, restPath: 'admin/rest', rpcPath: 'admin/rpc' }),
    ]);
    try {
      const full = await http().get('/admin/rest/tag').expect(200);
      const revalidate = () => http().get('/admin/rest/tag').set('If-None-Match', full.headers.etag);
      await revalidate().expect(304);
      db.queries.length = 0;
      await revalidate().expect(304);
      expect(db.queries).toHaveLength(0);
      await http()
        .post('/api/rpc/tag/create')
        .send({ data: { name: 'from the other instance' } })
        .expect(201);
      const after = await revalidate().expect(200);
      expect(after.body.data.map((tag: { attributes: { name: string } }) => tag.attributes.name)).toContain(
        'from the other instance',
      );
    } finally {
      await app.close();
      // The other tests count the seeded tags.
      await db.prisma.tag.deleteMany({ where: { name: 'from the other instance' } });
    }
  });

  it('takes its options from a useClass factory', async () => {
    @Injectable()
    class OptionsFromClass implements CrudApiOptionsFactory {
      createCrudApiOptions(): CrudApiOptions {
        return { ...base(), pageSize: 1 };
      }
    }
    const { app, http } = await appWith(db, [
      CrudApiModule.forRootAsync({ useClass: OptionsFromClass, rpcPath: 'classy/rpc' }),
    ]);
    try {
      expect((await http().get('/api/rest/tag').expect(200)).body.data).toHaveLength(1);
      expect((await http().get('/classy/rpc/tag/count').expect(200)).body).toEqual({ data: 3 });
    } finally {
      await app.close();
    }
  });

  it('answers withPolicies refusals in a hand-written controller with 403 and 400', async () => {
    const { app, http } = await appWith(db, [CrudApiModule.forRoot(base())]);
    try {
      const refused = await http().post('/own/posts').send({ title: 'x' }).expect(403);
      expect(refused.body).toMatchObject({ statusCode: 403 });
      expect(await db.prisma.post.count({ where: { title: 'x' } })).toBe(0);
      expect((await http().get('/own/posts').expect(400)).body).toMatchObject({ statusCode: 400 });
    } finally {
      await app.close();
    }
  });

  it('leaves a host route that merely contains the mount path to the host’s body parsing', async () => {
    const { app, http } = await appWith(db, [CrudApiModule.forRoot(base())]);
    try {
      const malformed = await http()
        .post('/own/x/api/rest/echo')
        .set('content-type', 'application/json')
        .send('{')
        .expect(400);
      expect(malformed.body.errors).toBeUndefined();
      expect((await http().post('/own/x/api/rest/echo').send({ a: 1 }).expect(201)).body).toEqual({
        received: { a: 1 },
      });
    } finally {
      await app.close();
    }
  });

  it.each([
    [{ pagesize: 5 }, /"pagesize": unknown option/],
    [{ models: ['Tagg'] }, /"models": unknown model "Tagg"/],
    [{ operations: { Tagg: { readOnly: true } } }, /"operations": unknown model "Tagg"/],
    [{ operations: { Tag: { exclude: ['delet'] } } }, /"operations.Tag.exclude": unknown operation "delet"/],
    [{ limits: { maxFilter: 1 } }, /"limits.maxFilter": unknown option/],
  ])('fails start-up on the typo %j, naming it', async (typo, message) => {
    const builder = Test.createTestingModule({ imports: [CrudApiModule.forRoot({ ...base(), ...(typo as object) })] });
    await expect(builder.compile()).rejects.toThrow(message);
  });

  it('fails start-up when an options factory returns a mount path', async () => {
    const builder = Test.createTestingModule({
      imports: [
        CrudApiModule.forRootAsync({ useFactory: () => ({ ...base(), restPath: 'v2/rest' }) as CrudApiOptions }),
      ],
    });
    await expect(builder.compile()).rejects.toThrow(/"restPath": give it to forRoot\/forRootAsync directly/);
  });

  it('fails at declaration on a malformed mount path', () => {
    expect(() => CrudApiModule.forRoot({ ...base(), restPath: '/api/rest/' })).toThrow(/"restPath": must be a path/);
  });
});
