import type { ResolvedCrudApiOptions } from '../../crud-api-options.interface.js';
import { CrudApiError } from '../../filters/crud-api.error.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import { quoteInput } from '../../filters/quote-input.js';
import type { VisibleFields } from '../visible-fields.js';
import { assertJoinBudget } from './join-budget.js';
import { buildFilterWhere } from './parse-filter.js';
import { type Fieldsets, parseFields } from './parse-fields.js';
import { type IncludeTree, parseInclude } from './parse-include.js';
import { type Page, parsePage } from './parse-page.js';
import { parseQuery } from './parse-query.js';
import { buildOrderBy } from './parse-sort.js';

/** A request's query parameters as Prisma arguments and rendering choices. */
export interface ReadQuery {
  where?: Record<string, unknown>;
  orderBy: Record<string, unknown>[];
  page: Page;
  include: IncludeTree;
  fieldsets: Fieldsets;
  /** The query string as sent, for `links`. */
  search: string;
}

/**
 * Parses every query parameter of a request against the model it reads and the fields the caller
 * can see. `filter`, `sort` and `page` shape collections only: on a single resource they are 400.
 */
export function readQuery(
  fields: VisibleFields,
  options: ResolvedCrudApiOptions,
  model: ModelMeta,
  search: string,
  collection: boolean,
): ReadQuery {
  const raw = parseQuery(search, options.limits);
  assertJoinBudget(raw, options.limits);
  if (!collection) {
    const parameter = raw.filters[0]?.parameter ?? (raw.sort !== undefined ? 'sort' : Object.keys(raw.page).length ? 'page' : undefined);
    if (parameter) {
      throw new CrudApiError('invalid-query-parameter', `${quoteInput(parameter)} applies to collections only.`, { source: { parameter } });
    }
  }
  return {
    where: buildFilterWhere({ fields, idDivider: options.idDivider }, model, raw.filters),
    orderBy: buildOrderBy(fields, model, raw.sort, options.limits.maxFilterDepth),
    page: parsePage(raw.page, options.pageSize),
    include: parseInclude(fields, model, raw.include, options.limits),
    fieldsets: parseFields(fields, raw.fields),
    search,
  };
}
