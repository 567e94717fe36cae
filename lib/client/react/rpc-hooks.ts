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
import type { RpcClientError } from '../rpc-client.error.js';
import { asRpcPromise, wireArgs } from '../rpc-promise.js';
import { queryKeyOfCall, readRpcQueryKey, type RpcQueryKey } from './query-key.js';
import { modelsByClientName, modelsInArgs, mutatedModels } from './touched-models.js';

export interface RpcHooksOptions {
  /** The generated `modelMeta` (from the `nestjs-crud-api-generator` output): which models a call reaches. */
  modelMeta: DataModelMeta;
}

export type RpcQueryOptions<T> = Omit<UseQueryOptions<T, RpcClientError, T, RpcQueryKey>, 'queryKey' | 'queryFn'>;
export type RpcMutationOptions<T, Variables> = Omit<UseMutationOptions<T, RpcClientError, Variables>, 'mutationFn'>;

/**
 * TanStack Query hooks over calls of an RPC client. Queries are keyed by their call; a mutation
 * invalidates, once it succeeded, every query that reads a model the mutation may have changed.
 */
export function createRpcHooks({ modelMeta }: RpcHooksOptions) {
  const modelNames = modelsByClientName(modelMeta);
  const prismaName = (clientName: string) => modelNames.get(clientName) ?? clientName;

  /** A read (`client.post.findMany(args)`, any read operation, fluent calls too) as a query: typed by the call. */
  function useRpcQuery<T>(call: PromiseLike<T>, options?: RpcQueryOptions<T>): UseQueryResult<T, RpcClientError> {
    const rpc = asRpcPromise(call, 'useRpcQuery');
    return useQuery({ ...options, queryKey: queryKeyOfCall(rpc.call), queryFn: () => rpc.execute() });
  }

  /**
   * A write as a mutation: `useRpcMutation((title: string) => client.post.create({ data: { title, authorId } }))`.
   * On success the queries reading any model it reached (nested writes included) are invalidated.
   */
  function useRpcMutation<T, Variables = void>(
    build: (variables: Variables) => PromiseLike<T>,
    options?: RpcMutationOptions<T, Variables>,
  ): UseMutationResult<T, RpcClientError, Variables> {
    const queryClient = useQueryClient();
    return useMutation({
      ...options,
      mutationFn: async (variables: Variables) => {
        const rpc = asRpcPromise(build(variables), 'useRpcMutation');
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
