// The public names of soft delete on the HTTP interfaces (docs/soft-delete.md), shared by the
// interfaces that serve them, the OpenAPI documents that describe them and the browser client that
// sends them: this file imports nothing, so the client bundle may take it.

/**
 * The query parameter of a read (every REST GET, every RPC read operation) that includes the
 * deleted rows the caller's `readDeleted` rule permits, on every soft-deleted model the read
 * reaches; on a hard delete, it lets the delete purge a deleted row.
 */
export const WITH_DELETED_PARAMETER = 'withDeleted';

/** The query parameter of a REST delete of a soft-deleted type that removes the resource for good. */
export const HARD_DELETE_PARAMETER = 'hardDelete';

/** The value that sets `withDeleted` and `hardDelete` (`?withDeleted=true`). */
export const SOFT_DELETE_FLAG = 'true';

/** The last segment of the REST route that brings back a deleted resource: `POST /:type/:id/restore`. */
export const RESTORE_ROUTE = 'restore';

/** An RPC operation of soft-deleted models: its method and the status of its success. */
export interface SoftDeleteRpcOperation {
  methods: readonly string[];
  successStatus: number;
  /** Whether it takes `withDeleted`, as reads do. */
  withDeleted?: true;
}

/**
 * The RPC operations of soft-deleted models only. Both take `delete`'s arguments (a unique `where`,
 * `select`/`include`/`omit`) and answer the row: `restore` brings a deleted row back (arguments in
 * the body), `hardDelete` removes a row for good (arguments in `q`, as `delete`'s; a deleted row
 * with `withDeleted`).
 */
export const SOFT_DELETE_RPC_OPERATIONS: ReadonlyMap<string, SoftDeleteRpcOperation> = new Map([
  ['restore', { methods: ['POST'], successStatus: 200 }],
  ['hardDelete', { methods: ['DELETE'], successStatus: 200, withDeleted: true }],
]);

/** The operation whose arguments the soft-delete operations take. */
export const SOFT_DELETE_ARGS_OF = 'delete';
