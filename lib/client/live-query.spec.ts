import { eventually } from '../../test/support/eventually.js';
import { fakeLiveServer, resultEvent } from '../../test/support/fake-live-server.js';
import { backoffDelay, liveQuery, LiveQueryError, type LiveQueryOptions } from './live-query.js';

/** A live query over the fake server, recording what it reports. */
function follow(server: ReturnType<typeof fakeLiveServer>, options: Partial<LiveQueryOptions> = {}) {
  const results: [unknown, string | undefined][] = [];
  const errors: [LiveQueryError, boolean][] = [];
  const delays: [number, number][] = [];
  let reconnections = 0;
  const controller = new AbortController();
  const done = liveQuery('http://api.test/api/post?filter=x', {
    fetch: server.fetch,
    signal: controller.signal,
    onResult: (body, etag) => results.push([body, etag]),
    onError: (error, willRetry) => errors.push([error, willRetry]),
    onReconnect: () => reconnections++,
    retryDelay: (failures, serverDelay) => (delays.push([failures, serverDelay]), 0),
    ...options,
  });
  return { results, errors, delays, reconnections: () => reconnections, controller, done };
}

describe('liveQuery', () => {
  it('asks for the event stream with the caller’s headers and hands over each result with its tag', async () => {
    const server = fakeLiveServer();
    const live = follow(server, { headers: async () => ({ Authorization: 'Bearer t' }) });
    await eventually(() => expect(server.connections).toHaveLength(1));
    const [connection] = server.connections;
    expect(connection.url).toBe('http://api.test/api/post?filter=x');
    expect(connection.headers.get('Accept')).toBe('text/event-stream');
    expect(connection.headers.get('Authorization')).toBe('Bearer t');
    expect(connection.headers.get('Last-Event-ID')).toBeNull();

    connection.push('retry: 2000\n\n' + resultEvent('"a"', { data: [1] }) + ': heartbeat\n\n');
    const split = resultEvent('"b"', { data: [1, 2] });
    connection.push(split.slice(0, 9));
    connection.push(split.slice(9));
    await eventually(() =>
      expect(live.results).toEqual([
        [{ data: [1] }, '"a"'],
        [{ data: [1, 2] }, '"b"'],
      ]),
    );
    live.controller.abort();
    await live.done;
    expect(connection.signal.aborted).toBe(true);
    expect(live.errors).toEqual([]);
  });

  it('reconnects a lost stream with the last tag, then reports the reconnection', async () => {
    const server = fakeLiveServer();
    const live = follow(server);
    await eventually(() => expect(server.connections).toHaveLength(1));
    server.connections[0].push('retry: 1500\n\n' + resultEvent('"a"', 1));
    await eventually(() => expect(live.results).toHaveLength(1));
    server.connections[0].end();

    await eventually(() => expect(server.connections).toHaveLength(2));
    expect(server.connections[1].headers.get('Last-Event-ID')).toBe('"a"');
    await eventually(() => expect(live.reconnections()).toBe(1));
    expect(live.delays).toEqual([[1, 1500]]);
    live.controller.abort();
    await live.done;
  });

  it('reports an error event, then reconnects with a delay growing until a result comes', async () => {
    const server = fakeLiveServer([undefined, new TypeError('fetch failed')]);
    const live = follow(server);
    await eventually(() => expect(server.connections).toHaveLength(1));
    server.connections[0].push('event: error\ndata: {"error":{"message":"db down"}}\n\n');
    server.connections[0].end();
    await eventually(() => expect(server.connections).toHaveLength(3));
    server.connections[2].push(resultEvent('"a"', 1));
    server.connections[2].end();
    // Reconnections are the connections that opened after one had: the third and fourth, not the failed second.
    await eventually(() => expect(live.reconnections()).toBe(2));
    live.controller.abort();
    await live.done;

    expect(live.errors.map(([error, willRetry]) => [error.status, error.message, willRetry])).toEqual([
      [0, '{"error":{"message":"db down"}}', true],
      [0, 'The live query lost its connection: fetch failed', true],
    ]);
    expect(live.errors[0][0].body).toBe('{"error":{"message":"db down"}}');
    expect(live.delays.map(([failures]) => failures)).toEqual([1, 2, 1]);
  });

  it('ends on a refusal the server will repeat, with its status and error body', async () => {
    const body = '{"errors":[{"status":"403"}]}';
    const server = fakeLiveServer([new Response(body, { status: 403 })]);
    const live = follow(server);
    await live.done;
    expect(server.connections).toHaveLength(1);
    expect(live.errors).toHaveLength(1);
    const [[error, willRetry]] = live.errors;
    expect(error).toBeInstanceOf(LiveQueryError);
    expect([error.status, error.body, willRetry]).toEqual([403, body, false]);
  });

  it('retries a subscription limit (429) and a server error, waiting at least their Retry-After', async () => {
    const server = fakeLiveServer([
      new Response('{}', { status: 429, headers: { 'Retry-After': '0' } }),
      new Response('', { status: 503 }),
    ]);
    const live = follow(server);
    await eventually(() => expect(server.connections).toHaveLength(3));
    live.controller.abort();
    await live.done;
    expect(live.errors.map(([error, willRetry]) => [error.status, error.message, willRetry])).toEqual([
      [429, '{}', true],
      [503, 'HTTP 503', true],
    ]);
  });

  it('ends when the server answers without an event stream (no live queries there)', async () => {
    const server = fakeLiveServer([new Response('{"data":[]}', { headers: { 'Content-Type': 'application/json' } })]);
    const live = follow(server);
    await live.done;
    expect(live.errors.map(([error, willRetry]) => [error.status, willRetry])).toEqual([[200, false]]);
    expect(live.results).toEqual([]);
  });

  it('closes a stream that sends data that is not JSON, and opens another', async () => {
    const server = fakeLiveServer();
    const live = follow(server);
    await eventually(() => expect(server.connections).toHaveLength(1));
    server.connections[0].push('id: "a"\ndata: {oops\n\n');
    await eventually(() => expect(server.connections).toHaveLength(2));
    expect(server.connections[0].signal.aborted).toBe(false); // closed by cancelling its body instead
    expect(live.errors.map(([error, willRetry]) => [error.message, willRetry])).toEqual([
      ['The live query received data that is not JSON.', true],
    ]);
    expect(server.connections[1].headers.get('Last-Event-ID')).toBeNull();
    live.controller.abort();
    await live.done;
  });

  it('takes a stream silent for longer than idleTimeout as lost, and opens another', async () => {
    const server = fakeLiveServer();
    const live = follow(server, { idleTimeout: 20 });
    await eventually(() => expect(server.connections).toHaveLength(2));
    live.controller.abort();
    await live.done;
    expect(live.errors[0][0].message).toBe("The live query's stream was silent for 20 ms.");
    expect(live.errors[0][1]).toBe(true);
  });

  it('stops while waiting to reconnect, and does not start when already aborted', async () => {
    const server = fakeLiveServer([new TypeError('offline')]);
    const live = follow(server, { retryDelay: () => 60_000 });
    await eventually(() => expect(live.errors).toHaveLength(1));
    live.controller.abort();
    await live.done;
    expect(server.connections).toHaveLength(1);

    await liveQuery('http://unused', { fetch: server.fetch, signal: AbortSignal.abort(), onResult: () => undefined });
    expect(server.connections).toHaveLength(1);
  });

  it('reconnects at once when a browser says its connection is back, whatever the delay left', async () => {
    const window = new EventTarget();
    const scope = globalThis as { addEventListener?: unknown; removeEventListener?: unknown };
    scope.addEventListener = window.addEventListener.bind(window);
    scope.removeEventListener = window.removeEventListener.bind(window);
    try {
      const server = fakeLiveServer([new TypeError('offline')]);
      const live = follow(server, { retryDelay: () => 60_000 });
      await eventually(() => expect(live.errors).toHaveLength(1));
      expect(server.connections).toHaveLength(1);
      window.dispatchEvent(new Event('online'));
      await eventually(() => expect(server.connections).toHaveLength(2));
      live.controller.abort();
      await live.done;
    } finally {
      delete scope.addEventListener;
      delete scope.removeEventListener;
    }
  });
});

describe('backoffDelay', () => {
  it('doubles the server’s delay per failure in a row, up to a cap', () => {
    const upper = (failures: number) => backoffDelay(failures, 1000, 30_000, () => 1);
    expect([1, 2, 3, 4, 5, 6, 7].map(upper)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it('waits a random share of the upper half, so that clients cut off together come back apart', () => {
    expect(backoffDelay(3, 1000, 30_000, () => 0)).toBe(2000);
    expect(backoffDelay(3, 1000, 30_000, () => 0.5)).toBe(3000);
  });
});
