import type { RecordedAnswer } from '../../data/idempotency/idempotency-records.js';
import { isReadMethod } from '../../shared/api-request.js';
import { mergeVary } from '../../shared/api-response.js';
import { entityTag, noneMatch } from '../../shared/http-caching.js';
import type { ApiInterface } from '../../telemetry/request-telemetry.js';
import type { CachingSettings } from './caching-settings.js';
import type { Exchange, Stage } from './exchange.js';

/**
 * A write's answer: when the interface tags it (`taggedWrites`), with the `ETag` of what it wrote
 * (a read of it answers that tag) and as the interface shapes it (`shapeWrite`).
 */
function taggedWrite(
  { scope, behaviour, request }: Exchange,
  { status, headers, payload }: RecordedAnswer & { payload: Buffer },
  caching: CachingSettings | undefined,
): RecordedAnswer {
  const tagged = (status === 200 || status === 201) && behaviour.taggedWrites.has(scope.operation ?? '');
  if (!tagged) return { status, headers, payload };
  const answer = { status, headers: { ...headers }, payload };
  if (caching) answer.headers.ETag = entityTag(payload);
  return behaviour.shapeWrite?.(answer, request) ?? answer;
}

/**
 * Adds the validators the answer of the stages after it carries: a successful read's `ETag`,
 * `Cache-Control` and `Vary`, or the 304 that replaces it (RFC 9110 §15.4.5: the same headers, no
 * body); a write's as `taggedWrite` says. Any other answer as it is.
 */
export function validators(caching: CachingSettings | undefined): Stage {
  const mergedVary = new Map<string, string>();
  /** The answer's own `Vary` (a collection's `Prefer`) merged with the interface's, each merge made once. */
  const varyOf = (own: string | undefined, kind: ApiInterface): string => {
    const base = caching!.vary[kind];
    if (own === undefined) return base;
    const key = `${kind}\n${own}`;
    let merged = mergedVary.get(key);
    if (merged === undefined) {
      merged = mergeVary(own, base);
      // The module's answers name few distinct values; a bound keeps an application's own out of reach.
      if (mergedVary.size < 64) mergedVary.set(key, merged);
    }
    return merged;
  };
  return async (exchange, next) => {
    const { status, headers, payload } = await next();
    if (payload === undefined) return { status, headers };
    const { request, scope } = exchange;
    if (!isReadMethod(request.method)) return taggedWrite(exchange, { status, headers, payload }, caching);
    if (!caching || status !== 200) return { status, headers, payload };
    const validating = {
      ETag: entityTag(payload),
      'Cache-Control': caching.cacheControl,
      Vary: varyOf(headers?.Vary, scope.interface),
    };
    if (!noneMatch(request.headers['if-none-match'], validating.ETag)) return { status: 304, headers: validating };
    return { status, headers: headers === undefined ? validating : { ...headers, ...validating }, payload };
  };
}
