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
