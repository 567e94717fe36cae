import type { Page } from '../query/parse-page.js';

export interface PaginationLinks {
  first: string;
  last: string;
  prev: string | null;
  next: string | null;
}

const PAGE_PARAMETERS = ['page[offset]', 'page[limit]'];

/**
 * first/last/prev/next for a collection of `total` items. Every other query parameter of the
 * request is kept; URLSearchParams percent-encodes the brackets (`page%5Blimit%5D`).
 */
export function buildPaginationLinks(baseUrl: string, search: string, page: Page, total: number): PaginationLinks {
  const kept = new URLSearchParams(search);
  for (const name of PAGE_PARAMETERS) kept.delete(name);
  const at = (offset: number) => {
    const params = new URLSearchParams(kept);
    params.set('page[offset]', String(offset));
    if (page.limit !== undefined) params.set('page[limit]', String(page.limit));
    return `${baseUrl}?${params}`;
  };
  const { offset, limit } = page;
  if (limit === undefined) return { first: at(0), last: at(0), prev: null, next: null };
  const lastOffset = total > 0 ? Math.floor((total - 1) / limit) * limit : 0;
  return {
    first: at(0),
    last: at(lastOffset),
    prev: offset > 0 ? at(Math.max(0, Math.min(offset - limit, lastOffset))) : null,
    next: offset + limit < total ? at(offset + limit) : null,
  };
}
