import { CrudApiError } from '../../filters/crud-api.error.js';
import type { RawQuery } from './parse-query.js';

export interface Page {
  offset: number;
  /** Undefined when pagination is disabled (`pageSize: Infinity` and no `page[limit]`). */
  limit: number | undefined;
}

function integerParameter(name: string, raw: string, min: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new CrudApiError('invalid-query-parameter', `${name} must be an integer of at least ${min}.`, { source: { parameter: name } });
  }
  return Number(raw);
}

/** `page[offset]`/`page[limit]`; the limit defaults to and is capped by `pageSize`. */
export function parsePage(page: RawQuery['page'], pageSize: number): Page {
  const offset = page.offset === undefined ? 0 : integerParameter('page[offset]', page.offset, 0);
  const requested = page.limit === undefined ? pageSize : integerParameter('page[limit]', page.limit, 1);
  const limit = Math.min(requested, pageSize);
  return { offset, limit: Number.isFinite(limit) ? limit : undefined };
}
