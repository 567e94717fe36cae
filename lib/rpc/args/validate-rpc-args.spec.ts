import { Decimal } from '@prisma/client/runtime/client';

import { modelMeta as postgresMeta } from '../../../fixtures/generated/postgresql/crud-api/index.js';
import { modelMeta as sqliteMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { FIELD_MODE_RULES, fieldModeInspector } from '../../../test/support/field-mode-fixtures.js';
import { CrudApiError } from '../../errors/crud-api.error.js';
import type { DataModelMeta, FieldMeta } from '../../metadata/model-meta.types.js';
import { ModelRegistry } from '../../metadata/model-registry.js';
import { DEFAULT_LIMITS } from '../../options/option-table.js';
import type { PolicyInspector } from '../../policies/with-policies.js';
import { InvalidValue } from '../../rules/invalid-value.js';
import { type RpcArgsValidation, validateRpcArgs } from './validate-rpc-args.js';

const sqlite = new ModelRegistry(sqliteMeta as DataModelMeta);
const postgres = new ModelRegistry(postgresMeta as DataModelMeta);

interface Call {
  model?: string;
  operation?: string;
  registry?: ModelRegistry;
  hidden?: Record<string, string[]>;
  /** A caller with rules (its hidden fields included). */
  modes?: PolicyInspector;
  limits?: Partial<RpcArgsValidation['limits']>;
  origin?: 'query' | 'body';
  /** The write rules report the values that do not fit (left in the data). */
  reportsInvalidValues?: boolean;
}

function validate(args: Record<string, unknown>, call: Call = {}) {
  const registry = call.registry ?? sqlite;
  const hidden = call.hidden;
  return validateRpcArgs(args, {
    registry,
    model: registry.findByModelName(call.model ?? 'Post')!,
    operation: call.operation ?? 'findMany',
    origin: call.origin ?? 'query',
    limits: { ...DEFAULT_LIMITS, ...call.limits },
    hiddenFields: hidden ? (model) => new Set(hidden[model] ?? []) : call.modes?.hiddenFields,
    fieldModes: call.modes?.fieldModes,
    reportsInvalidValues: call.reportsInvalidValues,
  });
}

/** The error a call raises, as the client sees it. */
function rejection(args: Record<string, unknown>, call: Call = {}) {
  try {
    validate(args, call);
  } catch (error) {
    if (error instanceof CrudApiError)
      return {
        status: error.status,
        code: error.code,
        message: error.message,
        source: error.options.source,
        issues: error.options.issues,
      };
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(args)}`);
}

const at = (pointer: string) =>
  expect.objectContaining({ status: 400, code: 'invalid-argument', message: expect.stringContaining(`"${pointer}"`) });
/** A value write data would store that does not fit its field: an issue at its argument path. */
const valueAt = (pointer: string) =>
  expect.objectContaining({
    status: 400,
    code: 'validation-failed',
    issues: [
      expect.objectContaining({
        path: pointer
          .split('/')
          .slice(1)
          .map((key) => (/^\d+$/.test(key) ? Number(key) : key)),
      }),
    ],
  });

describe('validateRpcArgs', () => {
  describe('top-level keys per operation', () => {
    it.each([
      [
        'findMany',
        {
          where: { id: 1 },
          select: { id: true },
          orderBy: { id: 'asc' },
          cursor: { id: 1 },
          take: 2,
          skip: 1,
          distinct: ['title'],
        },
      ],
      ['findFirstOrThrow', { where: {}, include: { author: true }, omit: { content: true }, distinct: 'title' }],
      ['findUnique', { where: { id: 1 }, select: { title: true } }],
      [
        'count',
        {
          where: {},
          select: { _all: true, title: true },
          orderBy: [{ id: 'desc' }],
          take: 5,
          skip: 0,
          cursor: { id: 3 },
        },
      ],
      [
        'aggregate',
        {
          _count: true,
          _sum: { rating: true },
          _avg: { price: true },
          _min: { title: true },
          _max: { createdAt: true },
          take: 3,
        },
      ],
      [
        'groupBy',
        {
          by: ['status'],
          _count: { _all: true },
          having: { rating: { _avg: { gt: 1 } } },
          orderBy: { _count: { id: 'desc' } },
          take: 2,
        },
      ],
      ['create', { data: { title: 't', authorId: 1 }, select: { id: true } }],
      ['createMany', { data: [{ title: 't', authorId: 1 }], skipDuplicates: true }],
      ['createManyAndReturn', { data: { title: 't', authorId: 1 }, select: { id: true } }],
      ['update', { where: { id: 1 }, data: { title: 'u', rating: { increment: 1 } } }],
      ['updateMany', { where: { published: false }, data: { published: true }, limit: 10 }],
      ['updateManyAndReturn', { where: {}, data: { views: { multiply: 2 } }, omit: { content: true } }],
      ['upsert', { where: { id: 1 }, create: { title: 't', authorId: 1 }, update: { title: 'u' } }],
      ['delete', { where: { id: 1 }, select: { id: true } }],
      ['deleteMany', { where: { title: { startsWith: 'a' } }, limit: 5 }],
      ['restore', { where: { id: 1 }, include: { comments: true }, omit: { content: true } }],
      ['hardDelete', { where: { id: 1 }, select: { id: true } }],
    ])('accepts the arguments of %s', (operation, args) => {
      expect(() => validate(args, { operation })).not.toThrow();
    });

    it.each([
      ['findUnique', 'take', { where: { id: 1 }, take: 1 }],
      ['count', 'include', { include: { author: true } }],
      ['createMany', 'select', { data: [], select: { id: true } }],
      ['updateMany', 'select', { data: {}, select: { id: true } }],
      ['deleteMany', 'orderBy', { orderBy: { id: 'asc' } }],
      ['findMany', 'limit', { limit: 1 }],
      ['groupBy', 'cursor', { by: ['id'], cursor: { id: 1 } }],
      ['aggregate', 'select', { select: { id: true } }],
      ['restore', 'data', { where: { id: 1 }, data: { title: 'x' } }],
      ['hardDelete', 'take', { where: { id: 1 }, take: 1 }],
    ])('refuses %s with %s', (operation, key, args) => {
      expect(rejection(args, { operation })).toEqual(at(`/${key}`));
    });

    it('refuses prototype keys wherever they are, Json values included', () => {
      expect(rejection(JSON.parse('{"__proto__":{"where":{"id":9}}}'), { operation: 'deleteMany' })).toEqual(
        at('/__proto__'),
      );
      expect(rejection(JSON.parse('{"where":{"metadata":{"equals":{"constructor":1}}}}'))).toEqual(
        at('/where/metadata/equals/constructor'),
      );
      expect(
        rejection({ data: { title: 't', authorId: 1, metadata: { a: [{ prototype: 1 }] } } }, { operation: 'create' }),
      ).toEqual(at('/data/metadata/a/0/prototype'));
    });

    it('names the path as a pointer in the body and the parameter q for query strings', () => {
      expect(rejection({ data: { nope: 1 } }, { operation: 'create', origin: 'body' })).toEqual({
        status: 400,
        code: 'invalid-argument',
        message: 'Invalid argument at "/data/nope": unknown key "nope".',
        source: { pointer: '/data/nope' },
      });
      expect(rejection({ where: { a: 1 } }).source).toEqual({ parameter: 'q' });
      expect(rejection({ where: { 'a/b~c': 1 } }).message).toBe(
        'Invalid argument at "/where/a~1b~0c": unknown key "a/b~c".',
      );
    });

    it('rebuilds the arguments rather than passing client objects on', () => {
      const args = { where: { title: 'x' }, take: 1 };
      const valid = validate(args)!;
      expect(valid).toEqual(args);
      expect(valid.where).not.toBe(args.where);
      expect(validate({ where: { title: undefined } })).toEqual({ where: {} });
    });
  });

  describe('values', () => {
    it.each([
      [{ where: { id: 1.5 } }, '/where/id'],
      [{ where: { id: 2 ** 31 } }, '/where/id'],
      [{ where: { id: { in: [1, '2'] } } }, '/where/id/in/1'],
      [{ take: 1.5 }, '/take'],
      [{ take: 2 ** 40 }, '/take'],
      [{ skip: -1 }, '/skip'],
      [{ where: { rating: 'high' } }, '/where/rating'],
      [{ where: { published: 'yes' } }, '/where/published'],
      [{ where: { views: 2 ** 60 } }, '/where/views'],
      [{ where: { views: 2n ** 64n } }, '/where/views'],
      [{ where: { views: '1e3' } }, '/where/views'],
      [{ where: { price: 'ten' } }, '/where/price'],
      [{ where: { price: new Decimal('NaN') } }, '/where/price'],
      [{ where: { price: { gt: new Decimal('Infinity') } } }, '/where/price/gt'],
      [{ where: { price: new Decimal('1e400') } }, '/where/price'],
      [{ where: { price: '1e99999' } }, '/where/price'],
      [{ where: { price: { lt: -1e35 } } }, '/where/price/lt'],
      [{ where: { createdAt: '99999-01-01' } }, '/where/createdAt'],
      [{ where: { createdAt: new Date('99999-01-01') } }, '/where/createdAt'],
      [{ where: { createdAt: new Date('nope') } }, '/where/createdAt'],
      [{ where: { createdAt: { gt: '2024-13-45' } } }, '/where/createdAt/gt'],
      [{ where: { status: 'GONE' } }, '/where/status'],
      [{ where: { title: null } }, '/where/title'],
      [{ where: { title: 5 } }, '/where/title'],
      [{ distinct: ['author'] }, '/distinct/0'],
      [{ distinct: 'nope' }, '/distinct'],
    ])('refuses %j', (args, pointer) => {
      expect(rejection(args)).toEqual(at(pointer));
    });

    it('accepts each type in its wire forms', () => {
      expect(() =>
        validate({
          where: {
            id: -(2 ** 31),
            views: { in: [2n ** 63n - 1n, 5, '-9223372036854775808'] },
            price: { gte: new Decimal('1.5'), lt: '1e3', not: 7, gt: new Decimal('-9.99e34') },
            createdAt: { gte: new Date('0001-01-01T00:00:00Z'), lt: '9999-12-31T23:59:59.999Z' },
            publishedAt: null,
            status: { in: ['DRAFT', 'PUBLISHED'] },
            rating: { not: { gt: 0.5 } },
            content: { not: null },
          },
        }),
      ).not.toThrow();
      expect(() =>
        validate({ where: { avatar: { equals: new Uint8Array([1]) } } }, { model: 'Profile' }),
      ).not.toThrow();
      expect(rejection({ where: { avatar: 'AAE=' } }, { model: 'Profile' })).toEqual(at('/where/avatar'));
    });

    it('checks stored values on writes', () => {
      const create = { operation: 'create' };
      expect(rejection({ data: { title: 't', authorId: 1.5 } }, create)).toEqual(valueAt('/data/authorId'));
      expect(rejection({ data: { title: 't', authorId: 1, publishedAt: '99999-01-01' } }, create)).toEqual(
        valueAt('/data/publishedAt'),
      );
      expect(rejection({ data: { title: 't', authorId: 1, metadata: { n: 5n } } }, create)).toEqual(
        valueAt('/data/metadata'),
      );
      expect(rejection({ data: { title: null, authorId: 1 } }, create)).toEqual(valueAt('/data/title'));
      expect(() =>
        validate(
          { data: { title: 't', authorId: 1, content: null, metadata: { at: new Date(0), list: [1, 'a', null] } } },
          create,
        ),
      ).not.toThrow();
      expect(rejection({ where: { id: 1 }, data: { title: { increment: 1 } } }, { operation: 'update' })).toEqual(
        valueAt('/data/title/increment'),
      );
      expect(rejection({ where: { id: 1 }, data: { rating: { increment: 'x' } } }, { operation: 'update' })).toEqual(
        valueAt('/data/rating/increment'),
      );
      expect(
        rejection({ where: { id: 1 }, data: { role: { increment: 1 } } }, { model: 'User', operation: 'update' }),
      ).toEqual(valueAt('/data/role/increment'));
    });
    it('lists every value that does not fit at once, or leaves each to the write rules in its place', () => {
      const args = {
        data: { title: 1, status: 'GONE', authorId: 1, tags: { create: { name: 2 } }, comments: { create: [] } },
      };
      const create = { operation: 'create' };
      expect(rejection(args, create).issues).toEqual([
        { path: ['data', 'title'], message: 'expected a string', code: 'invalid-type' },
        { path: ['data', 'status'], message: expect.stringContaining('"DRAFT"'), code: 'invalid-enum' },
        { path: ['data', 'tags', 'create', 'name'], message: 'expected a string', code: 'invalid-type' },
      ]);
      const left = validate(args, { ...create, reportsInvalidValues: true }) as any;
      expect(left.data.title).toBeInstanceOf(InvalidValue);
      expect(left.data.status).toBeInstanceOf(InvalidValue);
      expect(left.data.tags.create.name).toBeInstanceOf(InvalidValue);
      expect(left.data.authorId).toBe(1);
    });
  });

  describe('where', () => {
    it('accepts the filter grammar of each type', () => {
      expect(() =>
        validate({
          where: {
            AND: [{ title: { contains: 'a' } }, { NOT: { published: true } }],
            OR: [
              { author: { is: { name: 'x' } } },
              { author: { name: { startsWith: 'y' } } },
              { author: { isNot: { role: 'ADMIN' } } },
            ],
            NOT: [
              { comments: { some: { body: { endsWith: 'z' } } } },
              { tags: { none: {} } },
              { likes: { every: { userId: 1 } } },
            ],
            metadata: { path: '$.a', equals: 1 },
          },
        }),
      ).not.toThrow();
      expect(() =>
        validate(
          {
            where: {
              title: { contains: 'a', mode: 'insensitive', search: 'cat & dog' },
              keywords: { has: 'x', hasEvery: ['a'], hasSome: ['b'], isEmpty: false },
              metadata: { path: ['a', 'b'], string_contains: 'x', array_contains: [1] },
            },
          },
          { registry: postgres },
        ),
      ).not.toThrow();
      expect(() => validate({ where: { parent: null, author: { is: null } } }, { model: 'Comment' })).not.toThrow();
    });

    it.each([
      [{ where: { title: { contains: 1 } } }, '/where/title/contains'],
      [{ where: { title: { mode: 'insensitive' } } }, '/where/title/mode'],
      [{ where: { title: { has: 'x' } } }, '/where/title/has'],
      [{ where: { published: { gt: true } } }, '/where/published/gt'],
      [{ where: { status: { contains: 'D' } } }, '/where/status/contains'],
      [{ where: { author: null } }, '/where/author'],
      [{ where: { author: { some: {} } } }, '/where/author/some'],
      [{ where: { comments: { is: {} } } }, '/where/comments/is'],
      [{ where: { author: { is: { nope: 1 } } } }, '/where/author/is/nope'],
      [{ where: { OR: { id: 1 } } }, '/where/OR'],
      [{ where: { metadata: { equals: 1, nope: 2 } } }, '/where/metadata/nope'],
      [{ where: { metadata: 5 } }, '/where/metadata'],
      [{ where: { rating: { _avg: { gt: 1 } } } }, '/where/rating/_avg'],
      [{ where: [] }, '/where'],
    ])('refuses %j', (args, pointer) => {
      expect(rejection(args)).toEqual(at(pointer));
    });

    it('makes contains/startsWith/endsWith literal, or refuses what SQLite cannot match literally', () => {
      expect(
        validate({ where: { title: { contains: '50%', not: { startsWith: 'a\\b_' } } } }, { registry: postgres }),
      ).toEqual({
        where: { title: { contains: '50\\%', not: { startsWith: 'a\\\\b\\_' } } },
      });
      expect(validate({ where: { title: { endsWith: 'x\\' } } }, { registry: postgres })).toEqual({
        where: { title: { endsWith: 'x\\\\' } },
      });
      expect(validate({ where: { title: { contains: 'a\\b' } } })).toEqual({ where: { title: { contains: 'a\\b' } } });
      expect(rejection({ where: { title: { contains: 'snake_case' } } })).toEqual(at('/where/title/contains'));
      expect(rejection({ where: { title: { contains: '50%' } } }).message).toMatch(
        /cannot be matched literally on sqlite/,
      );
      expect(
        validate({ where: { metadata: { path: ['a'], string_contains: '5_%' } } }, { registry: postgres }),
      ).toEqual({
        where: { metadata: { path: ['a'], string_contains: '5\\_\\%' } },
      });
      expect(rejection({ where: { metadata: { path: '$.a', string_starts_with: '5_' } } })).toEqual(
        at('/where/metadata/string_starts_with'),
      );
    });

    it('asks unique wheres for a unique selector, compound ones as objects', () => {
      expect(() =>
        validate({ where: { userId_postId: { userId: 1, postId: 2 } } }, { model: 'Like', operation: 'findUnique' }),
      ).not.toThrow();
      expect(() =>
        validate({ where: { email: 'a@b', name: { contains: 'x' } } }, { model: 'User', operation: 'findUnique' }),
      ).not.toThrow();
      expect(rejection({ where: { name: 'x' } }, { model: 'User', operation: 'findUnique' })).toEqual(at('/where'));
      expect(
        rejection({ where: { userId_postId: { userId: 1, nope: 2 } } }, { model: 'Like', operation: 'delete' }),
      ).toEqual(at('/where/userId_postId/nope'));
      expect(rejection({ where: { id: { gt: 1 } } }, { operation: 'findUnique' })).toEqual(at('/where/id'));
    });
  });

  describe('orderBy', () => {
    it('accepts each form', () => {
      expect(() =>
        validate({
          orderBy: [
            { title: 'asc' },
            { content: { sort: 'desc', nulls: 'last' } },
            { author: { name: 'asc' } },
            { comments: { _count: 'desc' } },
          ],
        }),
      ).not.toThrow();
      expect(() =>
        validate({ orderBy: { _relevance: { fields: ['title'], search: 'x', sort: 'asc' } } }, { registry: postgres }),
      ).not.toThrow();
    });

    it.each([
      [{ orderBy: { title: 'up' } }, '/orderBy/title'],
      [{ orderBy: { title: { sort: 'asc' } } }, '/orderBy/title'],
      [{ orderBy: { content: { sort: 'asc', nulls: 'middle' } } }, '/orderBy/content/nulls'],
      [{ orderBy: { comments: 'asc' } }, '/orderBy/comments'],
      [{ orderBy: { _relevance: { fields: ['title'], search: 'x', sort: 'asc' } } }, '/orderBy/_relevance'],
      [{ orderBy: { _count: { id: 'asc' } } }, '/orderBy/_count'],
    ])('refuses %j', (args, pointer) => {
      expect(rejection(args)).toEqual(at(pointer));
    });

    it('takes aggregates in groupBy only, numeric fields only for _sum/_avg', () => {
      expect(() =>
        validate(
          { by: 'status', orderBy: [{ _max: { title: 'asc' } }, { _avg: { rating: 'desc' } }] },
          { operation: 'groupBy' },
        ),
      ).not.toThrow();
      expect(rejection({ by: 'status', orderBy: { _sum: { title: 'asc' } } }, { operation: 'groupBy' })).toEqual(
        at('/orderBy/_sum/title'),
      );
      expect(rejection({ by: 'author' }, { operation: 'groupBy' })).toEqual(at('/by'));
      expect(rejection({ _avg: { title: true } }, { operation: 'aggregate' })).toEqual(at('/_avg/title'));
      expect(rejection({ _min: { metadata: true } }, { operation: 'aggregate' })).toEqual(at('/_min/metadata'));
    });
  });

  describe('select, include, omit', () => {
    it('accepts nested reads with paging and relation counts', () => {
      expect(() =>
        validate({
          select: {
            id: true,
            author: { select: { name: true } },
            comments: {
              where: { body: 'x' },
              orderBy: { createdAt: 'desc' },
              take: 2,
              skip: 1,
              cursor: { id: 'c' },
              distinct: 'body',
              include: { author: true },
            },
            _count: { select: { comments: { where: { body: 'x' } }, tags: true } },
          },
        }),
      ).not.toThrow();
      expect(() => validate({ include: { _count: true, author: { omit: { passwordHash: true } } } })).not.toThrow();
    });

    it.each([
      [{ include: { title: true } }, '/include/title'],
      [{ omit: { author: true } }, '/omit/author'],
      [{ select: { title: 'yes' } }, '/select/title'],
      [{ select: { author: { where: { id: 1 } } } }, '/select/author/where'],
      [{ select: { _count: { select: { author: true } } } }, '/select/_count/select/author'],
      [{ include: { comments: { take: -0.5 } } }, '/include/comments/take'],
    ])('refuses %j', (args, pointer) => {
      expect(rejection(args)).toEqual(at(pointer));
    });

    it('counts relation nesting against maxSelectionDepth', () => {
      const nested = { include: { author: { include: { posts: { include: { author: true } } } } } };
      expect(() => validate(nested, { limits: { maxSelectionDepth: 3 } })).not.toThrow();
      expect(rejection(nested, { limits: { maxSelectionDepth: 2 } })).toEqual(
        at('/include/author/include/posts/include/author'),
      );
      expect(rejection(nested, { limits: { maxSelectionDepth: 2 } }).message).toMatch(/maxSelectionDepth/);
    });
  });

  describe('writes', () => {
    it('accepts nested writes of every relation kind', () => {
      expect(() =>
        validate(
          {
            data: {
              email: 'a@b',
              name: 'A',
              profile: { create: { bio: 'x' } },
              posts: {
                create: [{ title: 't', tags: { connectOrCreate: { where: { name: 'n' }, create: { name: 'n' } } } }],
                createMany: { data: [{ title: 'u' }], skipDuplicates: true },
                connect: [{ id: 1 }],
              },
              following: { connect: { id: 2 } },
            },
          },
          { model: 'User', operation: 'create' },
        ),
      ).not.toThrow();
      expect(() =>
        validate(
          {
            where: { id: 1 },
            data: {
              profile: { upsert: { create: { bio: 'a' }, update: { bio: 'b' } } },
              posts: {
                update: { where: { id: 1 }, data: { title: 'x', views: { increment: 1 } } },
                updateMany: { where: { published: false }, data: { published: true } },
                upsert: [{ where: { id: 2 }, create: { title: 'c' }, update: { title: 'd' } }],
                deleteMany: [{ title: { startsWith: 'old' } }],
                set: [],
                disconnect: { id: 3 },
                delete: [{ id: 4 }],
              },
              comments: { updateMany: [{ where: { body: 'x' }, data: { body: 'y' } }] },
            },
          },
          { model: 'User', operation: 'update' },
        ),
      ).not.toThrow();
      expect(() =>
        validate(
          { where: { id: 'c' }, data: { parent: { disconnect: true }, author: { update: { name: 'n' } } } },
          { model: 'Comment', operation: 'update' },
        ),
      ).not.toThrow();
      expect(() =>
        validate(
          { where: { id: 1 }, data: { keywords: { push: ['a', 'b'] } } },
          { operation: 'update', registry: postgres },
        ),
      ).not.toThrow();
    });

    it.each([
      [
        'create',
        { data: { email: 'a', name: 'A', posts: { create: { title: 't', author: { connect: { id: 1 } } } } } },
        '/data/posts/create/author',
      ],
      [
        'create',
        { data: { email: 'a', name: 'A', posts: { create: { title: 't', authorId: 1 } } } },
        '/data/posts/create/authorId',
      ],
      ['create', { data: { email: 'a', name: 'A', posts: { upsert: {} } } }, '/data/posts/upsert'],
      ['create', { data: { email: 'a', name: 'A', profile: { connect: [{ id: 'p' }] } } }, '/data/profile/connect'],
      [
        'update',
        { where: { id: 1 }, data: { posts: { updateMany: { where: { author: { id: 1 } }, data: {} } } } },
        '/data/posts/updateMany/where/author',
      ],
      [
        'update',
        { where: { id: 1 }, data: { posts: { updateMany: { where: {}, data: { comments: {} } } } } },
        '/data/posts/updateMany/data/comments',
      ],
      ['createMany', { data: [{ email: 'a', name: 'A', posts: { create: [] } }] }, '/data/0/posts'],
    ])('refuses %s %j', (operation, args, pointer) => {
      expect(rejection(args, { model: 'User', operation })).toEqual(at(pointer));
    });

    it('refuses disconnecting a required to-one relation', () => {
      expect(rejection({ where: { id: 1 }, data: { author: { disconnect: true } } }, { operation: 'update' })).toEqual(
        at('/data/author/disconnect'),
      );
    });
  });

  describe('hidden fields and models', () => {
    const hidden = { User: ['passwordHash'] };

    it.each([
      ['where', { where: { passwordHash: 'x' } }, 'findMany', '/where/passwordHash'],
      [
        'deep where',
        { where: { posts: { some: { author: { passwordHash: { startsWith: 'a' } } } } } },
        'findMany',
        '/where/posts/some/author/passwordHash',
      ],
      ['select', { select: { passwordHash: true } }, 'findMany', '/select/passwordHash'],
      ['omit', { omit: { passwordHash: true } }, 'findMany', '/omit/passwordHash'],
      ['orderBy', { orderBy: { passwordHash: 'asc' } }, 'findMany', '/orderBy/passwordHash'],
      [
        'orderBy aggregate',
        { by: ['id'], orderBy: { _max: { passwordHash: 'asc' } } },
        'groupBy',
        '/orderBy/_max/passwordHash',
      ],
      ['having', { by: ['id'], having: { passwordHash: { _count: { gt: 1 } } } }, 'groupBy', '/having/passwordHash'],
      ['by', { by: ['passwordHash'] }, 'groupBy', '/by/0'],
      ['distinct', { distinct: 'passwordHash' }, 'findMany', '/distinct'],
      ['_min', { _min: { passwordHash: true } }, 'aggregate', '/_min/passwordHash'],
      ['count select', { select: { passwordHash: true } }, 'count', '/select/passwordHash'],
      ['cursor', { cursor: { id: 1, passwordHash: 'x' } }, 'findMany', '/cursor/passwordHash'],
      ['data', { data: { email: 'a', name: 'b', passwordHash: 'x' } }, 'create', '/data/passwordHash'],
    ])('answers a hidden field in %s exactly like a field that does not exist', (_name, args, operation, pointer) => {
      const call = { model: 'User', operation, hidden };
      const hiddenAnswer = rejection(args, call);
      const missingAnswer = rejection(
        JSON.parse(JSON.stringify(args).replaceAll('passwordHash', 'doesNotExist')),
        call,
      );
      expect(hiddenAnswer).toEqual(at(pointer));
      expect(hiddenAnswer).toEqual({
        ...missingAnswer,
        message: missingAnswer.message.replaceAll('doesNotExist', 'passwordHash'),
      });
      expect(() => validate(args, { model: 'User', operation })).not.toThrow();
    });
  });

  describe('field modes', () => {
    const modes = fieldModeInspector(FIELD_MODE_RULES);
    const user = (operation: string) => ({ model: 'User', operation, modes });
    const serverSet = (pointer: string) => ({
      status: 400,
      code: 'invalid-argument',
      message: `Invalid argument at "${pointer}": "${pointer.split('/').at(-1)}" is set by the server and cannot be given.`,
      source: { parameter: 'q' },
    });

    it('accepts write-only columns in create, update and batch data, top-level and nested', () => {
      const data = { email: 'a', name: 'b', passwordHash: 'h', password: 'p' };
      expect(() => validate({ data }, user('create'))).not.toThrow();
      expect(() => validate({ data: [data] }, user('createMany'))).not.toThrow();
      expect(() => validate({ where: { id: 1 }, data: { passwordHash: 'h' } }, user('update'))).not.toThrow();
      expect(() => validate({ data: { passwordHash: { set: 'h' } } }, user('updateMany'))).not.toThrow();
      const nested = { user: { create: data } };
      expect(() => validate({ data: nested }, { model: 'Profile', operation: 'create', modes })).not.toThrow();
    });

    it('keeps write-only and internal columns out of where, select and orderBy', () => {
      for (const name of ['passwordHash', 'createdAt']) {
        expect(rejection({ where: { [name]: 'x' } }, user('findMany'))).toEqual(at(`/where/${name}`));
        expect(rejection({ select: { [name]: true } }, user('findMany'))).toEqual(at(`/select/${name}`));
        expect(rejection({ orderBy: { [name]: 'asc' } }, user('findMany'))).toEqual(at(`/orderBy/${name}`));
        expect(rejection({ where: { id: 1 }, data: { name: 'x' }, select: { [name]: true } }, user('update'))).toEqual(
          at(`/select/${name}`),
        );
      }
      expect(rejection({ where: { password: 'x' } }, user('findMany'))).toEqual(at('/where/password'));
    });

    it('accepts virtual fields with a value of their type, without update operators', () => {
      expect(() =>
        validate({ data: { email: 'a', name: 'b', password: 'p', inviteCode: 3 } }, user('create')),
      ).not.toThrow();
      expect(() => validate({ where: { id: 1 }, data: { password: 'p' } }, user('update'))).not.toThrow();
      expect(rejection({ data: { email: 'a', name: 'b', password: 1 } }, user('create'))).toEqual(
        valueAt('/data/password'),
      );
      expect(rejection({ data: { email: 'a', name: 'b', inviteCode: 'x' } }, user('create'))).toEqual(
        valueAt('/data/inviteCode'),
      );
      expect(rejection({ where: { id: 1 }, data: { password: { set: 'p' } } }, user('update'))).toEqual(
        valueAt('/data/password'),
      );
      expect(rejection({ where: { id: 1 }, data: { inviteCode: { increment: 1 } } }, user('update'))).toEqual(
        valueAt('/data/inviteCode'),
      );
    });

    it.each([
      [
        'a server-set column on create',
        'User',
        'create',
        { data: { email: 'a', name: 'b', role: 'ADMIN' } },
        '/data/role',
      ],
      ['a server-set column on update', 'User', 'update', { where: { id: 1 }, data: { role: 'ADMIN' } }, '/data/role'],
      ['a server-set column on updateMany', 'User', 'updateMany', { data: { role: { set: 'ADMIN' } } }, '/data/role'],
      ['a server-set foreign key', 'Post', 'create', { data: { title: 't', authorId: 1 } }, '/data/authorId'],
      [
        'a relation through it',
        'Post',
        'create',
        { data: { title: 't', author: { connect: { id: 1 } } } },
        '/data/author',
      ],
      [
        'the relation on update',
        'Post',
        'update',
        { where: { id: 1 }, data: { author: { connect: { id: 1 } } } },
        '/data/author',
      ],
      [
        'a nested create',
        'Post',
        'create',
        { data: { title: 't', comments: { create: [{ body: 'b', authorId: 1 }] } } },
        '/data/comments/create/0/authorId',
      ],
      [
        'a nested create of another model',
        'Profile',
        'create',
        { data: { user: { create: { email: 'a', name: 'b', role: 'ADMIN' } } } },
        '/data/user/create/role',
      ],
      [
        'a nested update',
        'Comment',
        'update',
        { where: { id: 'c' }, data: { post: { update: { title: 't', author: { connect: { id: 1 } } } } } },
        '/data/post/update/author',
      ],
      [
        'createMany',
        'Comment',
        'createMany',
        {
          data: [
            { body: 'b', postId: 1 },
            { body: 'b', postId: 1, authorId: 1 },
          ],
        },
        '/data/1/authorId',
      ],
      [
        'a nested createMany',
        'Post',
        'update',
        { where: { id: 1 }, data: { comments: { createMany: { data: [{ body: 'b', authorId: 1 }] } } } },
        '/data/comments/createMany/data/0/authorId',
      ],
    ])('refuses %s as set by the server', (_name, model, operation, args, pointer) => {
      expect(rejection(args, { model, operation, modes })).toEqual(serverSet(pointer));
      expect(() => validate(args, { model, operation })).not.toThrow();
    });

    it('answers internal columns (and server-set ones the policies hide) exactly like unknown fields', () => {
      const asUnknown = (args: Record<string, unknown>, name: string, call: Call) => {
        const answer = rejection(args, call);
        const missing = rejection(JSON.parse(JSON.stringify(args).replaceAll(name, 'doesNotExist')), call);
        expect(answer).toEqual({ ...missing, message: missing.message.replaceAll('doesNotExist', name) });
      };
      asUnknown({ data: { email: 'a', name: 'b', createdAt: new Date(0).toISOString() } }, 'createdAt', user('create'));
      asUnknown({ data: { title: 't', views: 1 } }, 'views', { model: 'Post', operation: 'createMany', modes });
      const hiding = fieldModeInspector(FIELD_MODE_RULES, { User: { fields: { read: { role: false } } } });
      asUnknown({ data: { email: 'a', name: 'b', role: 'ADMIN' } }, 'role', {
        model: 'User',
        operation: 'create',
        modes: hiding,
      });
    });
  });

  describe('relations to models the models option hides', () => {
    const scalar = (name: string, type = 'String'): FieldMeta => ({
      name,
      kind: 'scalar',
      type,
      isList: false,
      isOptional: false,
      isId: name === 'id',
      isUnique: false,
      hasDefault: false,
      isUpdatedAt: false,
      isForeignKey: false,
      relation: null,
    });
    const relation = (name: string, model: string, isList: boolean): FieldMeta => ({
      ...scalar(name, model),
      kind: 'relation',
      isList,
      isOptional: !isList,
      relation: { name: `${name}Rel`, model, fields: [], references: [], oppositeField: null },
    });
    const unique = [{ name: 'id', fields: ['id'] }];
    const meta: DataModelMeta = {
      provider: 'sqlite',
      enums: {},
      models: {
        User: {
          name: 'User',
          idFields: ['id'],
          uniqueConstraints: unique,
          fields: {
            id: scalar('id'),
            settings: scalar('settings', 'Json'),
            posts: relation('posts', 'Post', true),
            secret: relation('secret', 'Secret', false),
          },
        },
        Post: {
          name: 'Post',
          idFields: ['id'],
          uniqueConstraints: unique,
          fields: {
            id: scalar('id'),
            author: relation('author', 'User', false),
            secret: relation('secret', 'Secret', false),
          },
        },
        Secret: { name: 'Secret', idFields: ['id'], uniqueConstraints: unique, fields: { id: scalar('id') } },
      },
    };
    const registry = new ModelRegistry(meta, ['User', 'Post']);

    it.each([
      ['include', { include: { secret: true } }, '/include/secret'],
      ['select', { select: { id: true, secret: { select: { id: true } } } }, '/select/secret'],
      ['nested include', { include: { posts: { include: { secret: true } } } }, '/include/posts/include/secret'],
      ['_count', { select: { _count: { select: { secret: true } } } }, '/select/_count/select/secret'],
      [
        'relation filter',
        { where: { OR: [{ posts: { some: { secret: { is: { id: '1' } } } } }] } },
        '/where/OR/0/posts/some/secret',
      ],
      ['orderBy', { orderBy: [{ secret: { id: 'asc' } }] }, '/orderBy/0/secret'],
    ])('refuses a hidden model reached through %s', (_name, args, pointer) => {
      expect(rejection(args, { registry, model: 'User' })).toEqual(at(pointer));
    });

    it('refuses one reached through a nested write', () => {
      const args = { data: { posts: { create: [{ secret: { connect: { id: '1' } } }] } } };
      expect(rejection(args, { registry, model: 'User', operation: 'create' })).toEqual(
        at('/data/posts/create/0/secret'),
      );
    });

    it('accepts exposed relations, scalars and Json values with any keys', () => {
      const args = {
        where: { settings: { equals: { secret: true } }, posts: { some: { author: { id: '1' } } } },
        include: { posts: { include: { author: true } } },
      };
      expect(() => validate(args, { registry, model: 'User' })).not.toThrow();
      expect(() =>
        validate(
          { data: { id: '1', settings: { secret: { deep: [1, 2] } } } },
          { registry, model: 'User', operation: 'create' },
        ),
      ).not.toThrow();
    });
  });

  describe('limits', () => {
    it('refuses deep nesting and too many values before walking the grammar', () => {
      let deep: Record<string, unknown> = { id: 1 };
      for (let i = 0; i < 100_000; i++) deep = { AND: deep };
      expect(rejection({ where: deep }).message).toMatch(/maxArgumentDepth/);
      const wide = { where: { id: { in: Array.from({ length: 3000 }, (_, i) => i) } } };
      expect(rejection(wide)).toEqual(at('/where/id/in'));
      expect(rejection(wide).message).toMatch(/maxArgumentNodes/);
      expect(rejection({ where: { AND: [{ AND: [{ id: 1 }] }] } }, { limits: { maxArgumentDepth: 4 } })).toEqual(
        at('/where/AND/0/AND'),
      );
    });
  });
});
