import { connect } from 'node:net';

import { LiveQueries } from '../../lib/changes/live-queries.js';
import { OutboxWriter } from '../../lib/changes/outbox-writer.js';
import { withPolicies } from '../../lib/index.js';
import { type LiveStream, openLiveQuery } from '../support/event-stream-client.js';
import { eventually, settled } from '../support/eventually.js';
import { rpcPath } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

describe.each(testProviders())('live queries (%s)', (provider) => {
  let authorId: number;
  let otherAuthorId: number;
  let base: string;
  const t = useTestApp(provider, {
    options: {
      live: { debounce: 5, heartbeat: 100, maxPerCaller: 3, maxBufferedBytes: 1 << 16 },
      // `x-slow`: the request's client comes late, as from a slow `getPrisma`.
      getPrisma: async (request: { headers: Record<string, string> }) => {
        if (request.headers['x-slow'])
          await new Promise((resolve) => setTimeout(resolve, Number(request.headers['x-slow'])));
        return t.db.prisma;
      },
    },
    seed: async ({ db }) => {
      authorId = (await db.prisma.user.create({ data: { email: 'a@x.test', name: 'A' } })).id;
      otherAuthorId = (await db.prisma.user.create({ data: { email: 'b@x.test', name: 'B' } })).id;
      await db.prisma.post.create({ data: { title: 'first', authorId } });
    },
  });
  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  const streams: LiveStream[] = [];
  const live = async (path: string, headers: Record<string, string> = {}) => {
    const stream = await openLiveQuery(`${base}${path}`, headers);
    streams.push(stream);
    return stream;
  };
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await eventually(() => expect(t.app.get(LiveQueries).size).toBe(0));
  });
  /**
   * A request over its own connection, as another client would send it (supertest's keep-alive
   * sockets to a listening Fastify server would hold its close).
   */
  const send = async (method: string, path: string, body?: unknown, contentType = 'application/json') => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'Content-Type': contentType, Accept: contentType },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  const restCreate = async (title: string, author = authorId) => {
    const relationships = { author: { data: { type: 'user', id: String(author) } } };
    const created = await send(
      'POST',
      '/api/rest/post',
      { data: { type: 'post', attributes: { title }, relationships } },
      JSON_API,
    );
    expect(created.status).toBe(201);
    return created;
  };
  const rpcCreate = async (title: string, author = authorId) => {
    const created = await send('POST', '/api/rpc/post/create', {
      data: { title, author: { connect: { id: author } } },
    });
    expect(created.status).toBe(201);
    return created;
  };
  const titles = (document: any): string[] => document.data.map((post: any) => post.attributes.title);

  it('streams a REST collection as its GET answers it, then again after writes on either interface', async () => {
    const path = `/api/rest/post?filter[authorId]=${authorId}&sort=id&fields[post]=title`;
    const plain = await send('GET', path, undefined, JSON_API);
    const stream = await live(path);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    expect(stream.headers['cache-control']).toBe('no-store');
    expect(await stream.nth(1)).toEqual(plain.body);
    expect(stream.events[0]!.id).toBe(plain.headers.get('etag'));
    expect(stream.retry).toBe(1000);

    await restCreate('by rest');
    expect(titles(await stream.nth(2))).toEqual(['first', 'by rest']);
    await rpcCreate('by rpc');
    expect(titles(await stream.nth(3))).toEqual(['first', 'by rest', 'by rpc']);
    const again = await send('GET', path, undefined, JSON_API);
    expect(stream.events.at(-1)!.id).toBe(again.headers.get('etag'));
  });

  it('streams RPC reads (findMany, count, aggregate) with their superjson envelope', async () => {
    const findMany = await live(
      rpcPath('post', 'findMany', { where: { authorId: otherAuthorId }, select: { title: true } }),
    );
    const count = await live(rpcPath('post', 'count', { where: { authorId: otherAuthorId } }));
    const plain = await send('GET', rpcPath('post', 'count', { where: { authorId: otherAuthorId } }));
    expect(await count.nth(1)).toEqual(plain.body);
    expect(await findMany.nth(1)).toEqual({ data: [] });

    await restCreate('other', otherAuthorId);
    expect(await findMany.nth(2)).toEqual({ data: [{ title: 'other' }] });
    expect(await count.nth(2)).toEqual({ data: 1 });
  });

  it.each([
    ['REST related collection', () => `/api/rest/user/${otherAuthorId}/posts?fields[post]=title`],
    ['REST relationship', () => `/api/rest/user/${otherAuthorId}/relationships/posts`],
    [
      'RPC aggregate',
      () => rpcPath('post', 'aggregate', { where: { authorId: otherAuthorId }, _count: { _all: true } }),
    ],
    [
      'RPC groupBy',
      () =>
        rpcPath('post', 'groupBy', { by: ['authorId'], where: { authorId: otherAuthorId }, _count: { _all: true } }),
    ],
    [
      'RPC findFirst',
      () => rpcPath('post', 'findFirst', { where: { authorId: otherAuthorId }, orderBy: { id: 'desc' } }),
    ],
  ])('streams a %s as its GET answers it, before and after a write', async (_name, path) => {
    const stream = await live(path());
    expect(await stream.nth(1)).toEqual((await send('GET', path())).body);
    await restCreate(`more ${_name}`, otherAuthorId);
    await eventually(async () => expect(stream.results().at(-1)).toEqual((await send('GET', path())).body));
    expect(stream.results().length).toBe(2);
  });

  it('hears atomic operations and sequential transactions, nested writes included', async () => {
    const stream = await live(`/api/rest/post?filter[title]=batched&fields[post]=title`);
    await stream.nth(1);
    const add = {
      op: 'add',
      data: {
        type: 'post',
        attributes: { title: 'batched' },
        relationships: { author: { data: { type: 'user', id: String(authorId) } } },
      },
    };
    const atomic = await fetch(`${base}/api/rest/operations`, {
      method: 'POST',
      headers: { 'Content-Type': ATOMIC, Accept: ATOMIC },
      body: JSON.stringify({ 'atomic:operations': [add] }),
    });
    expect(atomic.status).toBe(200);
    expect(titles(await stream.nth(2))).toEqual(['batched']);
    // A user created with a post nested in it, in a sequential transaction.
    const sequential = await send('POST', '/api/rpc/$transaction/sequential', [
      {
        model: 'user',
        op: 'create',
        args: { data: { email: `n-${provider}@x.test`, name: 'N', posts: { create: { title: 'batched' } } } },
      },
    ]);
    expect(sequential.status).toBe(200);
    expect(titles(await stream.nth(3))).toEqual(['batched', 'batched']);
  });

  it('sends nothing when a commit leaves the answer as it was, and re-runs nothing for models it does not read', async () => {
    const queries = t.app.get(LiveQueries);
    const post = (await rpcCreate('quiet')).body.data;
    const stream = await live(`/api/rest/post?filter[title]=quiet&fields[post]=title`);
    await stream.nth(1);
    const before = queries.reruns;
    // Reads Post only: a new tag changes nothing it reads.
    expect((await send('POST', '/api/rpc/tag/create', { data: { name: `t-${provider}` } })).status).toBe(201);
    await settled();
    expect(queries.reruns).toBe(before);
    // A change to a column the answer does not show re-runs it, and sends nothing.
    await send('PUT', '/api/rpc/post/update', { where: { id: post.id }, data: { content: 'hidden' } });
    await eventually(() => expect(queries.reruns).toBeGreaterThan(before));
    await settled();
    expect(stream.results()).toHaveLength(1);
    await send('PUT', '/api/rpc/post/update', { where: { id: post.id }, data: { title: 'quiet' } });
    await settled();
    expect(stream.results()).toHaveLength(1);
    await rpcCreate('quiet');
    expect(titles(await stream.nth(2))).toEqual(['quiet', 'quiet']);
  });

  it('shares one re-run between subscribers of the same query and context', async () => {
    const queries = t.app.get(LiveQueries);
    const path = `/api/rest/post?filter[title]=shared`;
    const a = await live(path);
    const b = await live(path);
    await Promise.all([a.nth(1), b.nth(1)]);
    const before = queries.reruns;
    await rpcCreate('shared');
    await Promise.all([a.nth(2), b.nth(2)]);
    expect(queries.reruns - before).toBe(1);
    expect(a.events[1]).toEqual(b.events[1]);
  });

  it('resumes with Last-Event-ID: nothing at once when the answer is unchanged, the answer when it changed', async () => {
    const path = `/api/rest/post?filter[title]=resume`;
    const first = await live(path);
    const id = (await first.nth(1), first.events[0]!.id!);
    first.close();
    const same = await live(path, { 'Last-Event-ID': id });
    await settled();
    expect(same.events).toHaveLength(0);
    same.close();
    await rpcCreate('resume');
    const changed = await live(path, { 'Last-Event-ID': id });
    expect(titles(await changed.nth(1))).toEqual(['resume']);
    expect(changed.events[0]!.id).not.toBe(id);
  });

  it('ends a stream with the error event when its query fails, in the interface format', async () => {
    const created = await rpcCreate('doomed');
    const id = created.body.data.id;
    const resource = await live(`/api/rest/post/${id}`);
    const rpc = await live(rpcPath('post', 'findUniqueOrThrow', { where: { id } }));
    await Promise.all([resource.nth(1), rpc.nth(1)]);
    await t.db.prisma.post.delete({ where: { id } });
    // A write outside the module is not seen: the application tells of it, which re-runs them.
    t.app.get(LiveQueries).committed(['Post']);
    await eventually(() => expect(resource.ended && rpc.ended).toBe(true));
    const restError = resource.events.at(-1)!;
    expect(restError.event).toBe('error');
    expect(JSON.parse(restError.data).errors[0]).toMatchObject({ status: '404', code: 'not-found' });
    expect(JSON.parse(rpc.events.at(-1)!.data).error).toMatchObject({ errorCode: 'not-found' });
  });

  it('refuses what the GET refuses, and subscriptions beyond the limits with 429', async () => {
    const unknown = await live('/api/rest/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ errors: [{ code: 'unknown-type' }] });
    const opened = await Promise.all([1, 2, 3].map((n) => live(`/api/rest/post?page[size]=${n}`)));
    expect(opened.map((stream) => stream.status)).toEqual([200, 200, 200]);
    const refused = await live('/api/rest/post?page[size]=4');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ errors: [{ code: 'too-many-live-queries' }] });
    opened[0]!.close();
    await eventually(() => expect(t.app.get(LiveQueries).size).toBe(2));
    expect((await live('/api/rest/post?page[size]=5')).status).toBe(200);
  });

  it('disconnects a client that does not read rather than buffering without bound', async () => {
    // A client that sends its request and never reads: what the server writes piles up unsent.
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    socket.pause();
    socket.write(
      `GET /api/rest/post?filter[title]=big&page[size]=100 HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`,
    );
    const queries = t.app.get(LiveQueries);
    await eventually(() => expect(queries.size).toBe(1));
    // Rows the module does not see being written, then one it does: the next answer is large.
    const content = 'x'.repeat(30_000);
    await t.db.prisma.post.createMany({
      data: Array.from({ length: 100 }, () => ({ title: 'big', content, authorId })),
    });
    await rpcCreate('big');
    await eventually(() => expect(queries.size).toBe(0));
    socket.destroy();
  });

  it("runs a write's own statements only: live queries learn of it from the models it reached", async () => {
    t.db.queries.length = 0;
    await t.db.prisma.post.create({ data: { title: 'plain', author: { connect: { id: authorId } } } });
    const plain = t.db.queries.length;
    t.db.queries.length = 0;
    await rpcCreate('counted');
    expect(t.db.queries).toHaveLength(plain);
  });

  it('re-runs the queries of rows a delete removes through the database (cascades)', async () => {
    const post = (await rpcCreate('cascading')).body.data;
    await send('POST', '/api/rpc/comment/create', { data: { body: 'on it', postId: post.id } });
    const comments = await live(`/api/rest/comment?filter[postId]=${post.id}&fields[comment]=body`);
    expect(await comments.nth(1)).toMatchObject({ data: [{ attributes: { body: 'on it' } }] });
    await send('DELETE', `/api/rest/post/${post.id}`, undefined, JSON_API);
    expect(await comments.nth(2)).toMatchObject({ data: [] });
  });

  it('forgets a subscriber gone before its first answer was ready', async () => {
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    socket.write(`GET /api/rest/post HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nx-slow: 300\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(t.app.get(LiveQueries).size).toBe(0);
    // Its place in the caller's limit is free again: three streams (the limit) open.
    const opened = await Promise.all([1, 2, 3].map((n) => live(`/api/rest/post?page[size]=${n}`)));
    expect(opened.map((stream) => stream.status)).toEqual([200, 200, 200]);
  });

  it('keeps idle streams open with heartbeats', async () => {
    const stream = await live('/api/rest/user?fields[user]=name');
    await eventually(() => expect(stream.comments).toBeGreaterThanOrEqual(2));
  });
});

/**
 * With the outbox on, live queries also hear of the changes its worker delivers: a change whose
 * process died between its commit and telling anyone still reaches them.
 */
describe.each(testProviders())('live queries fed by the outbox worker (%s)', (provider) => {
  let base: string;
  const t = useTestApp(provider, {
    options: { live: { debounce: 5 }, outbox: { model: 'OutboxEntry', pollInterval: 20 } },
  });
  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  it('delivers a change that another process committed to the outbox and told no one of', async () => {
    const stream = await openLiveQuery(`${base}/api/rest/tag?fields[tag]=name`);
    expect(await stream.nth(1)).toMatchObject({ data: [] });
    // Another process's write: its change in the outbox, in its transaction, and nothing else.
    const writer = new OutboxWriter(t.db.modelMeta.models.OutboxEntry!);
    const client = withPolicies(t.db.prisma, { modelMeta: t.db.modelMeta, context: {}, beforeCommit: writer.write });
    await client.tag.create({ data: { name: 'from elsewhere' } });
    expect(await stream.nth(2)).toMatchObject({ data: [{ attributes: { name: 'from elsewhere' } }] });
    stream.close();
  });
});

/** A re-run that fails unexpectedly is a server error like any other: logged and reported. */
describe.each(testProviders())('live queries failing with a server error (%s)', (provider) => {
  let base: string;
  let explode = false;
  const reports: { requestId: string; status: number; model?: string }[] = [];
  const t = useTestApp(provider, {
    options: {
      live: { debounce: 5 },
      // The live query's own client (`x-live`) breaks on its tag reads, once told to.
      getPrisma: (request: { headers: Record<string, string> }) =>
        request.headers['x-live'] === '1'
          ? new Proxy(t.db.prisma, {
              get: (target, property, receiver) =>
                property === 'tag' && explode
                  ? new Proxy(target.tag, {
                      get: () => () => Promise.reject(new Error('the database broke')),
                    })
                  : Reflect.get(target, property, receiver),
            })
          : t.db.prisma,
      onServerError: (_error, info) =>
        void reports.push({ requestId: info.requestId, status: info.status, model: info.model }),
    },
  });
  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  it('ends the stream with a 500 error event and reports it with the stream request id', async () => {
    const stream = await openLiveQuery(`${base}/api/rest/tag`, { 'x-live': '1' });
    await stream.nth(1);
    explode = true;
    const created = await fetch(`${base}/api/rpc/tag/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: { name: `after-${provider}` }, select: { id: true } }),
    });
    expect(created.status).toBe(201);
    await eventually(() => expect(stream.ended).toBe(true));
    expect(stream.events.at(-1)!.event).toBe('error');
    expect(JSON.parse(stream.events.at(-1)!.data).errors[0]).toMatchObject({ status: '500', code: 'internal-error' });
    expect(reports).toEqual([{ requestId: stream.headers['x-request-id'], status: 500, model: 'Tag' }]);
  });
});
