import { Injectable } from '@nestjs/common';

import { type ApiRequest, type ApiResponse, CrudApiModule, RestService } from '../../lib/index.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

@Injectable()
class CustomRestService extends RestService {
  override async fetch(_req: ApiRequest, type: string, id: string): Promise<ApiResponse> {
    return { status: 200, body: { meta: { custom: `${type}/${id}` } } };
  }
}

describe.each(testProviders())('module wiring (%s)', (provider) => {
  describe('under a global prefix', () => {
    const t = useTestApp(provider, {
      configure: (app) => app.setGlobalPrefix('v1'),
      seed: async () => {
        await t.db.prisma.tag.create({ data: { name: 'prefixed' } });
      },
    });

    it('serves both interfaces below the prefix', async () => {
      await t.http().get('/v1/api/rpc/tag/findMany').expect(200);
      const res = await t.http().get('/v1/api/rpc/tag/count').expect(200);
      expect(res.body).toEqual({ data: 1 });
    });

    it('renders errors below the prefix in the interface format', async () => {
      const res = await t.http().get('/v1/api/rest/nothing').expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
      expect(res.body.errors[0]).toMatchObject({ status: '404', code: 'unknown-type' });
    });

    it('leaves the routes without the prefix unmapped', async () => {
      await t.http().get('/api/rpc/tag/findMany').expect(404);
    });
  });

  describe('with a replaced RestService', () => {
    const t = useTestApp(provider, {
      override: (builder) => builder.overrideProvider(RestService).useClass(CustomRestService),
    });

    it('routes requests to the replacement', async () => {
      const res = await t.http().get('/api/rest/post/7').expect(200);
      expect(res.body).toEqual({ meta: { custom: 'post/7' } });
    });
  });

  describe('with custom mount paths', () => {
    const t = useTestApp(provider, { options: { restPath: 'jsonapi', rpcPath: 'model/rpc' } });

    it('mounts the controllers where the options say', async () => {
      await t.http().get('/model/rpc/user/count').expect(200);
      await t.http().get('/api/rpc/user/count').expect(404);
    });
  });
});

describe('forRootAsync', () => {
  it('fails fast when the factory returns invalid options', async () => {
    const { Test } = await import('@nestjs/testing');
    const builder = Test.createTestingModule({
      imports: [
        CrudApiModule.forRootAsync({
          useFactory: () => ({
            endpoint: 'not a url',
            modelMeta: { provider: 'sqlite', models: {}, enums: {} },
            prisma: {} as never,
          }),
        }),
      ],
    });
    await expect(builder.compile()).rejects.toThrow(/invalid option "endpoint"/);
  });
});
