import { CrudApiError } from '../errors/crud-api.error.js';
import { quoteInput } from '../errors/quote-input.js';
import type { ApiRequest } from '../shared/api-request.js';
import { JSON_API_MEDIA_TYPE } from './json-api.constants.js';

interface MediaRange {
  type: string;
  /** Media type parameters, lowercased names; the `q` weight is kept apart. */
  params: Map<string, string>;
  q: number;
}

/** JSON:API lets clients add only these parameters to its media type. */
const ALLOWED_PARAMETERS = new Set(['ext', 'profile']);
/** Media ranges that accept our JSON responses without naming JSON:API. */
export const GENERIC_ACCEPTS: ReadonlySet<string> = new Set(['*/*', 'application/*', 'application/json']);
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

export function parseMediaRange(text: string): MediaRange {
  const [type = '', ...rest] = text.split(';');
  const params = new Map<string, string>();
  let q = 1;
  for (const part of rest) {
    const [name = '', value = ''] = part.split('=').map((s) => s.trim());
    if (!name) continue;
    const unquoted = value.replace(/^"(.*)"$/, '$1');
    if (name.toLowerCase() === 'q') q = Number(unquoted);
    else params.set(name.toLowerCase(), unquoted);
  }
  return { type: type.trim().toLowerCase(), params, q: Number.isNaN(q) ? 0 : q };
}

/** The JSON:API media type with only `profile` (we support no extension, so a non-empty `ext` is refused). */
function isPlainJsonApi(range: MediaRange): boolean {
  return [...range.params].every(([name, value]) => ALLOWED_PARAMETERS.has(name) && (name !== 'ext' || value === ''));
}

/**
 * 415 for a body that is neither JSON:API (without foreign parameters) nor `application/json`, and
 * for a request without `Content-Type` on a route that takes a document (`takesDocument`: by its
 * method, unless the route says otherwise).
 */
export function checkContentType(
  method: string,
  contentType: string | undefined,
  takesDocument = METHODS_WITH_BODY.has(method),
): void {
  if (contentType === undefined) {
    if (!takesDocument) return;
    throw new CrudApiError('unsupported-media-type', `Send the request body as ${JSON_API_MEDIA_TYPE}.`, {
      source: { header: 'Content-Type' },
    });
  }
  // The usual values take no parsing.
  if (contentType === JSON_API_MEDIA_TYPE || contentType === 'application/json') return;
  const range = parseMediaRange(contentType);
  if (range.type === 'application/json') return;
  if (range.type === JSON_API_MEDIA_TYPE && isPlainJsonApi(range)) return;
  const detail =
    range.type === JSON_API_MEDIA_TYPE
      ? `${JSON_API_MEDIA_TYPE} takes no parameters other than "profile" (and no unsupported "ext").`
      : `Content-Type ${quoteInput(range.type)} is not supported; use ${JSON_API_MEDIA_TYPE}.`;
  throw new CrudApiError('unsupported-media-type', detail, { source: { header: 'Content-Type' } });
}

/** 406 when `Accept` allows no JSON:API response (JSON:API instances all carry foreign parameters). */
export function checkAccept(accept: string | undefined): void {
  if (accept === undefined || accept === JSON_API_MEDIA_TYPE || GENERIC_ACCEPTS.has(accept) || !accept.trim()) return;
  const ranges = accept
    .split(',')
    .map(parseMediaRange)
    .filter((range) => range.q > 0);
  const jsonApi = ranges.filter((range) => range.type === JSON_API_MEDIA_TYPE);
  const acceptable = jsonApi.length
    ? jsonApi.some(isPlainJsonApi)
    : ranges.some((range) => GENERIC_ACCEPTS.has(range.type));
  if (!acceptable) {
    throw new CrudApiError(
      'not-acceptable',
      `Accept must allow ${JSON_API_MEDIA_TYPE} without parameters other than "profile".`,
      {
        source: { header: 'Accept' },
      },
    );
  }
}

/** Content negotiation of every REST request; `takesDocument` as for `checkContentType`. */
export function negotiate(req: Pick<ApiRequest, 'method' | 'headers'>, takesDocument?: boolean): void {
  checkAccept(req.headers.accept);
  checkContentType(req.method, req.headers['content-type'], takesDocument);
}
