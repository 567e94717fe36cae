import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags, DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Validator } from '@seriousme/openapi-schema-validator';

import { CrudApiOpenApi, mergeOpenApiDocuments } from '../../lib/index.js';
import { describedSchema } from '../support/described-schema.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

@ApiTags('health')
@Controller('health')
class HealthController {
  @Get()
  @ApiOkResponse({ description: 'Up' })
  check() {
    return { ok: true };
  }
}

describe.each(testProviders())('OpenAPI routes (%s)', (provider) => {
  describe('with openapi on and a global prefix', () => {
    const t = useTestApp(provider, {
      options: { openapi: { path: 'docs/api', title: 'Blog', version: '2.0.0' } },
      metadata: { controllers: [HealthController] },
      configure: (app) => app.setGlobalPrefix('v1'),
    });

    it('serves each document as JSON, its paths under the global prefix', async () => {
      for (const kind of ['rest', 'rpc'] as const) {
        const response = await t.http().get(`/v1/docs/api/${kind}.json`).expect(200);
        expect(response.headers['content-type']).toBe('application/json');
        expect(response.body).toEqual(t.app.get(CrudApiOpenApi, { strict: false }).document(kind));
        expect(response.body.info).toEqual({
          title: expect.stringMatching(/^Blog — /),
          version: '2.0.0',
          description: expect.any(String),
        });
        expect(Object.keys(response.body.paths).every((path) => path.startsWith(`/v1/api/${kind}/`))).toBe(true);
      }
    });

    it('checks the exchanges of a prefixed app against the prefixed documents', async () => {
      await t
        .http()
        .post('/v1/api/rest/user')
        .set('content-type', 'application/vnd.api+json')
        .send({ data: { type: 'user', attributes: { email: 'a@x.test', name: 'A' } } })
        .expect(201);
      const list = await t.http().get('/v1/api/rest/user?page[limit]=1&sort=-email').expect(200);
      expect(list.body.data).toHaveLength(1);
      await t
        .http()
        .get('/v1/api/rpc/user/findMany')
        .query({ q: JSON.stringify({ where: { email: { contains: 'a' } } }) })
        .expect(200);
    });

    it('serves Swagger UI and its assets, nothing else', async () => {
      const page = await t.http().get('/v1/docs/api').expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('/v1/docs/api/swagger-ui/swagger-ui-bundle.js');
      const bundle = await t.http().get('/v1/docs/api/swagger-ui/swagger-ui-bundle.js').expect(200);
      expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
      const initializer = await t.http().get('/v1/docs/api/swagger-ui/initializer.js').expect(200);
      expect(initializer.text).toContain('"file":"rest.json"');
      await t.http().get('/v1/docs/api/swagger-ui/package.json').expect(404);
      await t.http().get('/v1/docs/api/swagger-ui/..%2Fpackage.json').expect(404);
      await t.http().get('/v1/docs/api/other.json').expect(404);
    });

    it('merges into the document @nestjs/swagger builds, which leaves the module’s generic routes out', async () => {
      const appDocument = SwaggerModule.createDocument(
        t.app,
        new DocumentBuilder().setTitle('App').setVersion('1').build(),
      );
      expect(Object.keys(appDocument.paths)).toEqual(['/v1/health']);
      const crud = t.app.get(CrudApiOpenApi, { strict: false });
      const merged = mergeOpenApiDocuments(appDocument, crud.document('rest'), crud.document('rpc'));
      expect(merged.paths).toHaveProperty(['/v1/health']);
      expect(merged.paths).toHaveProperty(['/v1/api/rest/post/{id}']);
      expect(merged.paths).toHaveProperty(['/v1/api/rpc/post/findMany']);
      const result = await new Validator().validate(merged as never);
      expect(result.errors).toBeUndefined();
    });
  });

  describe('with the UI off', () => {
    const t = useTestApp(provider, { options: { openapi: { ui: false } } });

    it('serves the documents only', async () => {
      await t.http().get('/api/docs/rest.json').expect(200);
      await t.http().get('/api/docs').expect(404);
      await t.http().get('/api/docs/swagger-ui/swagger-ui.css').expect(404);
    });
  });

  describe('before a document is asked for', () => {
    // A Standard Schema whose JSON Schema only the documents read: how many times they were built.
    let described = 0;
    const titled = describedSchema(() => {
      described++;
      return { type: 'object', properties: { title: { type: 'string', maxLength: 80 } } };
    });
    const t = useTestApp(provider, {
      options: { openapi: { ui: false }, rules: { Post: { validate: { create: titled } } } },
    });

    it('has not built the documents at start-up: they are built once, when first asked for', async () => {
      // Before `t.http()`, which reads the documents to check every exchange against them.
      expect(described).toBe(0);
      const openApi = t.app.get(CrudApiOpenApi, { strict: false });
      expect(openApi.document('rest').paths).toHaveProperty(['/api/rest/post']);
      const built = described;
      expect(built).toBeGreaterThan(0);
      openApi.document('rpc');
      await t.http().get('/api/docs/rest.json').expect(200);
      expect(described).toBe(built);
    });
  });

  describe('with openapi off', () => {
    const t = useTestApp(provider, { options: { openapi: false } });

    it('serves no document', async () => {
      await t.http().get('/api/docs/rest.json').expect(404);
      expect(() => t.app.get(CrudApiOpenApi, { strict: false })).toThrow();
    });
  });
});
