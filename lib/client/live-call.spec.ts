import { eventually } from '../../test/support/eventually.js';
import { fakeLiveServer, resultEvent } from '../../test/support/fake-live-server.js';
import { createRpcClient } from './create-rpc-client.js';
import type { RpcClientError } from './rpc-client.error.js';
import { liveCall, withDeleted } from './rpc-promise.js';

type Call = PromiseLike<unknown> & Record<string, (args?: unknown) => PromiseLike<unknown>>;
type TestClient = Record<string, Record<string, (args?: unknown) => Call>>;

function liveClient(answers?: Parameters<typeof fakeLiveServer>[0]) {
  const server = fakeLiveServer(answers);
  const client = createRpcClient<never>({
    baseUrl: 'http://api.test/rpc/',
    fetch: server.fetch,
    headers: () => ({ Authorization: 'Bearer t' }),
  }) as unknown as TestClient;
  return { server, client };
}

/** Follows a call, recording its results and errors until `stop()`. */
function follow(call: PromiseLike<unknown>) {
  const results: unknown[] = [];
  const errors: [RpcClientError, boolean][] = [];
  const controller = new AbortController();
  const done = liveCall(call, {
    signal: controller.signal,
    onResult: (result) => results.push(result),
    onError: (error, willRetry) => errors.push([error, willRetry]),
  });
  return { results, errors, done, stop: () => (controller.abort(), done) };
}

describe('liveCall', () => {
  it('follows the read’s own URL, decoding each result as the call answers it', async () => {
    const { server, client } = liveClient();
    const call = client.post.findUnique({ where: { id: 1 } }).author({ select: { name: true, createdAt: true } });
    const live = follow(call);
    await eventually(() => expect(server.connections).toHaveLength(1));
    const url = new URL(server.connections[0].url);
    expect(url.pathname).toBe('/rpc/post/findUnique');
    expect(JSON.parse(url.searchParams.get('q')!)).toEqual({
      where: { id: 1 },
      select: { author: { select: { name: true, createdAt: true } } },
    });
    expect(server.connections[0].headers.get('Authorization')).toBe('Bearer t');

    const createdAt = '2020-01-02T03:04:05.678Z';
    server.connections[0].push(
      resultEvent('"a"', {
        data: { author: { name: 'Ada', createdAt } },
        meta: { serialization: { values: { 'author.createdAt': ['Date'] } } },
      }) + resultEvent('"b"', { data: null }),
    );
    await eventually(() => expect(live.results).toEqual([{ name: 'Ada', createdAt: new Date(createdAt) }, null]));
    await live.stop();
  });

  it('follows a read with deleted rows with its withDeleted parameter', async () => {
    const { server, client } = liveClient();
    const live = follow(withDeleted(client.post.count()));
    await eventually(() => expect(server.connections).toHaveLength(1));
    expect(new URL(server.connections[0].url).searchParams.get('withDeleted')).toBe('true');
    await live.stop();
  });

  it('reports a refusal and an error on the stream as RpcClientErrors', async () => {
    const refused = { error: { message: 'No.', errorCode: 'rejected-by-policy', rejectedByPolicy: true } };
    const { server, client } = liveClient([undefined, new Response(JSON.stringify(refused), { status: 403 })]);
    const live = follow(client.post.findMany());
    await eventually(() => expect(server.connections).toHaveLength(1));
    server.connections[0].push(
      'retry: 0\n\nevent: error\ndata: {"error":{"message":"Busy.","errorCode":"unavailable"}}\n\n',
    );
    server.connections[0].end();
    await live.done;

    expect(live.errors.map(([error, willRetry]) => [error.status, error.errorCode, error.message, willRetry])).toEqual([
      [0, 'unavailable', 'Busy.', true],
      [403, 'rejected-by-policy', 'No.', false],
    ]);
    expect(live.errors[1][0].rejectedByPolicy).toBe(true);
  });

  it('takes reads only', () => {
    const { client } = liveClient();
    expect(() => liveCall(client.post.create({ data: {} }), { onResult: () => undefined })).toThrow(
      /liveCall takes a read/,
    );
    expect(() => liveCall(Promise.resolve(1), { onResult: () => undefined })).toThrow(TypeError);
  });
});
