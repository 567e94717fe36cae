import type { OffsetPage } from '../query/parse-page.js';

export interface PaginationLinks {
  first: string;
  /** Absent when the total is not counted exactly (`count` `estimated` or `none`) and on cursor pages. */
  last?: string;
  prev: string | null;
  next: string | null;
}

const PAGE_PARAMETERS = ['page[offset]', 'page[limit]', 'page[size]', 'page[after]', 'page[before]'];

/**
 * A link builder keeping every query parameter of the request but the pagination ones;
 * URLSearchParams percent-encodes the brackets (`page%5Blimit%5D`).
 */
function pageUrl(baseUrl: string, search: string): (page: Record<string, string | number | undefined>) => string {
  const kept = new URLSearchParams(search);
  for (const name of PAGE_PARAMETERS) kept.delete(name);
  return (page) => {
    const params = new URLSearchParams(kept);
    for (const [name, value] of Object.entries(page))
      if (value !== undefined) params.set(`page[${name}]`, String(value));
    const query = params.toString();
    return query ? `${baseUrl}?${query}` : baseUrl;
  };
}

/**
 * first/last/prev/next of an offset page. With an exact `total` every link is known; without one
 * (`count` `estimated` or `none`) there is no `last`, and `hasNext` (the page read one row more
 * than its limit) decides `next`.
 */
export function buildPaginationLinks(
  baseUrl: string,
  search: string,
  page: OffsetPage,
  total: number | undefined,
  hasNext = false,
): PaginationLinks {
  const url = pageUrl(baseUrl, search);
  const at = (offset: number) => url({ offset, limit: page.limit });
  const { offset, limit } = page;
  if (limit === undefined)
    return { first: at(0), ...(total === undefined ? {} : { last: at(0) }), prev: null, next: null };
  if (total === undefined) {
    return {
      first: at(0),
      prev: offset > 0 ? at(Math.max(0, offset - limit)) : null,
      next: hasNext ? at(offset + limit) : null,
    };
  }
  const lastOffset = total > 0 ? Math.floor((total - 1) / limit) * limit : 0;
  return {
    first: at(0),
    last: at(lastOffset),
    prev: offset > 0 ? at(Math.max(0, Math.min(offset - limit, lastOffset))) : null,
    next: offset + limit < total ? at(offset + limit) : null,
  };
}

/** Where a cursor page can go: the cursors of its first and last rows, when there are pages that way. */
export interface CursorExtent {
  /** Cursor of the page's first row when rows come before it. */
  before: string | null;
  /** Cursor of the page's last row when rows come after it. */
  after: string | null;
}

/** first/prev/next of a cursor page (JSON:API cursor pagination profile); `page[size]` is kept as the request gave it. */
export function buildCursorLinks(baseUrl: string, search: string, extent: CursorExtent): PaginationLinks {
  const url = pageUrl(baseUrl, search);
  const size = new URLSearchParams(search).get('page[size]') ?? undefined;
  return {
    first: url({ size }),
    prev: extent.before === null ? null : url({ size, before: extent.before }),
    next: extent.after === null ? null : url({ size, after: extent.after }),
  };
}
