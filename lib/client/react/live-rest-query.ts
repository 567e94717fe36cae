import type { QueryClient, QueryKey } from '@tanstack/react-query';

import { liveQuery, type LiveQueryError, type LiveQueryOptions } from '../live-query.js';
import { keepQueryLive, type LiveSource, useLiveSource } from './live-cache.js';

export interface LiveRestQueryOptions<T = unknown> extends Pick<
  LiveQueryOptions,
  'fetch' | 'headers' | 'retryDelay' | 'idleTimeout'
> {
  /** The query to keep current: its key must tell this URL from others, as its `queryFn` reads it. */
  queryKey: QueryKey;
  /** The REST URL the query reads, such as `https://api.example.com/api/post?filter[published]=true`. */
  url: string;
  /** The query's data from the JSON:API document (a deserializer's output...); the document itself without it. */
  toData?: (document: unknown) => T;
  /** Each failure of the stream; once it ended (`willRetry` false) the query is refetched, and shows the error. */
  onError?: (error: LiveQueryError, willRetry: boolean) => void;
}

function restSource<T>({
  url,
  toData,
  onError,
  queryKey: _key,
  ...connection
}: LiveRestQueryOptions<T>): LiveSource<T> {
  return (handlers) =>
    liveQuery(url, {
      ...connection,
      signal: handlers.signal,
      onResult: (document) => handlers.onResult(toData ? toData(document) : (document as T)),
      onError: (error, willRetry) => {
        onError?.(error, willRetry);
        handlers.onError(error, willRetry);
      },
      onReconnect: handlers.onReconnect,
    });
}

/**
 * Keeps a TanStack query of a REST URL current from the server's live stream of that URL
 * (docs/live.md): each answer is written into the query's data, a reconnection refetches it.
 * Returns the function that stops it; holders of the same key share one stream.
 */
export function liveRestQuery<T = unknown>(queryClient: QueryClient, options: LiveRestQueryOptions<T>): () => void {
  return keepQueryLive(queryClient, options.queryKey, restSource(options));
}

/**
 * `liveRestQuery` while the component is mounted, beside the `useQuery` of the same key that reads
 * the URL; `enabled: false` follows nothing.
 */
export function useLiveRestQuery<T = unknown>({
  enabled,
  ...options
}: LiveRestQueryOptions<T> & { enabled?: boolean }): void {
  useLiveSource(options.queryKey, enabled === false ? undefined : restSource(options));
}
