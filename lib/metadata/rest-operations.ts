/**
 * The operations of the REST interface, by the name a request is scoped, logged and traced with
 * (the telemetry scope's `operation`), with what HTTP caching does for each. A plain data module.
 */

export interface RestOperation {
  readonly name: string;
  /** The Prisma operation it runs, for its cost against the rate limits; atomic requests: each of theirs. */
  readonly runs?: string;
  /** Whether `If-Match` applies (a write of one resource or relationship); other writes refuse it. */
  readonly ifMatch?: true;
  /** Whether a successful answer carries the `ETag` a read of what it wrote would. */
  readonly tagged?: true;
}

export const REST_OPERATIONS = {
  /** JSON:API Atomic Operations. */
  atomic: { name: 'atomic' },
  fetch: { name: 'fetch', runs: 'findUnique' },
  list: { name: 'list', runs: 'findMany' },
  create: { name: 'create', runs: 'create', tagged: true },
  update: { name: 'update', runs: 'update', ifMatch: true, tagged: true },
  delete: { name: 'delete', runs: 'delete', ifMatch: true },
  restore: { name: 'restore', runs: 'restore', ifMatch: true, tagged: true },
  /** A relationship's linkage, read. */
  relationship: { name: 'relationship', runs: 'findUnique' },
  relationshipAdd: { name: 'relationship.add', runs: 'update', ifMatch: true, tagged: true },
  relationshipReplace: { name: 'relationship.replace', runs: 'update', ifMatch: true, tagged: true },
  relationshipRemove: { name: 'relationship.remove', runs: 'update', ifMatch: true, tagged: true },
  /** The related resources of a relationship. */
  related: { name: 'related', runs: 'findMany' },
  /** A resource's recorded versions (`GET /:type/:id/history`). */
  history: { name: 'history', runs: 'history' },
  /** A resource put back to one of its versions (`POST /:type/:id/history/:version/restore`). */
  restoreVersion: { name: 'restoreVersion', runs: 'restoreVersion', ifMatch: true, tagged: true },
} as const satisfies Readonly<Record<string, RestOperation>>;

export type RestOperationName = (typeof REST_OPERATIONS)[keyof typeof REST_OPERATIONS]['name'];

/** The names of the REST operations that `test` holds for. */
export function restOperationNames(test: (operation: RestOperation) => boolean): ReadonlySet<string> {
  const operations: readonly RestOperation[] = Object.values(REST_OPERATIONS);
  return new Set(operations.filter(test).map((operation) => operation.name));
}
