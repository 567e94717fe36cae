import { hashKey, type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/** What a live source reports to the query it keeps current. */
export interface LiveSourceHandlers<T> {
  signal: AbortSignal;
  onResult: (data: T) => void;
  onError: (error: unknown, willRetry: boolean) => void;
  onReconnect: () => void;
}

/** Opens a live source (`liveCall`, `liveQuery`) and resolves once it ended. */
export type LiveSource<T> = (handlers: LiveSourceHandlers<T>) => Promise<void>;

interface Subscription {
  holders: number;
  controller: AbortController;
}

/** The open sources of each QueryClient, by query hash. */
const subscriptions = new WeakMap<QueryClient, Map<string, Subscription>>();

function subscriptionsOf(queryClient: QueryClient): Map<string, Subscription> {
  let byHash = subscriptions.get(queryClient);
  if (!byHash) subscriptions.set(queryClient, (byHash = new Map()));
  return byHash;
}

/** Opens a source that writes each result into the query's cached data. */
function openSubscription<T>(queryClient: QueryClient, queryKey: QueryKey, open: LiveSource<T>): Subscription {
  const subscription: Subscription = { holders: 0, controller: new AbortController() };
  const { signal } = subscription.controller;
  const filters = { queryKey, exact: true };
  let writes = Promise.resolve();
  void open({
    signal,
    // A fetch in flight may have read the rows before this result: cancelled, it cannot overwrite it.
    onResult: (data) => {
      writes = writes
        .then(() => queryClient.cancelQueries(filters))
        .then(() => void (signal.aborted || queryClient.setQueryData(queryKey, data)));
    },
    // Results may have been missed while the connection was down: the query is read again.
    onReconnect: () => void queryClient.invalidateQueries(filters),
    // Once the source ended the query is read again, and reports the error the server answers.
    onError: (_error, willRetry) => void (willRetry || queryClient.invalidateQueries(filters)),
  })
    // A source that failed instead of ending is treated as one that ended.
    .catch(() => void queryClient.invalidateQueries(filters))
    .finally(() => {
      const byHash = subscriptionsOf(queryClient);
      const hash = hashKey(queryKey);
      if (byHash.get(hash) === subscription) byHash.delete(hash);
    });
  return subscription;
}

/**
 * Keeps a query's cached data current from a live source, until the returned function releases it.
 * Holders of the same query key on the same QueryClient share one source: the first opens it, the
 * last release closes it. A source that ended (refused) is opened again by the next holder.
 */
export function keepQueryLive<T>(queryClient: QueryClient, queryKey: QueryKey, open: LiveSource<T>): () => void {
  const byHash = subscriptionsOf(queryClient);
  const hash = hashKey(queryKey);
  let subscription = byHash.get(hash);
  if (!subscription) byHash.set(hash, (subscription = openSubscription(queryClient, queryKey, open)));
  const held = subscription;
  held.holders++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--held.holders > 0) return;
    held.controller.abort();
    if (byHash.get(hash) === held) byHash.delete(hash);
  };
}

/**
 * Keeps the query current from `open` while the component is mounted (none when `open` is
 * undefined). The key's hash identifies the source: a render with an equal key keeps the one open.
 */
export function useLiveSource<T>(queryKey: QueryKey, open: LiveSource<T> | undefined): void {
  const queryClient = useQueryClient();
  const hash = hashKey(queryKey);
  const live = open !== undefined;
  useEffect(
    () => (open ? keepQueryLive(queryClient, queryKey, open) : undefined),
    [queryClient, hash, live], // not `open` nor `queryKey`: each render makes new ones of the same read
  );
}
