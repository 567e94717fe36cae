import { CrudApiError } from '../../errors/crud-api.error.js';
import type { ApiRequest } from '../../shared/api-request.js';
import { GENERIC_ACCEPTS, parseMediaRange } from '../content-negotiation.js';
import { JSON_API_MEDIA_TYPE } from '../json-api.constants.js';
import { ATOMIC_EXTENSION, ATOMIC_MEDIA_TYPE } from './atomic.constants.js';

type MediaRange = ReturnType<typeof parseMediaRange>;

/** JSON:API with only `ext`/`profile`, and no extension but the atomic one (`ext` is a space-separated URI list). */
function isAtomicCapable(range: MediaRange, requireAtomic: boolean): boolean {
  if (
    range.type !== JSON_API_MEDIA_TYPE ||
    [...range.params.keys()].some((name) => name !== 'ext' && name !== 'profile')
  )
    return false;
  const extensions = (range.params.get('ext') ?? '').split(/\s+/).filter(Boolean);
  if (extensions.some((uri) => uri !== ATOMIC_EXTENSION)) return false;
  return !requireAtomic || extensions.includes(ATOMIC_EXTENSION);
}

/**
 * JSON:API 1.1 content negotiation of an atomic request: the body must be JSON:API with the atomic
 * extension in `ext` (415 otherwise, or with another extension); `Accept` must allow an answer in it
 * (406 when every JSON:API range it lists has a foreign parameter or an unsupported extension).
 */
export function negotiateAtomic(req: Pick<ApiRequest, 'headers'>): void {
  const contentType = req.headers['content-type'];
  if (!contentType || !isAtomicCapable(parseMediaRange(contentType), true)) {
    throw new CrudApiError('unsupported-media-type', `Send atomic operations as ${ATOMIC_MEDIA_TYPE}.`, {
      source: { header: 'Content-Type' },
    });
  }
  const accept = req.headers.accept;
  if (!accept?.trim()) return;
  const ranges = accept
    .split(',')
    .map(parseMediaRange)
    .filter((range) => range.q > 0);
  const jsonApi = ranges.filter((range) => range.type === JSON_API_MEDIA_TYPE);
  const acceptable = jsonApi.length
    ? jsonApi.some((range) => isAtomicCapable(range, false))
    : ranges.some((range) => GENERIC_ACCEPTS.has(range.type));
  if (!acceptable)
    throw new CrudApiError('not-acceptable', `Accept must allow ${ATOMIC_MEDIA_TYPE}.`, {
      source: { header: 'Accept' },
    });
}
