import { SuperJSON } from 'superjson';

import { registerPrismaTypes } from '../rpc/prisma-superjson-types.js';
import { createRpcClient } from './create-rpc-client.js';
import { randomUuid } from './idempotency-key.js';
import type { RpcClientOptions } from './rpc-client.types.js';
import { withDeleted, withIdempotencyKey } from './rpc-promise.js';

/** A request the fake fetch received. */
interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body?: string;
}

const UUID_FIELD = /^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/;

const ok = (data: unknown, etag?: string) =>
  new Response(JSON.stringify({ data }), { status: 200, headers: etag ? { ETag: etag } : {} });
const notModified = (etag: string) => new Response(null, { status: 304, headers: { ETag: etag } });

type Call = PromiseLike<unknown> & { execute(): Promise<unknown> };
type Model = Record<string, (args?: unknown) => Call>;
type TestClient = Record<string, Model> & {
  $transaction(calls: PromiseLike<unknown>[], options?: { idempotencyKey?: string }): Promise<unknown[]>;
};

/** A client whose fetch records each request and answers with the next of `answers`. */
function fakeClient(answers: (() => Response)[], options: Partial<RpcClientOptions> = {}) {
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      headers: new Headers(init?.headers),
      body: init?.body as string | undefined,
    });
    const answer = answers.shift();
    if (!answer) throw new Error('No answer left.');
    return answer();
  };
  const client = createRpcClient<never>({ baseUrl: 'http://api.test/rpc', fetch, ...options }) as unknown as TestClient;
  return { client, sent };
}

describe('RPC client reads revalidated with If-None-Match', () => {
  it('sends the tag of the last answer and answers a 304 with a fresh copy of the kept result', async () => {
    const { client, sent } = fakeClient([() => ok([{ id: 1 }], '"a"'), () => notModified('"a"')]);
    const first = (await client.post.findMany({ where: { id: 1 } })) as { id: number }[];
    first[0].id = 99;
    const second = await client.post.findMany({ where: { id: 1 } });
    expect(second).toEqual([{ id: 1 }]);
    expect(sent.map((request) => request.headers.get('If-None-Match'))).toEqual([null, '"a"']);
  });

  it('replaces the kept answer by a 200, and forgets it when the answer has no tag', async () => {
    const { client, sent } = fakeClient([
      () => ok(1, '"a"'),
      () => ok(2, '"b"'),
      () => notModified('"b"'),
      () => ok(3),
      () => ok(4, '"d"'),
    ]);
    const count = () => client.post.count();
    expect([await count(), await count(), await count(), await count(), await count()]).toEqual([1, 2, 2, 3, 4]);
    expect(sent.map((request) => request.headers.get('If-None-Match'))).toEqual([null, '"a"', '"b"', '"b"', null]);
  });

  it('keeps at most etagCache entries, dropping the least recently used', async () => {
    const { client, sent } = fakeClient(
      ['"1"', '"2"', '"1"', '"3"', '"1"', '"2"'].map((tag) => () => ok(tag, tag)),
      { etagCache: 2 },
    );
    for (const id of [1, 2, 1, 3, 1, 2]) await client.post.findUnique({ where: { id } });
    // 1 was read again after 2, so reading 3 drops 2: 1 revalidates, 2 starts over.
    expect(sent.map((request) => request.headers.get('If-None-Match'))).toEqual([null, null, '"1"', null, '"1"', null]);
  });

  it('never shares an entry between callers told apart by a header', async () => {
    let user = 'alice';
    const { client, sent } = fakeClient(
      [() => ok('alice’s', '"a"'), () => ok('bob’s', '"b"'), () => notModified('"a"')],
      {
        headers: () => ({ Authorization: `Bearer ${user}` }),
      },
    );
    expect(await client.post.findMany()).toBe('alice’s');
    user = 'bob';
    expect(await client.post.findMany()).toBe('bob’s');
    user = 'alice';
    expect(await client.post.findMany()).toBe('alice’s');
    expect(sent.map((request) => request.headers.get('If-None-Match'))).toEqual([null, null, '"a"']);
  });

  it('sends no If-None-Match with etagCache false, and none on writes', async () => {
    const { client, sent } = fakeClient([() => ok(1, '"a"'), () => ok(1, '"a"')], { etagCache: false });
    await client.post.count();
    await client.post.count();
    const cached = fakeClient([() => ok({ count: 1 }, '"a"'), () => ok({ count: 1 }, '"a"')]);
    await cached.client.post.deleteMany({ where: { id: 1 } });
    await cached.client.post.deleteMany({ where: { id: 1 } });
    expect([...sent, ...cached.sent].map((request) => request.headers.get('If-None-Match'))).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('throws a 304 it has no kept answer for as an RpcClientError', async () => {
    const { client } = fakeClient([() => notModified('"a"')], { headers: { 'If-None-Match': '"a"' }, etagCache: 0 });
    await expect(client.post.count()).rejects.toMatchObject({ name: 'RpcClientError', status: 304 });
  });
});

describe('RPC client writes with an Idempotency-Key', () => {
  const keyOf = (request: Sent) => request.headers.get('Idempotency-Key');

  it('sends a fresh UUID per write, as a structured-field string, and none on reads', async () => {
    const { client, sent } = fakeClient([() => ok({}), () => ok({}), () => ok({}), () => ok([]), () => ok([])]);
    await client.post.create({ data: {} });
    await client.post.update({ where: { id: 1 }, data: {} });
    await client.post.delete({ where: { id: 1 } });
    await client.post.findMany();
    await client.$transaction([client.post.create({ data: {} })]);
    const keys = sent.map(keyOf);
    expect(sent.map((request) => request.method)).toEqual(['POST', 'PATCH', 'DELETE', 'GET', 'POST']);
    expect(keys[3]).toBeNull();
    const written = keys.filter((key) => key !== null);
    expect(written).toHaveLength(4);
    for (const key of written) expect(key).toMatch(UUID_FIELD);
    expect(new Set(written).size).toBe(4);
  });

  it('sends the same key when the same call is sent again (a retry), a new one for a new call', async () => {
    const { client, sent } = fakeClient([() => ok({}), () => ok({}), () => ok({})]);
    const call = client.post.create({ data: { title: 't' } });
    await call.execute();
    await call.execute();
    await client.post.create({ data: { title: 't' } });
    const [first, retry, other] = sent.map(keyOf);
    expect(retry).toBe(first);
    expect(other).not.toBe(first);
  });

  it('sends the caller’s key with withIdempotencyKey and the $transaction option', async () => {
    const { client, sent } = fakeClient([() => ok({}), () => ok({}), () => ok([])]);
    const call = withIdempotencyKey(client.post.findUnique({ where: { id: 1 } }), 'ignored on reads');
    await call;
    const keyed = withIdempotencyKey(client.post.update({ where: { id: 1 }, data: {} }), 'order-7 "a\\b"') as Call;
    await keyed;
    await client.$transaction([client.post.create({ data: {} })], { idempotencyKey: 'batch-1' });
    expect(sent.map(keyOf)).toEqual([null, '"order-7 \\"a\\\\b\\""', '"batch-1"']);
  });

  it('refuses a key that is no structured-field string', async () => {
    const { client, sent } = fakeClient([]);
    await expect(withIdempotencyKey(client.post.create({ data: {} }), 'clé')).rejects.toThrow(TypeError);
    await expect(withIdempotencyKey(client.post.create({ data: {} }), '')).rejects.toThrow(TypeError);
    expect(sent).toEqual([]);
  });

  it('makes version 4 UUIDs where crypto.randomUUID is missing (pages served over HTTP)', () => {
    const keys = [1, 2].map(() => randomUuid({ getRandomValues: (bytes) => crypto.getRandomValues(bytes) }));
    for (const key of keys) expect(`"${key}"`).toMatch(UUID_FIELD);
    expect(keys[0]).not.toBe(keys[1]);
  });
});

describe('RPC client and soft delete', () => {
  const query = (request: Sent) => Object.fromEntries(new URL(request.url).searchParams);

  it('sends withDeleted=true with a read given to withDeleted, fluent ones included, and not without', async () => {
    const { client, sent } = fakeClient([() => ok([]), () => ok(0), () => ok({ author: null }), () => ok([])]);
    await withDeleted(client.post.findMany({ where: { id: 1 } }));
    await withDeleted(client.comment.count());
    const post = client.post.findUnique({ where: { id: 1 } }) as Call & Record<string, () => Call>;
    await withDeleted(post.author());
    await client.post.findMany({ where: { id: 1 } });
    expect(sent.map((request) => request.method)).toEqual(['GET', 'GET', 'GET', 'GET']);
    expect(sent.map(query)).toEqual([
      { q: '{"where":{"id":1}}', withDeleted: 'true' },
      { withDeleted: 'true' },
      { q: '{"where":{"id":1},"select":{"author":true}}', withDeleted: 'true' },
      { q: '{"where":{"id":1}}' },
    ]);
  });

  it('never revalidates a read with the tag of the same read with or without deleted rows', async () => {
    const { client, sent } = fakeClient([
      () => ok([1], '"live"'),
      () => ok([1, 2], '"all"'),
      () => notModified('"all"'),
    ]);
    expect(await client.tag.findMany()).toEqual([1]);
    expect(await withDeleted(client.tag.findMany())).toEqual([1, 2]);
    expect(await withDeleted(client.tag.findMany())).toEqual([1, 2]);
    expect(sent.map((request) => request.headers.get('If-None-Match'))).toEqual([null, null, '"all"']);
  });

  it('refuses withDeleted on a write but a hard delete, and a withDeleted call in $transaction, sending nothing', async () => {
    const { client, sent } = fakeClient([]);
    expect(() => withDeleted(client.post.update({ where: { id: 1 }, data: {} }))).toThrow(TypeError);
    expect(() => withDeleted(client.post.delete({ where: { id: 1 } }))).toThrow(TypeError);
    expect(() => withDeleted(client.post.restore({ where: { id: 1 } }))).toThrow(TypeError);
    expect(() => withDeleted(Promise.resolve([]))).toThrow(TypeError);
    await expect(client.$transaction([withDeleted(client.post.count())])).rejects.toThrow(TypeError);
    expect(sent).toEqual([]);
  });

  it('restores with a POST of the arguments and removes for good with a DELETE of q, each with its key', async () => {
    const { client, sent } = fakeClient([
      () => ok({ id: 1, deletedAt: null }),
      () => ok({ id: 2 }),
      () => ok({ author: { name: 'a' } }),
      () => ok({ id: 4 }),
    ]);
    expect(await client.post.restore({ where: { id: 1 }, select: { id: true, deletedAt: true } })).toEqual({
      id: 1,
      deletedAt: null,
    });
    expect(await client.tag.hardDelete({ where: { id: 2 } })).toEqual({ id: 2 });
    const restored = client.post.restore({ where: { id: 3 } }) as Call & Record<string, () => Call>;
    expect(await restored.author()).toEqual({ name: 'a' });
    expect(await withDeleted(client.tag.hardDelete({ where: { id: 4 } }))).toEqual({ id: 4 });
    expect(sent.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /rpc/post/restore',
      'DELETE /rpc/tag/hardDelete',
      'POST /rpc/post/restore',
      'DELETE /rpc/tag/hardDelete',
    ]);
    expect(query(sent[3]!)).toEqual({ q: '{"where":{"id":4}}', withDeleted: 'true' });
    expect(JSON.parse(sent[0]!.body!)).toEqual({ where: { id: 1 }, select: { id: true, deletedAt: true } });
    expect(JSON.parse(sent[2]!.body!)).toEqual({ where: { id: 3 }, select: { author: true } });
    expect(query(sent[1]!)).toEqual({ q: '{"where":{"id":2}}' });
    expect(sent[1]!.body).toBeUndefined();
    for (const request of sent) expect(request.headers.get('Idempotency-Key')).toMatch(UUID_FIELD);
  });
});

describe('RPC client and history', () => {
  /** The query parameters of a request, each parsed as JSON. */
  const query = (request: Sent) =>
    Object.fromEntries([...new URL(request.url).searchParams].map(([name, value]) => [name, JSON.parse(value)]));
  const at = new Date('2024-01-02T03:04:05.000Z');
  /** An answer with superjson's metadata, as the server sends Dates. */
  const serialized = (data: unknown) => {
    const { json, meta } = registerPrismaTypes(new SuperJSON(), null).serialize(data);
    return new Response(JSON.stringify({ data: json, meta: { serialization: meta } }), { status: 200 });
  };

  it('reads a row’s versions with a GET of q and meta, its times restored as Dates', async () => {
    const version = { version: 2, operation: 'update', at, actor: null, requestId: 'r', changed: ['title'] };
    const { client, sent } = fakeClient([() => serialized([{ ...version, data: { id: 1, createdAt: at } }])]);
    expect(await client.post.history({ where: { id: 1 }, since: at, order: 'asc', take: 5 })).toEqual([
      { ...version, data: { id: 1, createdAt: at } },
    ]);
    expect(`${sent[0]!.method} ${new URL(sent[0]!.url).pathname}`).toBe('GET /rpc/post/history');
    expect(query(sent[0]!)).toEqual({
      q: { where: { id: 1 }, since: at.toISOString(), order: 'asc', take: 5 },
      meta: { serialization: { v: 1, values: { since: ['Date'] } } },
    });
    expect(sent[0]!.headers.get('Idempotency-Key')).toBeNull();
  });

  it('sends asOf of a read in q, a Date with its meta', async () => {
    const { client, sent } = fakeClient([() => ok([]), () => ok(0)]);
    await client.post.findMany({ where: { id: 1 }, asOf: at });
    await client.post.count({ asOf: '2024-01-02T03:04:05Z' });
    expect(sent.map(query)).toEqual([
      {
        q: { where: { id: 1 }, asOf: at.toISOString() },
        meta: { serialization: { v: 1, values: { asOf: ['Date'] } } },
      },
      { q: { asOf: '2024-01-02T03:04:05Z' } },
    ]);
  });

  it('restores a version with a POST of the arguments and its key, relation methods included', async () => {
    const { client, sent } = fakeClient([() => ok({ id: 1, title: 'old' }), () => ok({ author: { name: 'a' } })], {
      headers: { 'If-Match': '"t"' },
    });
    expect(
      await client.post.restoreVersion({ where: { id: 1 }, version: 2, select: { id: true, title: true } }),
    ).toEqual({ id: 1, title: 'old' });
    const restored = client.post.restoreVersion({ where: { id: 1 }, version: 2 }) as Call & Record<string, () => Call>;
    expect(await restored.author()).toEqual({ name: 'a' });
    expect(sent.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /rpc/post/restoreVersion',
      'POST /rpc/post/restoreVersion',
    ]);
    expect(JSON.parse(sent[1]!.body!)).toEqual({ where: { id: 1 }, version: 2, select: { author: true } });
    for (const request of sent) {
      expect(request.headers.get('Idempotency-Key')).toMatch(UUID_FIELD);
      expect(request.headers.get('If-Match')).toBe('"t"');
    }
  });

  it('refuses withDeleted on history and restoreVersion, sending nothing', () => {
    const { client, sent } = fakeClient([]);
    expect(() => withDeleted(client.post.history({ where: { id: 1 } }))).toThrow(TypeError);
    expect(() => withDeleted(client.post.restoreVersion({ where: { id: 1 }, version: 1 }))).toThrow(TypeError);
    expect(sent).toEqual([]);
  });
});

describe('RPC client consistency tokens', () => {
  const withToken = (token: string, etag?: string) => () =>
    new Response(JSON.stringify({ data: 1 }), {
      status: 200,
      headers: { 'Consistency-Token': token, ...(etag ? { ETag: etag } : {}) },
    });

  it('sends back the latest token it was answered, also to reads it revalidates', async () => {
    const { client, sent } = fakeClient([
      () => ok(1, '"a"'),
      withToken('0/20'),
      withToken('0/1F'),
      () => notModified('"a"'),
    ]);
    await client.post.findMany();
    await client.post.create({ data: { title: 'x' } });
    await client.post.update({ where: { id: 1 }, data: { title: 'y' } });
    expect(await client.post.findMany()).toEqual(1);
    expect(sent.map((request) => request.headers.get('Consistency-Token'))).toEqual([null, null, '0/20', '0/20']);
    expect(sent[3]!.headers.get('If-None-Match')).toBe('"a"');
  });

  it('uses the header the server names, and keeps a token the caller sets itself', async () => {
    const { client, sent } = fakeClient([withToken('0/5'), withToken('1/0'), () => ok(1)], {
      consistencyHeader: 'Consistency-Token',
      headers: (): Record<string, string> => (sent.length === 2 ? { 'Consistency-Token': '0/9' } : {}),
    });
    await client.post.create({ data: { title: 'x' } });
    await client.post.findMany();
    await client.post.findMany();
    expect(sent.map((request) => request.headers.get('Consistency-Token'))).toEqual([null, '0/5', '0/9']);
  });
});
