import {
  type QueryClient,
  useMutation,
  type UseMutationOptions,
  type UseMutationResult,
  useQuery,
  useQueryClient,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import type { DataModelMeta } from '../../metadata/model-meta.types.js';
import { modelsByClientName } from '../model-names.js';
import type { OfflineConflict, OfflineQueue, OfflineWrite } from '../offline/write-queue.js';
import type { RpcClientError } from '../rpc-client.error.js';
import { asRpcPromise, liveCall, type RpcPromise, wireArgs } from '../rpc-promise.js';
import { useLiveSource } from './live-cache.js';
import { type CachedRead, stepsOf, withQueuedWrite } from './optimistic.js';
import { queryKeyOfCall, readRpcQueryKey, type RpcQueryKey, type RpcQueryKeyArgs } from './query-key.js';
import { modelsInArgs, mutatedModels } from './touched-models.js';

export interface RpcHooksOptions {
  /** The generated `modelMeta` (from the `nestjs-crud-api-generator` output): which models a call reaches. */
  modelMeta: DataModelMeta;
  /**
   * An offline client's queue (`offlineQueue(client)`) and the application's QueryClient
   * (docs/offline.md): a queued write shows at once in the cached reads it changes, stays in them
   * across refetches until it is applied, and the reads it touched are refetched once it is applied
   * or refused (which rolls the change back). Mutations run offline (`networkMode: 'always'`),
   * so that the queue stores them.
   */
  offline?: { queue: OfflineQueue; queryClient: QueryClient };
}

/** What `useOfflineQueue` answers: the queue's writes and the conflict holding it, current as it changes. */
export interface OfflineQueueState {
  pending: OfflineWrite[];
  conflict: OfflineConflict | undefined;
  resolve: OfflineQueue['resolve'];
}

export type RpcQueryOptions<T> = Omit<UseQueryOptions<T, RpcClientError, T, RpcQueryKey>, 'queryKey' | 'queryFn'> & {
  /**
   * Keeps the query current from the server's live stream of the call while the component is
   * mounted (docs/live.md); `staleTime` then defaults to `Infinity`, the stream being the refresh.
   */
  live?: boolean;
};
export type RpcMutationOptions<T, Variables> = Omit<UseMutationOptions<T, RpcClientError, Variables>, 'mutationFn'>;

/**
 * TanStack Query hooks over calls of an RPC client. Queries are keyed by their call; a mutation
 * invalidates, once it succeeded, every query that reads a model the mutation may have changed.
 */
export function createRpcHooks({ modelMeta, offline }: RpcHooksOptions) {
  const modelNames = modelsByClientName(modelMeta);
  const prismaName = (clientName: string) => modelNames.get(clientName) ?? clientName;
  const builtCalls = new WeakMap<object, RpcPromise>();

  /** The models a write may have changed (a batch: its steps'). */
  const touchedBy = (write: Pick<OfflineWrite, 'model' | 'operation' | 'args'>): Set<string> =>
    new Set(
      stepsOf(write).flatMap((step) => [
        ...mutatedModels(modelMeta, prismaName(step.model), step.operation, step.args),
      ]),
    );

  /** Refetches every query reading a model in `touched`. */
  const invalidate = (queryClient: QueryClient, touched: ReadonlySet<string>) =>
    queryClient.invalidateQueries({
      predicate: ({ queryKey }) => {
        const read = readRpcQueryKey(queryKey);
        return (
          read !== undefined &&
          [...modelsInArgs(modelMeta, prismaName(read.model), read.args)].some((model) => touched.has(model))
        );
      },
    });

  /** A hooks' query key as the optimistic changes read it. */
  const cachedRead = (key: RpcQueryKey): CachedRead => {
    const { args, fluent } = key[3] as RpcQueryKeyArgs;
    return { model: key[1], operation: key[2], args, fluent: fluent !== undefined };
  };
  const withWrite = (key: RpcQueryKey, data: unknown, write: OfflineWrite) =>
    withQueuedWrite(modelMeta, prismaName, cachedRead(key), data, write);

  if (offline) {
    const { queue, queryClient } = offline;
    queue.subscribe((event) => {
      if (event.type === 'queued') {
        for (const query of queryClient
          .getQueryCache()
          .findAll({ predicate: ({ queryKey }) => readRpcQueryKey(queryKey) !== undefined })) {
          if (query.state.data === undefined) continue;
          queryClient.setQueryData(
            query.queryKey,
            withWrite(query.queryKey as RpcQueryKey, query.state.data, event.write),
          );
        }
      } else if (event.type === 'applied' || event.type === 'refused') {
        void invalidate(queryClient, touchedBy(event.write));
      }
    });
  }

  /** A read's answer with the writes still queued applied, as it will read once they are. */
  const withPending = (key: RpcQueryKey, data: unknown): unknown =>
    offline ? offline.queue.pending.reduce((result, write) => withWrite(key, result, write), data) : data;

  /**
   * The call of one `mutate()`: built on its first attempt, then the same on TanStack Query's
   * retries, so they send the same `Idempotency-Key`. TanStack Query (5.89 and later) passes every
   * attempt of one `mutate()` the same context object and a new `mutate()` a new one; without it
   * each attempt builds a new call.
   */
  function builtCall<T>(attempt: object | undefined, build: () => RpcPromise<T>): RpcPromise<T> {
    if (attempt === undefined) return build();
    let rpc = builtCalls.get(attempt) as RpcPromise<T> | undefined;
    if (!rpc) builtCalls.set(attempt, (rpc = build()));
    return rpc;
  }

  /**
   * A read (`client.post.findMany(args)`, any read operation, fluent calls too) as a query: typed by
   * the call. With `live: true` the server's live stream of the call keeps it current.
   */
  function useRpcQuery<T>(call: PromiseLike<T>, options?: RpcQueryOptions<T>): UseQueryResult<T, RpcClientError> {
    const rpc = asRpcPromise(call, 'useRpcQuery');
    const { live = false, ...queryOptions } = options ?? {};
    const queryKey = queryKeyOfCall(rpc.call);
    const following = live && queryOptions.enabled !== false;
    useLiveSource<T>(queryKey, following ? (handlers) => liveCall(rpc, handlers) : undefined);
    return useQuery({
      ...(live ? { staleTime: Infinity } : {}),
      ...queryOptions,
      queryKey,
      queryFn: async () => withPending(queryKey, await rpc.execute()) as T,
    });
  }

  /**
   * A write as a mutation: `useRpcMutation((title: string) => client.post.create({ data: { title, authorId } }))`.
   * On success the queries reading any model it reached (nested writes included) are invalidated.
   * Each `mutate()` sends one `Idempotency-Key`, the same on the mutation's retries (`retry`).
   */
  function useRpcMutation<T, Variables = void>(
    build: (variables: Variables) => PromiseLike<T>,
    options?: RpcMutationOptions<T, Variables>,
  ): UseMutationResult<T, RpcClientError, Variables> {
    const queryClient = useQueryClient();
    return useMutation({
      // Offline, the queue keeps the write: TanStack Query must hand it over rather than pause it.
      ...(offline ? { networkMode: 'always' as const } : {}),
      ...options,
      mutationFn: async (variables: Variables, attempt?: object) => {
        const rpc = builtCall(attempt, () => asRpcPromise(build(variables), 'useRpcMutation'));
        const result = await rpc.execute();
        // An offline client's queue refetches once the write is applied.
        if (!offline) await invalidate(queryClient, touchedBy({ ...rpc.call, args: wireArgs(rpc.call) }));
        return result;
      },
    });
  }

  /** The offline queue's writes and the conflict holding it (`resolve` ends it), rendered again as they change. */
  function useOfflineQueue(): OfflineQueueState {
    if (!offline) throw new TypeError('useOfflineQueue needs the offline option of createRpcHooks.');
    const { queue } = offline;
    const [, setChanges] = useState(0);
    useEffect(() => {
      const changed = () => setChanges((count) => count + 1);
      // What a reload restores shows once the queue has read its store.
      void queue.ready.then(changed);
      return queue.subscribe(changed);
    }, [queue]);
    return {
      pending: queue.pending,
      conflict: queue.conflict,
      resolve: (key, resolution) => queue.resolve(key, resolution),
    };
  }

  return { useRpcQuery, useRpcMutation, useOfflineQueue };
}
