import { operationNames } from '../metadata/prisma-operations.js';
import { restOperationNames } from '../metadata/rest-operations.js';
import type { ApiInterface } from '../telemetry/request-telemetry.js';

/**
 * The writes (by interface and operation) that `If-Match` applies to: REST single resources and
 * relationships, RPC writes of one row named by a unique `where`. Any other write refuses it.
 */
export const CONDITIONAL_WRITES: Readonly<Record<ApiInterface, ReadonlySet<string>>> = {
  rest: restOperationNames((operation) => operation.ifMatch === true),
  rpc: operationNames((operation) => operation.ifMatch === true),
};

/**
 * The writes (by interface and operation) whose answer is the representation a read of what they
 * wrote answers, REST single resources and relationships, RPC writes of one row: they carry its `ETag`.
 */
export const TAGGED_WRITES: Readonly<Record<ApiInterface, ReadonlySet<string>>> = {
  rest: restOperationNames((operation) => operation.tagged === true),
  rpc: operationNames((operation) => operation.tagged === true),
};
