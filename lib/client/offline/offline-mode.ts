import type { SuperJSON } from 'superjson';

import type { ReadCache } from '../read-cache.js';
import type { RpcCall } from '../rpc-promise.js';
import type { RpcHttpRequest } from '../rpc-wire.js';

/** The model of a queued sequential transaction (`$transaction([...])`): its arguments are the batch's steps. */
export const TRANSACTION_MODEL = '$transaction';

/** A step of a queued batch, as the sequential transaction's route takes it. */
export interface BatchStep {
  model: string;
  op: string;
  args?: unknown;
}

/** What a request adds to the client's headers. */
export interface RequestHeaders {
  idempotencyKey?: string;
  ifMatch?: string;
}

/** An answer's decoded result, its `ETag` and its body. */
export interface Exchange {
  result: unknown;
  etag: string | null;
  text: string;
}

/** The sender of a client's requests. */
export type Sender = (request: RpcHttpRequest, headers?: RequestHeaders) => Promise<Exchange>;

/** What of the client the offline parts use. */
export interface ClientParts {
  /** The RPC base URL, without a trailing slash. */
  baseUrl: string;
  /** The headers of a request now (the `headers` option's). */
  headers: () => Promise<Headers>;
  send: Sender;
  cache: ReadCache | undefined;
  request: (call: RpcCall) => RpcHttpRequest;
  serializer: SuperJSON;
}

/** The offline parts of a client made with `offlineFirst` (created by `createRpcClient`). */
export interface OfflineParts {
  /** Sends reads once the kept answers are loaded, and keeps their answers. */
  sender: Sender;
  /** Queues a write (a batch's steps for `$transaction`) and resolves with its result once it is applied. */
  write(
    call: Pick<RpcCall, 'model' | 'operation' | 'withDeleted'> | 'batch',
    args: unknown,
    idempotencyKey: string,
  ): Promise<unknown>;
  /** Makes the queue `offlineQueue(client)`'s. */
  register(client: object): void;
}

/** The `offline` option's value (`offlineFirst(...)`): the offline parts it gives a client. */
export interface OfflineMode {
  attach(parts: ClientParts): OfflineParts;
}
