import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { ResolvedCrudApiOptions } from '../../options/crud-api-options.interface.js';
import type { Keyset } from '../pagination/collection-page.js';
import { cursorCodec } from '../pagination/cursor-codec.js';
import { keysetKeys, keysetOrderBy } from '../pagination/sort-keys.js';
import type { VisibleFields } from '../visible-fields.js';
import { asOfParameter } from './as-of-parameter.js';
import { assertJoinBudget } from './join-budget.js';
import { type Fieldsets, parseFields } from './parse-fields.js';
import { buildFilterWhere } from './parse-filter.js';
import { type IncludeTree, parseInclude } from './parse-include.js';
import { type CursorPage, type Page, parsePage } from './parse-page.js';
import { parseQuery } from './parse-query.js';
import { buildOrderBy } from './parse-sort.js';
import { type RouteKind, type SoftDeleteParameters, softDeleteParameters } from './soft-delete-parameters.js';

/** The route a query is parsed for: a collection (`filter`, `sort`, `page`) or one resource; what it does. */
export interface QueryRoute {
  collection: boolean;
  kind: RouteKind;
  /** A read of the type's own collection or resource, which takes `asOf` (`asOfParameter`). */
  past?: true;
}

/** A request's query parameters as Prisma arguments and rendering choices, and its soft-delete switches. */
export interface ReadQuery extends SoftDeleteParameters {
  where?: Record<string, unknown>;
  orderBy: Record<string, unknown>[];
  page: Page;
  /** The keys and decoded cursor of a cursor page (`page[size]`, `page[after]`, `page[before]`). */
  keyset?: Keyset;
  include: IncludeTree;
  fieldsets: Fieldsets;
  /** The query string as sent, for `links`. */
  search: string;
  /** `asOf`: read the rows as they were at this time. */
  asOf?: Date;
}

/**
 * Parses every query parameter of a request against the model it reads and the fields the caller
 * can see. `filter`, `sort` and `page` shape collections only: on a single resource they are 400;
 * the soft-delete parameters apply as the route's kind says (`softDeleteParameters`).
 */
export function readQuery(
  fields: VisibleFields,
  options: ResolvedCrudApiOptions,
  model: ModelMeta,
  search: string,
  route: QueryRoute,
): ReadQuery {
  const raw = parseQuery(search, options.limits);
  assertJoinBudget(raw, options.limits);
  const switches = softDeleteParameters(raw.own, route.kind);
  const asOf = asOfParameter(raw, route.kind !== 'read' ? 'write' : route.past ? 'past' : 'read');
  if (!route.collection) {
    const parameter =
      raw.filters[0]?.parameter ??
      (raw.sort !== undefined ? 'sort' : Object.keys(raw.page).length ? 'page' : undefined);
    if (parameter) {
      throw new CrudApiError('invalid-query-parameter', `${quoteInput(parameter)} applies to collections only.`, {
        source: { parameter },
      });
    }
  }
  const page = parsePage(raw.page, options.pageSize);
  const orderBy = buildOrderBy(fields, model, raw.sort, options.limits.maxFilterDepth);
  const keyset = page.kind === 'cursor' ? cursorKeyset(options, model, orderBy, page) : undefined;
  return {
    where: buildFilterWhere({ fields, idDivider: options.idDivider }, model, raw.filters),
    orderBy: keyset ? keysetOrderBy(keyset.keys) : orderBy,
    page,
    ...(keyset ? { keyset } : {}),
    include: parseInclude(fields, model, raw.include, options.limits),
    fieldsets: parseFields(fields, raw.fields),
    search,
    ...switches,
    ...(asOf ? { asOf } : {}),
  };
}

/**
 * The query frozen, its sort and page too: one that every request shares must not change. Its maps
 * (`include`, `fieldsets`) cannot be frozen; parsed from no parameters they are empty, and only read.
 */
export function frozenQuery(query: ReadQuery): ReadQuery {
  for (const entry of query.orderBy) Object.freeze(entry);
  Object.freeze(query.orderBy);
  Object.freeze(query.page);
  return Object.freeze(query);
}

/** A cursor page's keys from the sort, and its cursor decoded: a bad cursor is 400 before any query runs. */
function cursorKeyset(
  options: ResolvedCrudApiOptions,
  model: ModelMeta,
  orderBy: Record<string, unknown>[],
  page: CursorPage,
): Keyset {
  const keys = keysetKeys(model, orderBy);
  const codec = cursorCodec(model, keys, options.modelMeta.enums);
  const position = page.direction && codec.decode(page.cursor!, `page[${page.direction}]`);
  return { keys, codec, ...(position ? { position } : {}) };
}
