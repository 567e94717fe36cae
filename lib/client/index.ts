// The browser-safe client entry (`nestjs-crud-api/client`): no Nest, no Prisma runtime, no Node built-ins.
export { createRpcClient } from './create-rpc-client.js';
export { backoffDelay, liveQuery, LiveQueryError, type LiveQueryOptions } from './live-query.js';
export { RpcClientError, type RpcErrorBody } from './rpc-client.error.js';
export { offlineFirst, offlineQueue, type RpcOfflineOptions } from './offline/offline-client.js';
export type { OfflineMode } from './offline/offline-mode.js';
export { indexedDbStore, memoryStore, type OfflineStore } from './offline/offline-store.js';
export type {
  ConflictResolution,
  OfflineConflict,
  OfflineEvent,
  OfflineWrite,
  OfflineQueue,
} from './offline/write-queue.js';
export { type LiveCallOptions, liveCall, withDeleted, withIdempotencyKey } from './rpc-promise.js';
export type {
  RpcClient,
  RpcClientOptions,
  /** The `headers` option's value, or what its function answers: anything `new Headers()` takes. */
  RpcHeaders,
  RpcModelClient,
  RpcModelName,
  RpcOperationName,
  RpcHistoryOperationName,
  RpcSoftDeleteOperationName,
  RpcSoftDeleteOperations,
  RpcTransactionOptions,
  RpcTransactionResult,
  /** The rules of the model behind a client property: `RpcModelClient`'s second parameter. */
  RulesOfModel,
} from './rpc-client.types.js';
/** History's operations and the reads with `asOf` (docs/history.md), and one version of a row as `history` answers it. */
export type {
  RpcAsOfArgs,
  RpcAsOfReads,
  RpcHistoryArgs,
  RpcHistoryOperations,
  RpcInstant,
  RpcRestoreVersionArgs,
} from './history.types.js';
export type { RowVersion } from '../shared/row-version.js';
/** `createRpcClient`'s and `RpcClient`'s rules when none are given: Prisma's inputs as they are. */
export type { NoRules } from './rules-data.types.js';
export type { DecimalConstructor } from '../rpc/prisma-superjson-types.js';
