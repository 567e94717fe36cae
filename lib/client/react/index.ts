// TanStack Query bindings of the RPC client (`nestjs-crud-api/client/react`); @tanstack/react-query and react are optional peers.
export { liveRestQuery, type LiveRestQueryOptions, useLiveRestQuery } from './live-rest-query.js';
export {
  createRpcHooks,
  type OfflineQueueState,
  type RpcHooksOptions,
  type RpcMutationOptions,
  type RpcQueryOptions,
} from './rpc-hooks.js';
export { rpcPersister } from './rpc-persister.js';
export { RPC_QUERY_KEY, rpcQueryKey, type RpcQueryKey, type RpcQueryKeyArgs } from './query-key.js';
// Types of `nestjs-crud-api/client` (and the generator's `modelMeta`) these bindings' signatures name;
// the classes themselves are imported from `nestjs-crud-api/client`, for `instanceof`.
export type { LiveQueryError, LiveQueryOptions } from '../live-query.js';
export type { RpcClientError, RpcErrorBody } from '../rpc-client.error.js';
export type { OfflineStore } from '../offline/offline-store.js';
export type { ConflictResolution, OfflineConflict, OfflineQueue, OfflineWrite } from '../offline/write-queue.js';
export type { RpcClientOptions, RpcHeaders } from '../rpc-client.types.js';
export type { DecimalConstructor } from '../../rpc/prisma-superjson-types.js';
/** The shape of the `modelMeta` export written by `nestjs-crud-api-generator`. */
export type {
  DataModelMeta,
  FieldMeta,
  ModelMeta,
  RelationMeta,
  ScalarType,
  UniqueConstraintMeta,
} from '../../metadata/model-meta.types.js';
