import { CrudApiError } from '../../errors/crud-api.error.js';
import type { RawQuery } from './parse-query.js';

/** `page[offset]`/`page[limit]`: the specification's offset pagination. */
export interface OffsetPage {
  kind: 'offset';
  offset: number;
  /** Undefined when pagination is disabled (`pageSize: Infinity` and no `page[limit]`). */
  limit: number | undefined;
}

/**
 * `page[size]`/`page[after]`/`page[before]`: JSON:API's cursor pagination profile. The cursor is
 * still the opaque text here; it is decoded against the request's sort (`resolveCursor`).
 */
export interface CursorPage {
  kind: 'cursor';
  /** Undefined when pagination is disabled and no `page[size]` is given. */
  size: number | undefined;
  /** Which side of the cursor the page lies on; absent on the first page. */
  direction?: 'after' | 'before';
  cursor?: string;
}

export type Page = OffsetPage | CursorPage;

const OFFSET_KEYS = ['offset', 'limit'] as const;
const CURSOR_KEYS = ['size', 'after', 'before'] as const;

function bad(parameter: string, message: string): CrudApiError {
  return new CrudApiError('invalid-query-parameter', message, { source: { parameter } });
}

function integerParameter(name: string, raw: string, min: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw bad(name, `${name} must be an integer of at least ${min}.`);
  }
  return Number(raw);
}

/**
 * Offset or cursor pagination, never both. The offset limit defaults to and is capped by
 * `pageSize`; a `page[size]` above it is 400, as the cursor profile asks (its clients cannot tell a
 * capped page from a short one).
 */
export function parsePage(page: RawQuery['page'], pageSize: number): Page {
  const cursorKey = CURSOR_KEYS.find((key) => page[key] !== undefined);
  if (cursorKey === undefined) return parseOffsetPage(page, pageSize);
  const offsetKey = OFFSET_KEYS.find((key) => page[key] !== undefined);
  if (offsetKey !== undefined) {
    throw bad(
      `page[${offsetKey}]`,
      `page[${offsetKey}] cannot be combined with page[${cursorKey}]: use offset or cursor pagination.`,
    );
  }
  if (page.after !== undefined && page.before !== undefined) {
    throw bad('page[before]', 'page[after] and page[before] cannot be combined: range pagination is not supported.');
  }
  const size = page.size === undefined ? pageSize : integerParameter('page[size]', page.size, 1);
  if (size > pageSize) throw bad('page[size]', `page[size] must be at most ${pageSize}.`);
  const direction = page.after !== undefined ? 'after' : page.before !== undefined ? 'before' : undefined;
  return {
    kind: 'cursor',
    size: Number.isFinite(size) ? size : undefined,
    ...(direction ? { direction, cursor: page[direction] } : {}),
  };
}

function parseOffsetPage(page: RawQuery['page'], pageSize: number): OffsetPage {
  const offset = page.offset === undefined ? 0 : integerParameter('page[offset]', page.offset, 0);
  const requested = page.limit === undefined ? pageSize : integerParameter('page[limit]', page.limit, 1);
  const limit = Math.min(requested, pageSize);
  return { kind: 'offset', offset, limit: Number.isFinite(limit) ? limit : undefined };
}
