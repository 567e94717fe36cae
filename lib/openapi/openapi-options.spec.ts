import { CrudApiModule } from '../crud-api.module.js';
import { resolveOpenApiOptions } from './openapi.types.js';

const declare = (openapi: unknown) => () =>
  CrudApiModule.forRoot({
    endpoint: 'http://localhost/api/rest',
    modelMeta: { provider: 'sqlite', models: {}, enums: {} },
    prisma: {},
    openapi,
  } as never);

describe('the openapi extra', () => {
  it('is off by default and takes true or options over the defaults', () => {
    expect(resolveOpenApiOptions(undefined)).toBeUndefined();
    expect(resolveOpenApiOptions(false)).toBeUndefined();
    expect(resolveOpenApiOptions(true)).toEqual({ path: 'api/docs', title: 'CRUD API', version: '1.0.0', ui: true });
    expect(resolveOpenApiOptions({ path: 'x/y', ui: false })).toEqual({
      path: 'x/y',
      title: 'CRUD API',
      version: '1.0.0',
      ui: false,
    });
  });

  it('is checked when the module is declared, naming every problem', () => {
    expect(declare({ path: 'api/docs', servers: [{ url: 'https://api.example.com' }] })).not.toThrow();
    const problems = (() => {
      try {
        declare({ path: '/docs/', ui: 'yes', color: 'red', servers: [{}] })();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(problems).toContain('"openapi.path": must be a path like "api/docs"');
    expect(problems).toContain('"openapi.ui": ui must be a boolean value');
    expect(problems).toContain('"openapi.color": unknown option');
    expect(problems).toContain('"openapi.servers.0.url": url must be a string');
    expect(declare('on')).toThrow(/"openapi": must be true, false or/);
  });

  it('takes decorators and security schemes of every kind', () => {
    expect(
      declare({
        decorators: [() => undefined],
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          key: { type: 'apiKey', name: 'X-Api-Key', in: 'query' },
          oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://a.test/token', scopes: {} } } },
          oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://a.test/.well-known/openid-configuration' },
        },
        security: [{ oauth: ['read'] }, { bearer: [], key: [] }, {}],
      }),
    ).not.toThrow();
  });

  it.each([
    [{ decorators: 'Public' }, '"openapi.decorators": must be an array of class decorators'],
    [{ decorators: [{}] }, '"openapi.decorators": must be an array of class decorators'],
    [{ securitySchemes: [] }, '"openapi.securitySchemes": must be an object'],
    [{ securitySchemes: { jwt: { type: 'bearer' } } }, '"openapi.securitySchemes.jwt": type must be'],
    [{ securitySchemes: { jwt: { type: 'http' } } }, '"openapi.securitySchemes.jwt": scheme must be'],
    [
      { securitySchemes: { key: { type: 'apiKey', name: 'k', in: 'body' } } },
      '"openapi.securitySchemes.key": an API key',
    ],
    [{ securitySchemes: { o: { type: 'oauth2', flows: {} } } }, '"openapi.securitySchemes.o": flows must'],
    [{ securitySchemes: { o: { type: 'openIdConnect' } } }, '"openapi.securitySchemes.o": openIdConnectUrl'],
    [{ security: { bearer: [] } }, '"openapi.security": must be an array'],
    [{ security: [{ bearer: [] }] }, '"openapi.security.0.bearer": not a scheme'],
    [
      { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, security: [{ bearer: 'all' }] },
      '"openapi.security.0.bearer": scopes must be',
    ],
  ])('refuses %j at declaration', (openapi, problem) => {
    expect(declare(openapi)).toThrow(problem);
  });
});
