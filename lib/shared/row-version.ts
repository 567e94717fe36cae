// One version of a row as `history` answers it, shared by the server and the browser client's types:
// this file imports nothing, so the client may take it.

/** One recorded change of a row, as a caller reads it: the fields it may not read are left out. */
export interface RowVersion<Row = Record<string, unknown>> {
  /** The change's number (the history entry's id): versions of one row are numbered in their order. */
  version: number;
  operation: 'create' | 'update' | 'delete';
  /** When it was recorded, by the database's clock, just before it committed. */
  at: Date;
  actor: string | null;
  requestId: string | null;
  /** The fields the change set or changed (every field, for a create or a delete). */
  changed: string[];
  /** The row after the change; null for a delete. */
  data: Row | null;
}
