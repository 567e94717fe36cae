import { resolveCrudApiOptions, type CrudApiModuleOptions } from '../../lib/index.js';

const modelMeta = { provider: 'sqlite', models: {}, enums: {} };
const valid: CrudApiModuleOptions = { endpoint: 'http://localhost:3000/api/rest', modelMeta, prisma: {} as never };

describe('resolveCrudApiOptions', () => {
  it('applies the documented defaults', () => {
    expect(resolveCrudApiOptions(valid)).toMatchObject({
      pageSize: 100,
      restPath: 'api/rest',
      rpcPath: 'api/rpc',
      idDivider: '_',
      bodyLimit: '1mb',
    });
  });

  it('accepts Infinity as page size and getPrisma instead of prisma', () => {
    const { prisma: _unused, ...rest } = valid;
    expect(resolveCrudApiOptions({ ...rest, pageSize: Infinity, getPrisma: () => ({}) as never }).pageSize).toBe(Infinity);
  });

  it.each([
    [{ endpoint: 'api/rest' }, /"endpoint": endpoint must be an absolute URL/],
    [{ endpoint: undefined }, /"endpoint"/],
    [{ pageSize: 0 }, /"pageSize": pageSize must not be less than 1/],
    [{ pageSize: Number.NaN }, /"pageSize"/],
    [{ modelMeta: undefined }, /"modelMeta": modelMeta must be the object written by nestjs-crud-api-generator/],
    [{ prisma: undefined }, /"prisma": prisma is required unless getPrisma is given/],
    [{ getPrisma: 'client' }, /"getPrisma": getPrisma must be a function/],
    [{ restPath: '/api/rest/' }, /"restPath"/],
    [{ rpcPath: 'a b' }, /"rpcPath"/],
    [{ idDivider: '' }, /"idDivider"/],
    [{ models: ['Post', 3] }, /"models"/],
    [{ bodyLimit: 'lots' }, /"bodyLimit"/],
  ])('rejects %j', (override, message) => {
    expect(() => resolveCrudApiOptions({ ...valid, ...(override as object) } as CrudApiModuleOptions)).toThrow(message);
  });

  it('names every bad option at once', () => {
    expect(() => resolveCrudApiOptions({ ...valid, endpoint: 'x', pageSize: -1 })).toThrow(/"endpoint".*"pageSize"/);
  });
});

describe('resolveCrudApiOptions limits', () => {
  it('merges given limits over the defaults', () => {
    expect(resolveCrudApiOptions({ ...valid, limits: { maxIncludeDepth: 5 } }).limits).toEqual({
      maxIncludeDepth: 5,
      maxIncludePaths: 10,
      maxFilters: 20,
      maxFilterValueLength: 1000,
    });
  });

  it.each([[{ limits: { maxFilters: 0 } }], [{ maxTake: 2.5 }]])('rejects %j', (override) => {
    expect(() => resolveCrudApiOptions({ ...valid, ...(override as object) } as CrudApiModuleOptions)).toThrow(/invalid option/);
  });
});
