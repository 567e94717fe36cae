// TanStack Query bindings of the RPC client (`nestjs-crud-api/client/react`); @tanstack/react-query and react are optional peers.
export { liveRestQuery, type LiveRestQueryOptions, useLiveRestQuery } from './live-rest-query.js';
export { createRpcHooks, type RpcHooksOptions, type RpcMutationOptions, type RpcQueryOptions } from './rpc-hooks.js';
export { RPC_QUERY_KEY, rpcQueryKey, type RpcQueryKey, type RpcQueryKeyArgs } from './query-key.js';
