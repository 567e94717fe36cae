import { QueryClient, QueryObserver } from '@tanstack/react-query';

import { eventually } from '../../../test/support/eventually.js';
import { fakeLiveServer, resultEvent } from '../../../test/support/fake-live-server.js';
import type { LiveQueryError } from '../live-query.js';
import { keepQueryLive, type LiveSource } from './live-cache.js';
import { liveRestQuery } from './live-rest-query.js';

const KEY = ['posts'];

/** A query observed as a component would, its reads counted; `answer` is what the next read resolves with. */
function observed(queryClient: QueryClient) {
  let reads = 0;
  let answer: (value: string) => void = () => undefined;
  const observer = new QueryObserver(queryClient, {
    queryKey: KEY,
    queryFn: () => (reads++, new Promise<string>((resolve) => (answer = resolve))),
    retry: false,
  });
  const unsubscribe = observer.subscribe(() => undefined);
  return { reads: () => reads, answer: (value: string) => answer(value), unsubscribe };
}

/** A source the test drives by hand, counting how often it was opened. */
function handSource() {
  const opened: Parameters<LiveSource<string>>[0][] = [];
  const source: LiveSource<string> = (handlers) => {
    opened.push(handlers);
    return new Promise((resolve) => handlers.signal.addEventListener('abort', () => resolve()));
  };
  return { source, opened };
}

describe('keepQueryLive', () => {
  it('writes each result into the query, one source for all holders of the key until the last lets go', async () => {
    const queryClient = new QueryClient();
    const { source, opened } = handSource();
    const release = [keepQueryLive(queryClient, KEY, source), keepQueryLive(queryClient, [...KEY], source)];
    expect(opened).toHaveLength(1);
    opened[0].onResult('one');
    opened[0].onResult('two');
    await eventually(() => expect(queryClient.getQueryData(KEY)).toBe('two'));

    release[0]();
    release[0](); // a second release of the same holder counts once
    expect(opened[0].signal.aborted).toBe(false);
    release[1]();
    expect(opened[0].signal.aborted).toBe(true);
    keepQueryLive(queryClient, KEY, source)();
    expect(opened).toHaveLength(2);
  });

  it('lets no read that was in flight overwrite a result of the stream', async () => {
    const queryClient = new QueryClient();
    const query = observed(queryClient);
    const { source, opened } = handSource();
    const release = keepQueryLive(queryClient, KEY, source);
    expect(query.reads()).toBe(1);
    opened[0].onResult('from the stream');
    await eventually(() => expect(queryClient.getQueryData(KEY)).toBe('from the stream'));
    query.answer('read before the change');
    await Promise.resolve();
    expect(queryClient.getQueryData(KEY)).toBe('from the stream');
    release();
    query.unsubscribe();
  });

  it('reads the query again on a reconnection, and once the source ended, whose next holder opens it again', async () => {
    const queryClient = new QueryClient();
    const query = observed(queryClient);
    query.answer('first');
    await eventually(() => expect(queryClient.getQueryData(KEY)).toBe('first'));
    const { source, opened } = handSource();
    const release = keepQueryLive(queryClient, KEY, source);
    opened[0].onReconnect();
    await eventually(() => expect(query.reads()).toBe(2));
    query.answer('second');

    opened[0].onError(new Error('retrying'), true);
    await eventually(() => expect(queryClient.getQueryData(KEY)).toBe('second'));
    expect(query.reads()).toBe(2);
    opened[0].onError(new Error('refused'), false);
    await eventually(() => expect(query.reads()).toBe(3));
    opened[0].signal.dispatchEvent(new Event('abort')); // the source ends
    await eventually(() => {
      keepQueryLive(queryClient, KEY, source)();
      expect(opened).toHaveLength(2);
    });
    release();
    query.unsubscribe();
  });

  it('reads the query again when its source fails instead of ending, and the next holder opens it again', async () => {
    const queryClient = new QueryClient();
    const query = observed(queryClient);
    query.answer('first');
    await eventually(() => expect(queryClient.getQueryData(KEY)).toBe('first'));
    let opened = 0;
    const failing: LiveSource<string> = async () => {
      opened++;
      throw new Error('a fault of the source');
    };
    const release = keepQueryLive(queryClient, KEY, failing);
    await eventually(() => expect(query.reads()).toBe(2));
    await eventually(() => {
      keepQueryLive(queryClient, KEY, failing)();
      expect(opened).toBe(2);
    });
    release();
    query.unsubscribe();
  });
});

describe('liveRestQuery', () => {
  it('keeps a query of a REST URL current with the documents of its stream', async () => {
    const queryClient = new QueryClient();
    const server = fakeLiveServer();
    const errors: [LiveQueryError, boolean][] = [];
    const stop = liveRestQuery(queryClient, {
      queryKey: ['post', { published: true }],
      url: 'http://api.test/api/post?filter[published]=true',
      fetch: server.fetch,
      headers: { Authorization: 'Bearer t' },
      toData: (document) => (document as { data: { id: string }[] }).data.map((resource) => resource.id),
      onError: (error, willRetry) => errors.push([error, willRetry]),
    });
    await eventually(() => expect(server.connections).toHaveLength(1));
    expect(server.connections[0].url).toBe('http://api.test/api/post?filter[published]=true');
    expect(server.connections[0].headers.get('Authorization')).toBe('Bearer t');
    server.connections[0].push(resultEvent('"a"', { data: [{ type: 'post', id: '1' }] }));
    await eventually(() => expect(queryClient.getQueryData(['post', { published: true }])).toEqual(['1']));

    server.connections[0].push('event: error\ndata: {"errors":[{"status":"500"}]}\n\n');
    await eventually(() => expect(errors.map(([error, willRetry]) => [error.body, willRetry])).toHaveLength(1));
    expect(errors[0][0].body).toBe('{"errors":[{"status":"500"}]}');
    stop();
    expect(server.connections[0].signal.aborted).toBe(true);
  });
});
