import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { PrismaClientLike } from '../../prisma/prisma-client-like.js';

/**
 * PostgreSQL's estimate of a table's rows, as its planner makes it: the density of the last
 * ANALYZE (`reltuples / relpages`) times the table's current pages. Undefined when there are no
 * statistics yet (never analyzed, or empty when analyzed): the caller counts exactly then, which is
 * cheap for a table that small. The table name goes in as a bound parameter (`to_regclass` reads it
 * as a quoted identifier on the connection's `search_path`); nothing of the request is in this SQL.
 */
export async function estimateTableRows(client: PrismaClientLike, model: ModelMeta): Promise<number | undefined> {
  const table = `"${(model.dbName ?? model.name).replaceAll('"', '""')}"`;
  const rows = (await client.$queryRaw`
    SELECT (reltuples / relpages * (pg_relation_size(oid) / current_setting('block_size')::int))::float8 AS estimate
    FROM pg_class WHERE oid = to_regclass(${table}) AND relpages > 0 AND reltuples >= 0`) as { estimate: number }[];
  const estimate = rows[0]?.estimate;
  return estimate === undefined || !Number.isFinite(estimate) ? undefined : Math.round(estimate);
}

/** What decides whether a planner estimate may answer a request. */
export interface EstimateScope {
  provider: string;
  /** Access policies, or a per-request client (`getPrisma`) whose extensions may filter rows. */
  rowsMayBeHidden: boolean;
  /** A filter, or the parent of a related collection, narrows the rows. */
  filtered: boolean;
}

/**
 * Estimates exist on PostgreSQL only (SQLite and MySQL keep no row statistics that stay current
 * without ANALYZE), over a whole table only (Prisma builds the SQL of a filtered list and offers
 * no EXPLAIN of it, and this module writes no SQL from client input), and only where every row
 * of the table is visible to the caller: over a table filtered by policies or extensions, the
 * table's size would tell a caller how many rows it may not see. Elsewhere the count is exact.
 */
export function estimationAllowed(scope: EstimateScope): boolean {
  return scope.provider === 'postgresql' && !scope.rowsMayBeHidden && !scope.filtered;
}
