import { CrudApiError } from '../../errors/crud-api.error.js';
import type { CrudApiLimits } from '../../options/crud-api-options.interface.js';
import type { RawQuery } from './parse-query.js';

/** Relationships a request walks through `filter` and `sort`: each step is a subquery or a join. */
export function countJoins(query: Pick<RawQuery, 'filters' | 'sort'>): number {
  const filterJoins = query.filters.reduce((sum, filter) => sum + filter.selectors.length - 1, 0);
  const sortKeys = query.sort ? query.sort.split(',') : [];
  return filterJoins + sortKeys.reduce((sum, key) => sum + key.split('.').length - 1, 0);
}

/**
 * Bounds the joins of `filter` and `sort` together by what the filters alone may reach
 * (`maxFilters` × (`maxFilterDepth` − 1), 60 at the defaults). Without it, each sort key through a
 * to-one relationship adds a join: SQLite gives up past 64 tables, other databases just slow down.
 */
export function assertJoinBudget(query: Pick<RawQuery, 'filters' | 'sort'>, limits: Required<CrudApiLimits>): void {
  const budget = limits.maxFilters * (limits.maxFilterDepth - 1);
  const joins = countJoins(query);
  if (joins <= budget) return;
  const parameter = query.sort ? 'sort' : 'filter';
  throw new CrudApiError(
    'invalid-query-parameter',
    `filter and sort together reach through ${joins} relationships; at most ${budget} are allowed.`,
    {
      source: { parameter },
    },
  );
}
