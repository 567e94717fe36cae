/**
 * The operations of the REST interface, by the name a request is scoped, logged and traced with
 * (the telemetry scope's `operation`), with what HTTP caching does for each. A plain data module.
 */

export interface RestOperation {
  readonly name: string;
  /** Whether `If-Match` applies (a write of one resource or relationship); other writes refuse it. */
  readonly ifMatch?: true;
  /** Whether a successful answer carries the `ETag` a read of what it wrote would. */
  readonly tagged?: true;
}

export const REST_OPERATIONS = {
  /** JSON:API Atomic Operations. */
  atomic: { name: 'atomic' },
  fetch: { name: 'fetch' },
  list: { name: 'list' },
  create: { name: 'create', tagged: true },
  update: { name: 'update', ifMatch: true, tagged: true },
  delete: { name: 'delete', ifMatch: true },
  restore: { name: 'restore', ifMatch: true, tagged: true },
  /** A relationship's linkage, read. */
  relationship: { name: 'relationship' },
  relationshipAdd: { name: 'relationship.add', ifMatch: true, tagged: true },
  relationshipReplace: { name: 'relationship.replace', ifMatch: true, tagged: true },
  relationshipRemove: { name: 'relationship.remove', ifMatch: true, tagged: true },
  /** The related resources of a relationship. */
  related: { name: 'related' },
  /** A resource's recorded versions (`GET /:type/:id/history`). */
  history: { name: 'history' },
  /** A resource put back to one of its versions (`POST /:type/:id/history/:version/restore`). */
  restoreVersion: { name: 'restoreVersion', ifMatch: true, tagged: true },
} as const satisfies Readonly<Record<string, RestOperation>>;

export type RestOperationName = (typeof REST_OPERATIONS)[keyof typeof REST_OPERATIONS]['name'];

/** The names of the REST operations that `test` holds for. */
export function restOperationNames(test: (operation: RestOperation) => boolean): ReadonlySet<string> {
  const operations: readonly RestOperation[] = Object.values(REST_OPERATIONS);
  return new Set(operations.filter(test).map((operation) => operation.name));
}
