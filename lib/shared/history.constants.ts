// The public names of history and time travel on the HTTP interfaces (docs/history.md), shared by
// the interfaces that serve them, the OpenAPI documents that describe them and the browser client
// that sends them: this file imports nothing, so the client bundle may take it.

/** The last segment of the REST route of a resource's versions: `GET /:type/:id/history`. */
export const HISTORY_ROUTE = 'history';

/** The last segment of the REST route that puts a resource back to a version: `POST /:type/:id/history/:version/restore`. */
export const RESTORE_VERSION_ROUTE = 'restore';

/**
 * The query parameter of a REST read (and the argument of an RPC `findUnique`, `findFirst`,
 * `findMany` or `count`) that answers the rows as they were at an RFC 3339 time.
 */
export const AS_OF_PARAMETER = 'asOf';

/** The JSON:API type of a version resource: one recorded change of one row. */
export const VERSION_TYPE = 'versions';
