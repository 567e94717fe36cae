import {
  useMutation,
  type UseMutationOptions,
  type UseMutationResult,
  useQuery,
  useQueryClient,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';

import type { DataModelMeta } from '../../metadata/model-meta.types.js';
import { modelsByClientName } from '../model-names.js';
import type { RpcClientError } from '../rpc-client.error.js';
import { asRpcPromise, liveCall, type RpcPromise, wireArgs } from '../rpc-promise.js';
import { useLiveSource } from './live-cache.js';
import { queryKeyOfCall, readRpcQueryKey, type RpcQueryKey } from './query-key.js';
import { modelsInArgs, mutatedModels } from './touched-models.js';

export interface RpcHooksOptions {
  /** The generated `modelMeta` (from the `nestjs-crud-api-generator` output): which models a call reaches. */
  modelMeta: DataModelMeta;
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
export function createRpcHooks({ modelMeta }: RpcHooksOptions) {
  const modelNames = modelsByClientName(modelMeta);
  const prismaName = (clientName: string) => modelNames.get(clientName) ?? clientName;
  const builtCalls = new WeakMap<object, RpcPromise>();

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
      queryFn: () => rpc.execute(),
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
      ...options,
      mutationFn: async (variables: Variables, attempt?: object) => {
        const rpc = builtCall(attempt, () => asRpcPromise(build(variables), 'useRpcMutation'));
        const result = await rpc.execute();
        const touched = mutatedModels(modelMeta, prismaName(rpc.call.model), rpc.call.operation, wireArgs(rpc.call));
        await queryClient.invalidateQueries({
          predicate: ({ queryKey }) => {
            const read = readRpcQueryKey(queryKey);
            return (
              read !== undefined &&
              [...modelsInArgs(modelMeta, prismaName(read.model), read.args)].some((model) => touched.has(model))
            );
          },
        });
        return result;
      },
    });
  }

  return { useRpcQuery, useRpcMutation };
}
