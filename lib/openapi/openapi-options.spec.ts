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
});
