import type { Server } from 'node:http';

import type { PrismaClient } from '../../fixtures/generated/sqlite/prisma/client.js';
import { LiveQueries } from '../../lib/changes/live-queries.js';
import { createRpcClient } from '../../lib/client/create-rpc-client.js';
import { liveQuery } from '../../lib/client/live-query.js';
import type { RpcClientError } from '../../lib/client/rpc-client.error.js';
import { liveCall } from '../../lib/client/rpc-promise.js';
import { listenOnLoopback } from '../support/browser.js';
import { eventually, settled } from '../support/eventually.js';
import { useTestApp } from '../support/test-app.js';

// The client's live queries against the module's streams, in Node (its global fetch): the database
// plays no part in what the client does, so SQLite alone.
describe('live queries of the client', () => {
  let origin = '';
  let authorId = 0;
  const t = useTestApp('sqlite', {
    options: { live: { debounce: 5 } },
    seed: async ({ db }) => {
      authorId = (await db.prisma.user.create({ data: { email: 'a@x.test', name: 'A' } })).id;
      await db.prisma.post.create({ data: { title: 'seeded', authorId } });
    },
  });
  beforeAll(async () => {
    origin = await listenOnLoopback(t.app);
  });
  const client = () => createRpcClient<PrismaClient>({ baseUrl: `${origin}/api/rpc` });
  const subscribers = () => t.app.get(LiveQueries).size;

  it('follows a call across a lost connection, resuming where it was', async () => {
    const rpc = client();
    const results: string[][] = [];
    let reconnections = 0;
    const stop = new AbortController();
    const done = liveCall(rpc.post.findMany({ select: { title: true }, orderBy: { id: 'asc' } }), {
      signal: stop.signal,
      onResult: (posts) => results.push(posts.map((post) => post.title)),
      onReconnect: () => reconnections++,
    });
    await eventually(() => expect(results).toEqual([['seeded']]));
    await rpc.post.create({ data: { title: 'second', author: { connect: { id: authorId } } } });
    await eventually(() => expect(results).toEqual([['seeded'], ['seeded', 'second']]));

    (t.app.getHttpServer() as Server).closeAllConnections();
    await eventually(() => expect(reconnections).toBe(1), 10_000);
    await eventually(() => expect(subscribers()).toBe(1));
    // The server had nothing new since the last event's id: it sent nothing on the new connection.
    await settled();
    expect(results).toHaveLength(2);
    await rpc.post.create({ data: { title: 'third', author: { connect: { id: authorId } } } });
    await eventually(() => expect(results.at(-1)).toEqual(['seeded', 'second', 'third']));

    stop.abort();
    await done;
    await eventually(() => expect(subscribers()).toBe(0));
  });

  it('ends on a refusal, with the server’s error', async () => {
    const errors: [RpcClientError, boolean][] = [];
    const where = { nope: 1 } as never;
    await liveCall(client().post.findMany({ where }), {
      onResult: () => undefined,
      onError: (error, willRetry) => errors.push([error, willRetry]),
    });
    expect(errors.map(([error, willRetry]) => [error.status, error.errorCode, willRetry])).toEqual([
      [400, 'invalid-argument', false],
    ]);
  });

  it('hands over each REST answer with the ETag its GET answers', async () => {
    const url = `${origin}/api/rest/post?filter[title]=seeded&fields[post]=title`;
    const plain = await fetch(url);
    const results: [unknown, string | undefined][] = [];
    const stop = new AbortController();
    const done = liveQuery(url, { signal: stop.signal, onResult: (body, etag) => results.push([body, etag]) });
    await eventually(() => expect(results).toHaveLength(1));
    expect(results[0]).toEqual([await plain.json(), plain.headers.get('ETag')]);
    stop.abort();
    await done;
  });
});
