import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

import { DocumentBuilder } from '@nestjs/swagger';
import type { DMMF } from '@prisma/generator-helper';
import { Validator } from '@seriousme/openapi-schema-validator';
import { z } from 'zod';

import { samplePolicies } from '../../fixtures/blog/policies.js';
import { modelMeta as postgresMeta } from '../../fixtures/generated/postgresql/crud-api/index.js';
import { modelMeta as sqliteMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { FIELD_MODE_RULES } from '../../test/support/field-mode-fixtures.js';
import { buildModelMeta } from '../generator/build-model-meta.js';
import type { DataModelMeta } from '../metadata/model-meta.types.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import type { CrudApiModuleOptions } from '../module/crud-api-module-options.interface.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { DEFAULT_LIMITS, DEFAULT_TRANSACTIONS } from '../options/option-table.js';
import type { CrudApiRules } from '../rules/rules.types.js';
import {
  DEFAULT_OPENAPI_OPTIONS,
  type OpenApiDocument,
  type OpenApiSecurityRequirement,
  type OpenApiSecurityScheme,
  type ResolvedOpenApiOptions,
} from './openapi.types.js';
import { buildOpenApiDocuments, mergeOpenApiDocuments, withMountBase } from './openapi-documents.js';

const schemaWasm = createRequire(import.meta.url)('@prisma/prisma-schema-wasm') as { get_dmmf(params: string): string };

/** Every scalar type, enums and scalar lists, a compound id with a compound foreign key, and an implicit many-to-many. */
const SECOND_SCHEMA = `
datasource db {
  provider = "postgresql"
}
enum Size {
  S
  M
  L
}
model Item {
  code      String
  region    String
  text      String
  count     Int
  ratio     Float
  price     Decimal
  big       BigInt
  flag      Boolean
  at        DateTime
  blob      Bytes
  data      Json
  size      Size
  sizes     Size[]
  labels    String[]
  note      String?
  stamp     DateTime? @updatedAt
  parts     Part[]
  @@id([code, region])
}
model Shelf {
  id    BigInt @id
  parts Part[]
}
model Part {
  id         Int     @id @default(autoincrement())
  item       Item    @relation(fields: [itemCode, itemRegion], references: [code, region])
  itemCode   String
  itemRegion String
  shelves    Shelf[]
}
`;

function dmmfOf(source: string): DMMF.Datamodel {
  return JSON.parse(schemaWasm.get_dmmf(JSON.stringify({ prismaSchema: [['schema.prisma', source]] })))
    .datamodel as DMMF.Datamodel;
}

function resolved(modelMeta: DataModelMeta, options: Partial<CrudApiModuleOptions> = {}): ResolvedCrudApiOptions {
  return {
    endpoint: 'http://localhost/api/rest',
    modelMeta,
    restPath: 'api/rest',
    rpcPath: 'api/rpc',
    pageSize: 100,
    count: 'exact',
    idDivider: '_',
    bodyLimit: '1mb',
    limits: DEFAULT_LIMITS,
    transactions: DEFAULT_TRANSACTIONS,
    ...options,
  } as ResolvedCrudApiOptions;
}

function documents(
  modelMeta: DataModelMeta,
  options: Partial<CrudApiModuleOptions> = {},
  openapi: Partial<ResolvedOpenApiOptions> = {},
) {
  const all = resolved(modelMeta, options);
  return buildOpenApiDocuments(new ModelRegistry(modelMeta, all.models, all.operations), all, {
    ...DEFAULT_OPENAPI_OPTIONS,
    ...openapi,
  });
}

async function expectValid(document: OpenApiDocument): Promise<void> {
  const result = await new Validator().validate(document as never);
  expect(result.errors).toBeUndefined();
  expect(result.valid).toBe(true);
}

const secondMeta = buildModelMeta(dmmfOf(SECOND_SCHEMA), 'postgresql');
const SOFT_DELETE_RULES: CrudApiRules = {
  Post: { softDelete: { field: 'deletedAt', cascade: ['comments'] } },
  Comment: { softDelete: { field: 'deletedAt' } },
  Tag: { softDelete: { field: 'deletedAt' } },
};
const schemas = (document: OpenApiDocument) => document.components.schemas as Record<string, any>;
const parameters = (document: OpenApiDocument) => document.components.parameters as Record<string, any>;

describe('OpenAPI documents', () => {
  it.each([
    ['the sample schema on SQLite', sqliteMeta, {}],
    ['the sample schema on PostgreSQL with its policies', postgresMeta, { policies: samplePolicies }],
    ['the sample schema with field modes', sqliteMeta, { rules: FIELD_MODE_RULES }],
    [
      'the sample schema with soft-deleted models',
      postgresMeta,
      { rules: SOFT_DELETE_RULES, idempotency: { model: 'IdempotencyKey' } },
    ],
    [
      'a schema with every scalar type, compound ids and an implicit many-to-many',
      secondMeta,
      { idDivider: '~', pageSize: 20, maxTake: 50 },
    ],
  ] as const)('are valid OpenAPI 3.1 for %s', async (_name, meta, options) => {
    const { rest, rpc } = documents(meta as DataModelMeta, options as Partial<CrudApiModuleOptions>);
    expect(rest.openapi).toBe('3.1.0');
    await expectValid(rest);
    await expectValid(rpc);
  });

  it.each([
    ['its policies', postgresMeta, { policies: samplePolicies }],
    ['field modes', sqliteMeta, { rules: FIELD_MODE_RULES }],
    [
      'soft-deleted models, idempotency and live queries',
      postgresMeta,
      { rules: SOFT_DELETE_RULES, idempotency: { model: 'IdempotencyKey' }, live: {} },
    ],
  ] as const)(
    'describe everything themselves for the sample schema with %s, citing no file of ours',
    (_name, meta, options) => {
      // API consumers read the documents without this repository: a docs/*.md reference leads them nowhere.
      for (const document of Object.values(documents(meta as DataModelMeta, options as Partial<CrudApiModuleOptions>)))
        expect(JSON.stringify(document).match(/docs\/|\.md\b/g)).toBeNull();
    },
  );

  it('describe X-Request-Id on every answer of the module and Retry-After on 503', () => {
    for (const document of Object.values(documents(sqliteMeta))) {
      const answers: Array<[string, any]> = [];
      for (const item of Object.values(document.paths))
        for (const operation of Object.values(item as Record<string, any>))
          for (const [status, response] of Object.entries(operation.responses ?? {})) answers.push([status, response]);
      for (const [name, response] of Object.entries(document.components.responses ?? {}))
        answers.push([name.slice(-3), response]);
      const own = answers.filter(([status, response]) => status !== '431' && !('$ref' in response));
      expect(own.length).toBeGreaterThan(10);
      for (const [status, response] of own) {
        expect(response.headers['X-Request-Id']).toEqual({ $ref: '#/components/headers/RequestId' });
        expect(response.headers['Retry-After']).toEqual(
          status === '503' ? { $ref: '#/components/headers/RetryAfter' } : undefined,
        );
      }
      expect(answers.some(([status]) => status === '503')).toBe(true);
      expect(Object.keys(document.components.headers ?? {})).toEqual([
        'RequestId',
        'RetryAfter',
        'ETag',
        'CacheControl',
      ]);
    }
  });

  it('describe ETag, If-None-Match and 304 on every GET, and none of them with caching: false', () => {
    for (const [caching, document] of [
      ...Object.values(documents(sqliteMeta)).map((document) => [true, document] as const),
      ...Object.values(documents(sqliteMeta, { caching: false })).map((document) => [false, document] as const),
    ]) {
      const operations = Object.values(document.paths).flatMap((item) => Object.entries(item as Record<string, any>));
      const gets = operations.filter(([method]) => method === 'get').map(([, operation]) => operation);
      expect(gets.length).toBeGreaterThan(5);
      for (const operation of gets) {
        expect(Boolean(operation.responses['304'])).toBe(caching);
        expect(Boolean(operation.responses['200'].headers.ETag)).toBe(caching);
        expect((operation.parameters ?? []).some((parameter: any) => parameter.name === 'If-None-Match')).toBe(caching);
      }
      const writes = operations
        .filter(([method]) => !['get', 'parameters', 'summary', 'description'].includes(method))
        .map(([, operation]) => operation);
      for (const operation of writes) expect(operation.responses['304']).toBeUndefined();
    }
  });

  it('describe every GET as a live query too with live on (its event stream, Last-Event-ID), and none without', () => {
    for (const [live, document] of [
      ...Object.values(documents(sqliteMeta, { live: {} })).map((document) => [true, document] as const),
      ...Object.values(documents(sqliteMeta)).map((document) => [false, document] as const),
    ]) {
      const operations = Object.values(document.paths).flatMap((item) => Object.entries(item as Record<string, any>));
      const gets = operations.filter(([method]) => method === 'get').map(([, operation]) => operation);
      expect(gets.length).toBeGreaterThan(5);
      for (const operation of gets) {
        expect(Boolean(operation.responses['200'].content['text/event-stream'])).toBe(live);
        expect((operation.parameters ?? []).some((parameter: any) => parameter.name === 'Last-Event-ID')).toBe(live);
      }
    }
  });

  it('write every scalar type in its wire form', () => {
    const attributes = schemas(documents(secondMeta).rest).ItemAttributes.properties;
    expect(attributes.price).toMatchObject({ type: 'string', pattern: expect.any(String) });
    expect(attributes.big).toMatchObject({ type: 'string', pattern: '^-?\\d+$' });
    expect(attributes.at).toMatchObject({ type: 'string', format: 'date-time' });
    expect(attributes.blob).toMatchObject({ type: 'string', contentEncoding: 'base64' });
    expect(attributes.size).toEqual({ type: 'string', enum: ['S', 'M', 'L'] });
    expect(attributes.sizes).toEqual({ type: 'array', items: { type: 'string', enum: ['S', 'M', 'L'] } });
    expect(attributes.note).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(attributes.data).not.toHaveProperty('type');
    const input = schemas(documents(secondMeta).rest).ItemCreateDocument.properties.data.properties.attributes;
    expect(input.properties.big.type).toEqual(['string', 'integer']);
    expect(input.required).toEqual(expect.arrayContaining(['text', 'count', 'price', 'blob']));
    expect(input.required).not.toContain('stamp');
  });

  it('describe compound ids with the id divider, single integer ids as numbers', () => {
    const { rest } = documents(secondMeta, { idDivider: '~' });
    expect(schemas(rest).ItemResource.properties.id).toMatchObject({
      type: 'string',
      description: expect.stringContaining('"~"'),
    });
    expect(schemas(rest).PartResource.properties.id).toEqual({ type: 'integer' });
    expect(schemas(rest).ShelfResource.properties.id).toMatchObject({ type: 'string' });
    const unique = schemas(documents(secondMeta).rpc).ItemWhereUniqueInput;
    expect(unique.properties.code_region).toMatchObject({ required: ['code', 'region'] });
  });

  it('never show a field an access policy hides from everyone', () => {
    const { rest, rpc } = documents(postgresMeta, { policies: samplePolicies });
    expect(schemas(rest).UserAttributes.properties).not.toHaveProperty('passwordHash');
    expect(schemas(rest).UserFilter.properties).not.toHaveProperty('passwordHash');
    expect(schemas(rpc).UserRow.properties).not.toHaveProperty('passwordHash');
    expect(schemas(rpc).UserWhereInput.properties).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(parameters(rest).UserSort)).not.toContain('passwordHash');
    expect(schemas(documents(postgresMeta).rest).UserAttributes.properties).toHaveProperty('passwordHash');
  });

  describe('follow the field modes of the rules', () => {
    const { rest, rpc } = documents(sqliteMeta, { rules: FIELD_MODE_RULES });
    const restInput = (name: string) => schemas(rest)[name].properties.data.properties;

    it('show neither write-only, internal nor virtual fields in answers, filters, sorts or selections', () => {
      for (const name of ['passwordHash', 'createdAt', 'password']) {
        expect(schemas(rest).UserAttributes.properties).not.toHaveProperty(name);
        expect(schemas(rest).UserFilter.properties).not.toHaveProperty(name);
        expect(JSON.stringify(parameters(rest).UserSort)).not.toContain(`"${name}"`);
        for (const component of ['UserRow', 'UserWhereInput', 'UserSelect', 'UserOmit', 'UserOrderByInput'])
          expect(schemas(rpc)[component].properties).not.toHaveProperty(name);
      }
      expect(schemas(rest).UserAttributes.properties).toHaveProperty('role');
      expect(schemas(rest).PostAttributes.properties).toHaveProperty('authorId');
      expect(schemas(rest).PostAttributes.properties).not.toHaveProperty('views');
      expect(schemas(rest).PostRelationships.properties).toHaveProperty('author');
    });

    it('take write-only and virtual fields as writeOnly, and neither server-set nor internal ones', () => {
      for (const document of ['UserCreateDocument', 'UserUpdateDocument']) {
        const attributes = restInput(document).attributes.properties;
        expect(attributes.passwordHash).toEqual({ type: 'string', writeOnly: true });
        expect(attributes.password).toEqual({ type: 'string', writeOnly: true });
        expect(attributes.inviteCode).toMatchObject({
          anyOf: [{ type: 'integer' }, { type: 'null' }],
          writeOnly: true,
        });
        expect(attributes.email).toEqual({ type: 'string' });
        expect(attributes).not.toHaveProperty('role');
        expect(attributes).not.toHaveProperty('createdAt');
      }
      expect(restInput('PostCreateDocument').attributes.properties).not.toHaveProperty('authorId');
      expect(restInput('PostCreateDocument').relationships.properties).not.toHaveProperty('author');
      expect(restInput('PostCreateDocument').relationships.properties).toHaveProperty('tags');
      for (const data of ['UserCreateInput', 'UserUpdateInput']) {
        expect(schemas(rpc)[data].properties).toHaveProperty('passwordHash');
        expect(schemas(rpc)[data].properties.password).toEqual({ type: 'string', writeOnly: true });
        expect(schemas(rpc)[data].properties).not.toHaveProperty('role');
        expect(schemas(rpc)[data].properties).not.toHaveProperty('createdAt');
      }
      expect(schemas(rpc).PostCreateInput.properties).not.toHaveProperty('author');
      expect(schemas(rpc).PostCreateInput.properties).not.toHaveProperty('authorId');
    });

    it("carry the validators' constraints for each kind of write", () => {
      const validated = documents(sqliteMeta, {
        rules: {
          User: {
            validate: {
              create: z.object({ email: z.email().max(254) }),
              update: z.object({ name: z.string().min(2) }),
            },
          },
        },
      });
      const attributes = (name: string) =>
        schemas(validated.rest)[name].properties.data.properties.attributes.properties;
      expect(attributes('UserCreateDocument').email).toEqual({
        type: 'string',
        allOf: [expect.objectContaining({ type: 'string', format: 'email', maxLength: 254 })],
      });
      expect(attributes('UserCreateDocument').name).toEqual({ type: 'string' });
      expect(attributes('UserUpdateDocument').email).toEqual({ type: 'string' });
      expect(attributes('UserUpdateDocument').name.allOf).toEqual([expect.objectContaining({ minLength: 2 })]);
      expect(schemas(validated.rpc).UserCreateInput.properties.email.allOf).toEqual([
        expect.objectContaining({ format: 'email', maxLength: 254 }),
      ]);
    });

    it('require required virtual fields on create only', () => {
      expect(restInput('UserCreateDocument').attributes.required).toEqual(['email', 'name', 'password']);
      expect(restInput('UserUpdateDocument').attributes).not.toHaveProperty('required');
      expect(schemas(rpc).UserCreateInput.required).toEqual(['password']);
      expect(schemas(rpc).UserUpdateInput).not.toHaveProperty('required');
    });

    it('offer no relationship route changing a relationship the server sets', () => {
      expect(rest.paths['/api/rest/post/{id}/relationships/author']).not.toHaveProperty('patch');
      expect(rest.paths['/api/rest/post/{id}/relationships/tags']).toHaveProperty('patch');
      expect(rest.paths['/api/rest/post/{id}/relationships/author']).toHaveProperty('get');
    });
  });

  describe('with a model that records its history', () => {
    const { rest } = documents(sqliteMeta, { rules: { Post: { history: true } } });
    const path = (at: string) => rest.paths[at] as Record<string, any>;
    const asOf = expect.objectContaining({ name: 'asOf', in: 'query', required: false });

    it('is valid OpenAPI 3.1', async () => {
      await expectValid(rest);
    });

    it('take asOf on the list and fetch of that type only', () => {
      expect(path('/api/rest/post').get.parameters).toContainEqual(asOf);
      expect(path('/api/rest/post/{id}').get.parameters).toContainEqual(asOf);
      expect(path('/api/rest/user').get.parameters).not.toContainEqual(asOf);
      expect(path('/api/rest/post/{id}/comments').get.parameters).not.toContainEqual(asOf);
      expect(path('/api/rest/post/{id}').patch.parameters).not.toContainEqual(asOf);
    });

    it('answer the versions at GET /:type/:id/history, with their filters, sort and offset pages', () => {
      const history = path('/api/rest/post/{id}/history');
      expect(history.get).toMatchObject({ operationId: 'history_post', tags: ['post'] });
      expect(history.get.parameters.map((parameter: any) => parameter.name)).toEqual([
        'filter',
        'sort',
        'page',
        'If-None-Match',
      ]);
      const [filter, sort, page] = history.get.parameters;
      expect(Object.keys(filter.schema.properties)).toEqual(['since', 'until', 'actor']);
      expect(sort.schema).toEqual({ enum: ['-at', 'at'] });
      expect(Object.keys(page.schema.properties)).toEqual(['offset', 'limit']);
      const document = history.get.responses['200'].content['application/vnd.api+json'].schema;
      expect(document.properties.data).toEqual({ type: 'array', items: { $ref: '#/components/schemas/PostVersion' } });
      const version = schemas(rest).PostVersion;
      expect(version.properties.type).toEqual({ const: 'versions' });
      expect(version.properties.attributes.properties.data.anyOf).toContainEqual({
        $ref: '#/components/schemas/PostAttributes',
      });
      expect(rest.paths).not.toHaveProperty(['/api/rest/user/{id}/history']);
    });

    it('put a resource back to a version with POST /:type/:id/history/{version}/restore', () => {
      const restore = path('/api/rest/post/{id}/history/{version}/restore');
      expect(restore.parameters.map((parameter: any) => parameter.name)).toEqual(['id', 'version']);
      expect(restore.post.requestBody).toBeUndefined();
      expect(restore.post.parameters).toContainEqual(expect.objectContaining({ name: 'If-Match', in: 'header' }));
      expect(restore.post.responses['200'].content['application/vnd.api+json'].schema).toEqual(
        path('/api/rest/post/{id}').get.responses['200'].content['application/vnd.api+json'].schema,
      );
      for (const status of ['400', '403', '404'])
        expect(restore.post.responses[status]).toEqual({
          $ref: `#/components/responses/JsonApiError${status}`,
          description: expect.any(String),
        });
      expect(rest.paths).not.toHaveProperty(['/api/rest/user/{id}/history/{version}/restore']);
    });
  });

  describe('with soft-deleted models', () => {
    const { rest, rpc } = documents(sqliteMeta, { rules: SOFT_DELETE_RULES, idempotency: { model: 'IdempotencyKey' } });
    const operationsOf = (document: OpenApiDocument) =>
      Object.values(document.paths).flatMap((item) =>
        Object.entries(item as Record<string, any>).filter(([key]) => key !== 'parameters'),
      );
    const withDeleted = { $ref: '#/components/parameters/WithDeleted' };
    const path = (document: OpenApiDocument, at: string) => document.paths[at] as Record<string, any>;

    it('take withDeleted=true on every read and hard delete of both documents, and on nothing else', () => {
      const writesWithDeleted: string[] = [];
      for (const document of [rest, rpc]) {
        expect(parameters(document).WithDeleted).toMatchObject({
          name: 'withDeleted',
          in: 'query',
          required: false,
          schema: { enum: ['true'] },
        });
        const operations = operationsOf(document);
        const reads = operations.filter(([method]) => method === 'get');
        expect(reads.length).toBeGreaterThan(10);
        for (const [method, operation] of operations) {
          const takes = (operation.parameters ?? []).some((parameter: unknown) =>
            isDeepStrictEqual(parameter, withDeleted),
          );
          if (method === 'get') expect(takes).toBe(true);
          else if (takes) writesWithDeleted.push(operation.operationId);
        }
      }
      expect(writesWithDeleted.sort()).toEqual([
        'comment_hardDelete',
        'delete_comment',
        'delete_post',
        'delete_tag',
        'post_hardDelete',
        'tag_hardDelete',
      ]);
      // Every kind of REST read, also on models that are not soft-deleted (an include may reach one).
      for (const read of ['user', 'user/{id}', 'post/{id}/author', 'post/{id}/relationships/comments'])
        expect(path(rest, `/api/rest/${read}`).get.parameters).toContainEqual(withDeleted);
      expect(path(rpc, '/api/rpc/user/groupBy').get.parameters).toContainEqual(withDeleted);
    });

    it('restore a deleted resource with POST /:type/:id/restore, on soft-deleted types only', () => {
      const restore = path(rest, '/api/rest/post/{id}/restore');
      expect(restore.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path' })]);
      expect(restore.post).toMatchObject({ operationId: 'restore_post', tags: ['post'] });
      expect(restore.post.requestBody).toBeUndefined();
      expect(restore.post.parameters).toEqual([
        { $ref: '#/components/parameters/PostInclude' },
        { $ref: '#/components/parameters/Fields' },
        expect.objectContaining({ name: 'If-Match', in: 'header' }),
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
      ]);
      const resource = restore.post.responses['200'].content['application/vnd.api+json'].schema;
      expect(resource).toEqual(
        path(rest, '/api/rest/post/{id}').get.responses['200'].content['application/vnd.api+json'].schema,
      );
      expect(restore.post.responses['200'].headers).toHaveProperty('Idempotent-Replayed');
      for (const status of ['404', '409'])
        expect(restore.post.responses[status]).toEqual({
          $ref: `#/components/responses/JsonApiError${status}`,
          description: expect.any(String),
        });
      expect(restore.post.responses['403']).toEqual({ $ref: '#/components/responses/JsonApiError403' });
      expect(rest.paths).toHaveProperty(['/api/rest/tag/{id}/restore']);
      expect(rest.paths).not.toHaveProperty(['/api/rest/user/{id}/restore']);
    });

    it('remove a resource for good with DELETE ?hardDelete=true, on soft-deleted types only', () => {
      const remove = path(rest, '/api/rest/post/{id}').delete;
      expect(remove.parameters).toContainEqual(
        expect.objectContaining({
          name: 'hardDelete',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['true'] },
        }),
      );
      expect(remove.responses['403']).toEqual({
        $ref: '#/components/responses/JsonApiError403',
        description: expect.stringContaining('hardDelete'),
      });
      const plain = path(rest, '/api/rest/user/{id}').delete;
      expect(plain.parameters.map((parameter: any) => parameter.name)).not.toContain('hardDelete');
      expect(plain.responses['403']).toEqual({ $ref: '#/components/responses/JsonApiError403' });
    });

    it('offer the RPC operations restore and hardDelete with delete’s arguments, on soft-deleted models only', () => {
      const restore = path(rpc, '/api/rpc/post/restore');
      expect(Object.keys(restore)).toEqual(['post']);
      expect(restore.post).toMatchObject({ operationId: 'post_restore', summary: 'Post.restore' });
      expect(restore.post.requestBody.content['application/json'].schema.properties).toEqual({
        where: { $ref: '#/components/schemas/PostWhereUniqueInput' },
        select: { $ref: '#/components/schemas/PostSelect' },
        include: { $ref: '#/components/schemas/PostInclude' },
        omit: { $ref: '#/components/schemas/PostOmit' },
        meta: { $ref: '#/components/schemas/SerializationMeta' },
      });
      expect(restore.post.responses['200'].content['application/json'].schema.properties.data).toEqual({
        $ref: '#/components/schemas/PostRow',
      });
      expect(restore.post.responses['404']).toMatchObject({ description: expect.any(String) });
      expect(restore.post.responses['409']).toMatchObject({ description: expect.any(String) });

      const hardDelete = path(rpc, '/api/rpc/post/hardDelete');
      expect(Object.keys(hardDelete)).toEqual(['delete']);
      expect(hardDelete.delete.requestBody).toBeUndefined();
      const q = hardDelete.delete.parameters.find((parameter: any) => parameter.name === 'q');
      expect(q.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PostHardDeleteArgs' });
      expect(schemas(rpc).PostHardDeleteArgs.properties).toEqual(schemas(rpc).PostDeleteArgs.properties);
      expect(hardDelete.delete.responses['200'].content['application/json'].schema.properties.data).toEqual({
        $ref: '#/components/schemas/PostRow',
      });
      expect(hardDelete.delete.responses['403']).toMatchObject({ description: expect.stringContaining('hardDelete') });

      expect(rpc.paths).toHaveProperty(['/api/rpc/tag/hardDelete']);
      expect(rpc.paths).not.toHaveProperty(['/api/rpc/user/restore']);
      expect(rpc.paths).not.toHaveProperty(['/api/rpc/user/hardDelete']);
    });

    it('show the soft-delete column in answers and filters, never in request data', () => {
      expect(schemas(rest).PostAttributes.properties).toHaveProperty('deletedAt');
      expect(schemas(rest).PostFilter.properties).toHaveProperty('deletedAt$null');
      expect(schemas(rpc).PostRow.properties).toHaveProperty('deletedAt');
      for (const document of ['PostCreateDocument', 'PostUpdateDocument'])
        expect(schemas(rest)[document].properties.data.properties.attributes.properties).not.toHaveProperty(
          'deletedAt',
        );
      for (const data of ['PostCreateInput', 'PostUpdateInput'])
        expect(schemas(rpc)[data].properties).not.toHaveProperty('deletedAt');
    });

    it('follow the operations option: no restore or hard delete a model does not allow', () => {
      const limited = documents(sqliteMeta, {
        rules: SOFT_DELETE_RULES,
        operations: { Post: { exclude: ['restore', 'hardDelete'] }, Tag: { readOnly: true } },
      });
      for (const model of ['post', 'tag']) {
        expect(limited.rest.paths).not.toHaveProperty([`/api/rest/${model}/{id}/restore`]);
        expect(limited.rpc.paths).not.toHaveProperty([`/api/rpc/${model}/restore`]);
        expect(limited.rpc.paths).not.toHaveProperty([`/api/rpc/${model}/hardDelete`]);
      }
      const remove = path(limited.rest, '/api/rest/post/{id}').delete;
      expect(remove.parameters.map((parameter: any) => parameter.name)).not.toContain('hardDelete');
      expect(remove.parameters).not.toContainEqual(withDeleted);
      expect(limited.rpc.paths).toHaveProperty(['/api/rpc/comment/restore']);
    });

    it('describe none of it without a soft-deleted model', () => {
      for (const document of Object.values(documents(sqliteMeta, { rules: FIELD_MODE_RULES }))) {
        expect(document.components.parameters ?? {}).not.toHaveProperty('WithDeleted');
        const text = JSON.stringify(document);
        for (const name of ['withDeleted', 'WithDeleted', 'hardDelete', 'HardDelete', '/restore', 'Restore'])
          expect(text).not.toContain(name);
      }
    });
  });

  it('have the routes of the exposed models and allowed operations only, under restPath and rpcPath', () => {
    const { rest, rpc } = documents(sqliteMeta, {
      models: ['Post', 'User'],
      operations: { Post: { readOnly: true }, User: { exclude: ['deleteMany'] } },
      restPath: 'v2/json',
      rpcPath: 'v2/rpc',
    });
    expect(Object.keys(rest.paths).every((path) => path.startsWith('/v2/json/'))).toBe(true);
    expect(rest.paths['/v2/json/post']).toHaveProperty('get');
    expect(rest.paths['/v2/json/post']).not.toHaveProperty('post');
    expect(rest.paths['/v2/json/post/{id}']).not.toHaveProperty('patch');
    expect(rest.paths['/v2/json/user']).toHaveProperty('post');
    expect(rest.paths).not.toHaveProperty(['/v2/json/tag']);
    expect(schemas(rest).PostRelationships.properties).not.toHaveProperty('tags');
    expect(Object.keys(rpc.paths)).not.toContain('/v2/rpc/user/deleteMany');
    expect(Object.keys(rpc.paths)).toContain('/v2/rpc/user/delete');
    expect(Object.keys(rpc.paths)).not.toContain('/v2/rpc/post/create');
    expect(rpc.paths['/v2/rpc/post/findMany']).toHaveProperty('get');
    expect(rpc.paths['/v2/rpc/user/update']).toEqual({ patch: expect.anything(), put: expect.anything() });
  });

  it('offer the filter operators each field type takes, and $search only where the database has it', () => {
    const sqliteFilter = schemas(documents(sqliteMeta).rest).PostFilter.properties;
    expect(sqliteFilter).toHaveProperty('title$contains');
    expect(sqliteFilter).not.toHaveProperty('title$search');
    expect(sqliteFilter).toHaveProperty('rating$gte');
    expect(sqliteFilter).not.toHaveProperty('rating$contains');
    expect(sqliteFilter).not.toHaveProperty('title$null');
    expect(sqliteFilter).toHaveProperty('publishedAt$null');
    expect(schemas(documents(postgresMeta).rest).PostFilter.properties).toHaveProperty('title$search');
    expect(schemas(documents(postgresMeta).rest).PostFilter.properties).toHaveProperty('keywords$has');
  });

  it('enumerate the valid sort keys and include paths', () => {
    const { rest } = documents(sqliteMeta);
    const sort = new RegExp(parameters(rest).PostSort.schema.pattern);
    expect(sort.test('-createdAt,author.name')).toBe(true);
    expect(sort.test('metadata')).toBe(false);
    expect(sort.test('tags.name')).toBe(false);
    const include = new RegExp(parameters(rest).PostInclude.schema.pattern);
    expect(include.test('author,comments.author,tags')).toBe(true);
    expect(include.test('author.posts.comments.author')).toBe(false);
    expect(include.test('title')).toBe(false);
  });

  it('apply pageSize and maxTake', () => {
    const { rest, rpc } = documents(secondMeta, { pageSize: 20, maxTake: 50 });
    expect(parameters(rest).Page.schema.properties.size.maximum).toBe(20);
    expect(schemas(rpc).ItemFindManyArgs.description).toContain('50');
  });

  it('move below the URL path Nest serves the mount at, and merge into another document without losing or overwriting anything', () => {
    const { rest, rpc } = documents(sqliteMeta);
    const moved = withMountBase(rest, 'api/rest', '/p/v1/api/rest');
    expect(Object.keys(moved.paths)).toHaveLength(Object.keys(rest.paths).length);
    expect(Object.keys(moved.paths).every((path) => path.startsWith('/p/v1/api/rest/'))).toBe(true);
    expect(withMountBase(rest, 'api/rest', '/api/rest')).toBe(rest);
    const host = {
      openapi: '3.0.0',
      info: { title: 'App', version: '1' },
      paths: { '/health': { get: {} } },
      components: { schemas: { Health: { type: 'object' } } },
    };
    const merged = mergeOpenApiDocuments(host, rest, rpc);
    expect(Object.keys(merged.paths)).toHaveLength(1 + Object.keys(rest.paths).length + Object.keys(rpc.paths).length);
    expect(merged.components.schemas).toMatchObject({
      Health: { type: 'object' },
      PostResource: expect.anything(),
      PostRow: expect.anything(),
    });
    expect(() => mergeOpenApiDocuments(merged, rest)).toThrow(/path/);
  });

  describe('with security schemes', () => {
    const securitySchemes: Record<string, OpenApiSecurityScheme> = {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      apiKey: { type: 'apiKey', name: 'X-Api-Key', in: 'header' },
      session: { type: 'apiKey', name: 'sid', in: 'cookie' },
      oauth: {
        type: 'oauth2',
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://auth.example.com/authorize',
            tokenUrl: 'https://auth.example.com/token',
            scopes: { 'posts:write': 'Write posts' },
          },
        },
      },
    };
    /** Every operation of the document, with its path and method. */
    const operations = (document: OpenApiDocument) =>
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([key]) => key !== 'parameters')
          .map(([method, operation]) => ({ at: `${method} ${path}`, operation: operation as { security?: unknown } })),
      );

    it('are valid OpenAPI 3.1, and require any one scheme on every operation by default', async () => {
      const { rest, rpc } = documents(sqliteMeta, {}, { securitySchemes });
      const anyOne = [{ bearer: [] }, { apiKey: [] }, { session: [] }, { oauth: [] }];
      for (const document of [rest, rpc]) {
        await expectValid(document);
        expect(document.components.securitySchemes).toEqual(securitySchemes);
        const unsecured = operations(document).filter(
          ({ operation }) => !isDeepStrictEqual(operation.security, anyOne),
        );
        expect(unsecured).toEqual([]);
      }
    });

    it('take the given requirements, scopes included, and keep them when merged into an application’s document', async () => {
      const security: OpenApiSecurityRequirement[] = [{ oauth: ['posts:write'] }, { bearer: [], apiKey: [] }];
      const { rest, rpc } = documents(sqliteMeta, {}, { securitySchemes, security });
      // What @nestjs/swagger builds with addBearerAuth(): the same scheme, its members in another order.
      const host = {
        ...new DocumentBuilder()
          .setTitle('App')
          .setVersion('1')
          .addBearerAuth()
          .addSecurityRequirements('bearer')
          .build(),
        paths: { '/health': { get: { responses: { 200: { description: 'Up' } } } } },
      };
      const merged = mergeOpenApiDocuments(host, rest, rpc);
      await expectValid(merged as unknown as OpenApiDocument);
      expect(merged.security).toEqual(host.security);
      expect(merged.components?.securitySchemes).toEqual(securitySchemes);
      const own = operations(merged as unknown as OpenApiDocument).filter(({ at }) => at !== 'get /health');
      expect(own.length).toBeGreaterThan(10);
      expect(own.filter(({ operation }) => !isDeepStrictEqual(operation.security, security))).toEqual([]);
    });

    it('leave the documents without security when no scheme is given', () => {
      const { rest } = documents(sqliteMeta);
      expect(rest.components.securitySchemes).toBeUndefined();
      expect(operations(rest).filter(({ operation }) => operation.security !== undefined)).toEqual([]);
    });
  });
});
