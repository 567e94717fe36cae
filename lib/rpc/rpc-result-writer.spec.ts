import { Decimal } from '@prisma/client/runtime/client';

import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import { compileResultWriter, type RpcResultWriter } from './rpc-result-writer.js';
import { rpcSuperJSON } from './rpc-superjson.js';
import { serializeRpcResult } from './serialize-rpc-result.js';

const registry = new ModelRegistry(modelMeta);

function writerOf(modelName: string): RpcResultWriter {
  return compileResultWriter(registry, registry.findByModelName(modelName)!);
}

const superjsonBytes = (result: unknown): string => JSON.stringify(rpcSuperJSON.serialize(result));

/** The response body as superjson writes it. */
function superjsonBody(result: unknown): string {
  const { json, meta } = rpcSuperJSON.serialize(result);
  return JSON.stringify(meta ? { data: json, meta: { serialization: meta } } : { data: json ?? null });
}

/** The compiled writer wrote the result itself, byte for byte as superjson. */
function expectCompiled(writer: RpcResultWriter, result: unknown): void {
  const written = writer(result);
  expect(written).toBeDefined();
  expect(JSON.stringify(written)).toBe(superjsonBytes(result));
}

/** The compiled writer left the result to the generic walk, and the response is superjson's. */
function expectLeftToWalk(writer: RpcResultWriter, result: unknown): void {
  expect(writer(result)).toBeUndefined();
  expect(JSON.stringify(serializeRpcResult(result, rpcSuperJSON, writer))).toBe(superjsonBody(result));
}

function user(id: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    email: `u${id}@example.test`,
    name: `User ${id}`,
    role: 'USER',
    passwordHash: 'x',
    createdAt: new Date(Date.UTC(2024, 0, id)),
    ...extra,
  };
}

function post(id: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    title: `Post ${id}`,
    content: null,
    status: 'PUBLISHED',
    published: true,
    rating: 4.5,
    price: new Decimal('9.99'),
    views: BigInt(id * 1000),
    metadata: { featured: true, 'a.b': [1, { c: null }] },
    publishedAt: null,
    createdAt: new Date(Date.UTC(2024, 1, id)),
    updatedAt: new Date(Date.UTC(2024, 2, id)),
    authorId: id,
    ...extra,
  };
}

describe('compileResultWriter', () => {
  it('writes include trees: to-one and to-many relations, nested includes, _count', () => {
    const writer = writerOf('Post');
    const profile = (avatar: Uint8Array | null) => ({
      id: 'p1',
      bio: null,
      avatar,
      settings: { theme: 'dark' },
      userId: 1,
    });
    const rows = [1, 2, 3].map((id) =>
      post(id, {
        author: user(id, { profile: id === 2 ? null : profile(id === 3 ? null : new Uint8Array([0, 1, 255])) }),
        tags: id === 1 ? [] : [{ id: 1, name: 'news' }],
        comments: [
          { id: 'c1', body: 'hi', createdAt: new Date(7), postId: id, authorId: null, parentId: null, author: null },
        ],
        _count: { comments: 1, likes: 0 },
      }),
    );
    expectCompiled(writer, rows);
    expectCompiled(writer, rows[0]);
    expectCompiled(writer, []);
  });

  it('writes selections in their own key order, nested selections and omitted fields', () => {
    const selected = [1, 2].map((id) => ({
      views: BigInt(id),
      author: { createdAt: new Date(id), id },
      id,
      _count: { tags: 2 },
    }));
    expectCompiled(writerOf('Post'), selected);
    const { content: _content, metadata: _metadata, ...omitted } = post(4);
    expectCompiled(writerOf('Post'), [omitted, { ...omitted, id: 5 }]);
  });

  it('writes every annotated scalar type and nulls as superjson does', () => {
    const profiles = [
      { id: 'a', bio: 'b', avatar: Buffer.from([1, 2, 3]), settings: [1, 'two', { three: [3] }], userId: 1 },
      { id: 'b', bio: null, avatar: null, settings: null, userId: 2 },
    ];
    expectCompiled(writerOf('Profile'), profiles);
    expectCompiled(writerOf('Post'), [
      post(1, { price: new Decimal('-1e-9'), views: -(2n ** 63n), publishedAt: new Date(Date.UTC(-50, 0, 1)) }),
      post(2, { metadata: null, publishedAt: new Date(8.64e15) }),
    ]);
  });

  it('lists a Date reached twice and equal bigints as referential equalities', () => {
    const when = new Date(5);
    const rows = [post(1, { createdAt: when, views: 7n }), post(2, { updatedAt: when, views: 7n })];
    const written = writerOf('Post')(rows);
    expect(written?.meta?.referentialEqualities).toEqual({ '0.views': ['1.views'], '0.createdAt': ['1.updatedAt'] });
    expect(JSON.stringify(written)).toBe(superjsonBytes(rows));
  });

  it('writes rows a policy stripped of hidden fields', () => {
    const { passwordHash: _hidden, ...visible } = user(1);
    expectCompiled(writerOf('User'), [visible, { ...visible, id: 2 }]);
    expectCompiled(writerOf('Post'), [post(1, { author: visible })]);
  });

  it('gives values of unexpected types to the generic walk, member by member', () => {
    expectCompiled(writerOf('Post'), [
      post(1, { rating: Number.NaN, views: 3, createdAt: '2024-01-01', title: 5, published: null }),
      post(2, { rating: -0, id: Number.POSITIVE_INFINITY, status: undefined, tags: null }),
    ]);
  });

  it('leaves the whole result to the generic walk for unknown keys, shared rows and odd shapes', () => {
    const writer = writerOf('Post');
    const author = user(1);
    const odd = [
      [post(1, { excerpt: 'computed' })],
      [post(1, { author }), post(2, { author })],
      [post(1, { metadata: author }), post(2, { metadata: author })],
      [post(1, { createdAt: new Date(Number.NaN) })],
      [post(1), null],
      [post(1, { author: [author] })],
      [Object.assign(Object.create({ inherited: 1 }), { id: 1, title: 'a' })],
      null,
      7,
    ];
    for (const result of odd) expectLeftToWalk(writer, result);
  });

  it('keeps a few key orders per place and leaves further ones to the generic walk', () => {
    const writer = writerOf('Tag');
    const orders = [{ id: 1, name: 'a' }, { name: 'a', id: 1 }, { id: 1 }, { name: 'a' }];
    for (const row of orders) expectCompiled(writer, [row]);
    expectLeftToWalk(writer, [{}]);
    expectCompiled(writer, [{ name: 'b' }, { id: 2, name: 'c' }]);
  });
});
