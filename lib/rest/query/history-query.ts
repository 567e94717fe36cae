import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { ResolvedCrudApiOptions } from '../../options/crud-api-options.interface.js';
import { asOfParameter, timeParameter } from './as-of-parameter.js';
import { type OffsetPage, parsePage } from './parse-page.js';
import { parseQuery } from './parse-query.js';
import { softDeleteParameters } from './soft-delete-parameters.js';

/** The filters of `GET /:type/:id/history`, by their selector (`filter[since]`). */
export const HISTORY_FILTERS = ['since', 'until', 'actor'] as const;
type HistoryFilter = (typeof HISTORY_FILTERS)[number];

/** The sorts of `GET /:type/:id/history`: by time, newest first by default. */
export const HISTORY_SORTS = ['-at', 'at'] as const;

/** The query of `GET /:type/:id/history`, as the history of a row takes it. */
export interface HistoryQuery {
  /** Versions recorded at or after this time. */
  since?: Date;
  /** Versions recorded at or before this time. */
  until?: Date;
  actor?: string;
  order: 'asc' | 'desc';
  page: OffsetPage;
  /** `withDeleted=true`: a deleted row of a soft-deleted type has its history too. */
  withDeleted: boolean;
  /** The query string as sent, for `links`. */
  search: string;
}

const bad = (parameter: string, message: string) =>
  new CrudApiError('invalid-query-parameter', message, { source: { parameter } });

/**
 * Parses the query of a row's history: `filter[since]`, `filter[until]` (RFC 3339), `filter[actor]`,
 * `sort=at|-at` and offset pages, with the grammar, defaults and limits of the collections' own;
 * `withDeleted` as on any read. Anything else (`include`, `fields`, cursor pages, `asOf`) is 400.
 */
export function historyQuery(
  search: string,
  options: Pick<ResolvedCrudApiOptions, 'limits' | 'pageSize'>,
): HistoryQuery {
  const raw = parseQuery(search, options.limits);
  const { withDeleted } = softDeleteParameters(raw.own, 'read');
  asOfParameter(raw, 'read');
  if (raw.include !== undefined) throw bad('include', 'Versions have no relationships to include.');
  const fieldset = raw.fields.keys().next();
  if (!fieldset.done) throw bad(`fields[${fieldset.value}]`, 'Versions are rendered whole: no sparse fieldsets.');
  const cursor = (['size', 'after', 'before'] as const).find((key) => raw.page[key] !== undefined);
  if (cursor) throw bad(`page[${cursor}]`, 'Versions are paged by page[offset] and page[limit] only.');
  const query: HistoryQuery = {
    order: 'desc',
    page: parsePage(raw.page, options.pageSize) as OffsetPage,
    withDeleted,
    search,
  };
  if (raw.sort !== undefined) {
    if (!(HISTORY_SORTS as readonly string[]).includes(raw.sort))
      throw bad('sort', `Versions sort by ${HISTORY_SORTS.map((sort) => `"${sort}"`).join(' or ')} only.`);
    query.order = raw.sort === 'at' ? 'asc' : 'desc';
  }
  const given = new Set<string>();
  for (const { parameter, selectors, operator, value } of raw.filters) {
    const name = selectors[0]!;
    if (selectors.length !== 1 || operator !== undefined || !(HISTORY_FILTERS as readonly string[]).includes(name))
      throw bad(
        parameter,
        `Unknown filter ${quoteInput(parameter)}: versions are filtered by ${HISTORY_FILTERS.map((f) => `filter[${f}]`).join(', ')}.`,
      );
    if (given.has(name)) throw bad(parameter, `${quoteInput(parameter)} is given more than once.`);
    given.add(name);
    const filter = name as HistoryFilter;
    if (filter === 'actor') query.actor = value;
    else query[filter] = timeParameter(parameter, value);
  }
  return query;
}
