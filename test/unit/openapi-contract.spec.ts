import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { ModelRegistry } from '../../lib/metadata/model-registry.js';
import { DEFAULT_OPENAPI_OPTIONS } from '../../lib/openapi/openapi.types.js';
import { buildOpenApiDocuments } from '../../lib/openapi/openapi-documents.js';
import type { ResolvedCrudApiOptions } from '../../lib/options/crud-api-options.interface.js';
import { DEFAULT_LIMITS, DEFAULT_TRANSACTIONS } from '../../lib/options/option-table.js';
import { type Exchange, OpenApiContract } from '../support/openapi-contract.js';

const options = {
  endpoint: 'http://localhost/api/rest',
  modelMeta,
  restPath: 'api/rest',
  rpcPath: 'api/rpc',
  pageSize: 100,
  idDivider: '_',
  limits: DEFAULT_LIMITS,
  transactions: DEFAULT_TRANSACTIONS,
} as unknown as ResolvedCrudApiOptions;
const { rest, rpc } = buildOpenApiDocuments(new ModelRegistry(modelMeta), options, DEFAULT_OPENAPI_OPTIONS);
const contract = new OpenApiContract([rest, rpc]);

const JSON_API = 'application/vnd.api+json';
const tag = {
  type: 'tag',
  id: 1,
  attributes: { name: 'nest' },
  relationships: { posts: { links: { self: 'x', related: 'y' } } },
  links: { self: 'z' },
};
const ok: Exchange = {
  method: 'GET',
  url: '/api/rest/tag/1',
  status: 200,
  responseContentType: JSON_API,
  responseText: JSON.stringify({ jsonapi: { version: '1.1' }, links: { self: 'z' }, data: tag }),
  responseHeaders: {},
};
const rpcList: Exchange = {
  ...ok,
  url: `/api/rpc/tag/findMany?q=${encodeURIComponent('{"where":{"name":{"contains":"n"}}}')}`,
  responseContentType: 'application/json',
  responseText: '{"data":[{"id":1,"name":"nest"}]}',
};

// The checker the e2e suites run every exchange through: it must catch what the document does not describe.
describe('the OpenAPI contract of the e2e suites', () => {
  it('accepts exchanges the documents describe', () => {
    expect(contract.check(ok)).toBeUndefined();
    expect(contract.check(rpcList)).toBeUndefined();
    expect(
      contract.check({
        ...ok,
        status: 404,
        responseText: JSON.stringify({
          errors: [{ status: '404', code: 'not-found', title: 'Resource not found', detail: 'No tag.' }],
        }),
      }),
    ).toBeUndefined();
  });

  it('fails a response the document does not describe: status, media type, body, required header', () => {
    expect(contract.check({ ...ok, status: 202 })).toMatch(/status 202 is not documented/);
    expect(contract.check({ ...ok, responseContentType: 'application/json' })).toMatch(
      /Content-Type application\/json is not documented/,
    );
    expect(
      contract.check({
        ...ok,
        responseText: JSON.stringify({
          jsonapi: { version: '1.1' },
          links: { self: 'z' },
          data: { ...tag, attributes: { name: 5 } },
        }),
      }),
    ).toMatch(/\/data\/attributes\/name must be string/);
    expect(contract.check({ ...rpcList, responseText: '{"data":[{"id":"1"}]}' })).toMatch(/does not match/);
    const created = {
      ...ok,
      method: 'POST',
      url: '/api/rest/tag',
      requestContentType: JSON_API,
      requestBody: { data: { type: 'tag', attributes: { name: 'a' } } },
      status: 201,
    };
    expect(contract.check(created)).toMatch(/required header Location is missing/);
    expect(contract.check({ ...created, responseHeaders: { location: 'z' } })).toBeUndefined();
  });

  it('fails a request the document refuses that was answered with success, not one that was refused', () => {
    const badFilter = { ...ok, url: '/api/rest/tag?filter[nope]=1' };
    expect(contract.check(badFilter)).toMatch(/refuses the request/);
    expect(
      contract.check({
        ...badFilter,
        status: 400,
        responseText: JSON.stringify({
          errors: [{ status: '400', code: 'invalid-query-parameter', title: 't', detail: 'd' }],
        }),
      }),
    ).toBeUndefined();
    expect(
      contract.check({ ...rpcList, url: `/api/rpc/tag/findMany?q=${encodeURIComponent('{"where":{"nope":1}}')}` }),
    ).toMatch(/refuses the request/);
    expect(contract.check({ ...ok, url: '/api/rest/tag?page[limit]=0' })).toMatch(/page/);
  });

  it('checks the implementation-specific parameters a document has, and ignores the others', () => {
    const softDeleting = buildOpenApiDocuments(
      new ModelRegistry(modelMeta),
      { ...options, rules: { Tag: { softDelete: { field: 'deletedAt' } } } },
      DEFAULT_OPENAPI_OPTIONS,
    );
    const documented = new OpenApiContract([softDeleting.rest, softDeleting.rpc]);
    expect(documented.check({ ...ok, url: '/api/rest/tag/1?withDeleted=true&_=1700000000' })).toBeUndefined();
    expect(documented.check({ ...ok, url: '/api/rest/tag/1?withDeleted=yes' })).toMatch(/withDeleted/);
    expect(documented.check({ ...rpcList, url: `${rpcList.url}&withDeleted=false` })).toMatch(/refuses the request/);
    expect(contract.check({ ...ok, url: '/api/rest/tag/1?withDeleted=yes' })).toBeUndefined();
  });

  it('fails a success on a route the document does not have', () => {
    expect(contract.check({ ...ok, url: '/api/rest/unknown' })).toMatch(/no such operation/);
    expect(contract.check({ ...ok, url: '/api/rest/unknown', status: 404 })).toBeUndefined();
    expect(contract.check({ ...ok, url: '/elsewhere' })).toBeUndefined();
  });
});

describe('the contract and hostile query keys', () => {
  it('reads a prototype key in a deepObject parameter as a key, never touching Object.prototype', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      expect(contract.check({ ...ok, url: `/api/rest/tag?filter[${key}][polluted]=1` })).toMatch(/refuses the request/);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });
});
