import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { CrudApiLimits } from '../../options/crud-api-options.interface.js';
import { type OwnParameter, readParameterName } from './parameter-name.js';

/** One `filter[a][b$op]=value` parameter, split but not yet checked against the model. */
export interface RawFilter {
  parameter: string;
  selectors: readonly string[];
  operator?: string;
  value: string;
}

/** The JSON:API query parameters of a request, by family. */
export interface RawQuery {
  filters: RawFilter[];
  sort?: string;
  include?: string;
  /** Offset pagination (`offset`, `limit`) or cursor pagination (`size`, `after`, `before`); `parsePage` checks they are not mixed. */
  page: Partial<Record<PageKey, string>>;
  /** `fields[type]` values by type name. */
  fields: Map<string, string>;
  /** The module's own implementation-specific parameters (`withDeleted`, `hardDelete`, `asOf`), as given. */
  own: Partial<Record<OwnParameter, string>>;
  /** The query string as sent (without `?`), kept for `links`. */
  search: string;
}

const PAGE_KEYS = new Set(['offset', 'limit', 'size', 'after', 'before'] as const);
export type PageKey = typeof PAGE_KEYS extends Set<infer K> ? K : never;

function badParameter(parameter: string, message: string): CrudApiError {
  return new CrudApiError('invalid-query-parameter', message, { source: { parameter } });
}

/**
 * Splits a query string into the JSON:API families and the module's own parameters, each name read
 * by `readParameterName`: other implementation-specific parameters are ignored (a cache buster
 * such as jQuery's `_=1700000000` passes), any other name is 400.
 */
export function parseQuery(search: string, limits: Required<CrudApiLimits>): RawQuery {
  const query: RawQuery = { filters: [], page: {}, fields: new Map(), own: {}, search };
  // Most reads of one resource send no query at all.
  if (search === '') return query;
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(search)) {
    const read = readParameterName(name);
    if (!read) throw badParameter(name, `Unknown query parameter ${quoteInput(name)}.`);
    if (read.kind === 'ignored') continue;
    if (read.kind === 'family' && read.family === 'filter') {
      query.filters.push(parseFilterKey(name, read.selectors, value, limits));
      continue;
    }
    if (seen.has(name)) throw badParameter(name, `Query parameter ${quoteInput(name)} is given more than once.`);
    seen.add(name);
    if (read.kind === 'own') query.own[read.name] = value;
    else readSingle(query, read.family, name, read.selectors, value);
  }
  if (query.filters.length > limits.maxFilters) {
    throw badParameter('filter', `At most ${limits.maxFilters} filter parameters are allowed.`);
  }
  return query;
}

function readSingle(query: RawQuery, family: string, name: string, selectors: readonly string[], value: string): void {
  if (family === 'sort' || family === 'include') {
    if (selectors.length) throw badParameter(name, `"${family}" takes no brackets.`);
    query[family] = value;
  } else if (family === 'page') {
    const key = selectors[0];
    if (selectors.length !== 1 || !PAGE_KEYS.has(key as PageKey)) {
      throw badParameter(
        name,
        `Unknown page parameter ${quoteInput(name)}; use page[offset] and page[limit], or page[size], page[after] and page[before].`,
      );
    }
    query.page[key as PageKey] = value;
  } else {
    if (selectors.length !== 1 || !selectors[0]) throw badParameter(name, `Use fields[type]=a,b.`);
    query.fields.set(selectors[0], value);
  }
}

function parseFilterKey(
  name: string,
  selectors: readonly string[],
  value: string,
  limits: Required<CrudApiLimits>,
): RawFilter {
  if (!selectors.length || selectors.some((s) => !s)) throw badParameter(name, `Use filter[field]=value.`);
  if (value.length > limits.maxFilterValueLength) {
    throw badParameter(name, `Filter values are limited to ${limits.maxFilterValueLength} characters.`);
  }
  // Each selector past the first is a join: bounded here, before any lookup or query is built.
  if (selectors.length > limits.maxFilterDepth) {
    throw badParameter(name, `Filter selectors are limited to a depth of ${limits.maxFilterDepth}.`);
  }
  const last = selectors.at(-1)!;
  const dollar = last.indexOf('$');
  if (dollar < 0) return { parameter: name, selectors, value };
  const operator = last.slice(dollar);
  return { parameter: name, selectors: [...selectors.slice(0, -1), last.slice(0, dollar)], operator, value };
}
