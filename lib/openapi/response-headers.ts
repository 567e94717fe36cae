import { REPLAYED_HEADER } from '../data/idempotency/idempotent-requests.js';
import { REQUEST_ID_HEADER } from '../telemetry/telemetry.constants.js';
import { mapOperations } from './document-security.js';
import type { OpenApiDocument } from './openapi.types.js';

/** The headers the module sets on its answers, as `components.headers`. */
const HEADERS = {
  RequestId: {
    description:
      'The request’s id: the `X-Request-Id` the request carried when well-formed (1-128 of `A-Za-z0-9._-`), else a new UUID. Also in the server’s log line of a failure.',
    schema: { type: 'string' },
  },
  RetryAfter: {
    description: 'Seconds after which the request may be retried.',
    schema: { type: 'string' },
  },
};

/** The state of the caller's rate limits (`rateLimits` option; draft-ietf-httpapi-ratelimit-headers). */
const RATE_LIMIT_HEADERS = {
  RateLimitPolicy: {
    description:
      'The rate limits that apply to the request: `"<name>";q=<units per window>;w=<window in seconds>`, one item each (docs/rate-limits.md).',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'What is left of each limit: `"<name>";r=<units remaining>;t=<seconds until the bucket is full>`, one item each.',
    schema: { type: 'string' },
  },
};

/** The validators of a successful GET (`caching` option). */
const CACHING_HEADERS = {
  ETag: {
    description: 'Strong entity tag of this representation: send it in `If-None-Match` to revalidate.',
    schema: { type: 'string' },
  },
  CacheControl: {
    description: 'How caches may keep the answer (`caching.cacheControl`; default `private, no-cache`).',
    schema: { type: 'string' },
  },
};

/** The `If-Match` of a conditional write: 412 unless the resource still has one of the tags. */
export const IF_MATCH = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'Entity tags (from a read’s or a write’s ETag) the resource must still have: 412 precondition-failed otherwise, nothing written.',
  schema: { type: 'string' },
};

/** The `ETag` of a write's answer: the tag a read of what it wrote answers. */
export const WRITTEN_ETAG = {
  ETag: {
    description: 'Entity tag of the written representation (with `caching` on): send it in If-Match to write again.',
    schema: { type: 'string' },
  },
};

/** `Prefer: return=…` of a REST write. */
export const PREFER_RETURN = {
  name: 'Prefer',
  in: 'header',
  required: false,
  description:
    'return=minimal: 204 with no body (Location and ETag kept); return=representation: the document. Preference-Applied says which.',
  schema: { type: 'string' },
};

/** The answer of a REST write sent with `Prefer: return=minimal`. */
export function minimalAnswer(location: boolean): Record<string, unknown> {
  return {
    description: 'Done, with no body (Prefer: return=minimal)',
    headers: {
      ...(location ? { Location: { required: true, schema: { type: 'string' } } } : {}),
      ...WRITTEN_ETAG,
      'Preference-Applied': { schema: { type: 'string' } },
    },
  };
}

const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'Entity tags of representations the client holds: 304 Not Modified when the current one is among them.',
  schema: { type: 'string' },
};

/** The `Idempotency-Key` of a write (`idempotency` option). */
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A key of the client’s (a UUID, sent as a string: "…") that makes the write safe to retry: it runs once, and a retry with the same key and request gets the stored answer with Idempotent-Replayed: true. 422 idempotency-key-reused for another request with the key, 409 idempotency-key-in-use while its first request runs.',
  schema: { type: 'string', maxLength: 257 },
};

const IDEMPOTENCY_HEADERS = {
  IdempotentReplayed: {
    description: '`true` when the answer is the stored one of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const WRITE_METHODS: ReadonlySet<string> = new Set(['post', 'put', 'patch', 'delete']);

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const REQUEST_ID = { [REQUEST_ID_HEADER]: ref('RequestId') };
const RETRY_AFTER = { 'Retry-After': ref('RetryAfter') };
const VALIDATORS = { ETag: ref('ETag'), 'Cache-Control': ref('CacheControl') };

const NOT_MODIFIED = {
  description: 'Not modified: the representation still has the entity tag the client sent (no body).',
  headers: { ...VALIDATORS, Vary: { schema: { type: 'string' } }, ...REQUEST_ID },
};

/** What the module's answers carry besides their own headers, by option. */
interface AnswerFeatures {
  caching: boolean;
  idempotency: boolean;
  rateLimits: boolean;
}

const RATE_LIMITS = { 'RateLimit-Policy': ref('RateLimitPolicy'), RateLimit: ref('RateLimit') };

/** A response object the module answers itself (not a reference, not the HTTP server's own 431). */
function withAnswerHeaders(
  status: string,
  response: unknown,
  rateLimits: boolean,
  extra: Record<string, unknown> = {},
): unknown {
  if (typeof response !== 'object' || response === null || '$ref' in response || status === '431') return response;
  const { headers } = response as { headers?: Record<string, unknown> };
  const retries = status === '503' || (rateLimits && status === '429');
  const own = { ...REQUEST_ID, ...(retries ? RETRY_AFTER : {}), ...(rateLimits ? RATE_LIMITS : {}), ...extra };
  return { ...response, headers: { ...headers, ...own } };
}

/**
 * An operation with the headers of its answers; a GET with `If-None-Match` and its 304 when
 * caching; a write with `Idempotency-Key` and its successes' `Idempotent-Replayed` when idempotent.
 */
function withOperationHeaders(method: string, operation: Record<string, unknown>, features: AnswerFeatures): unknown {
  const conditional = features.caching && method === 'get';
  const idempotent = features.idempotency && WRITE_METHODS.has(method);
  const extra = (status: string) =>
    conditional && status === '200'
      ? VALIDATORS
      : idempotent && status.startsWith('2')
        ? { [REPLAYED_HEADER]: ref('IdempotentReplayed') }
        : undefined;
  const responses = Object.fromEntries(
    Object.entries((operation.responses ?? {}) as Record<string, unknown>).map(([status, value]) => [
      status,
      withAnswerHeaders(status, value, features.rateLimits, extra(status)),
    ]),
  );
  const parameters = (operation.parameters as unknown[] | undefined) ?? [];
  if (idempotent) return { ...operation, parameters: [...parameters, IDEMPOTENCY_KEY], responses };
  if (!conditional) return { ...operation, responses };
  return { ...operation, parameters: [...parameters, IF_NONE_MATCH], responses: { ...responses, 304: NOT_MODIFIED } };
}

/**
 * The document with the headers of the module's answers: `X-Request-Id` on each (success and
 * error), `Retry-After` on 503; with `caching`, `ETag` and `Cache-Control` on successful GETs,
 * their `If-None-Match` and 304; with `idempotency`, the writes' `Idempotency-Key` and
 * `Idempotent-Replayed`. Error components are named by status (`JsonApiError503`).
 */
export function withResponseHeaders(document: OpenApiDocument, features: AnswerFeatures): OpenApiDocument {
  const paths = mapOperations(document.paths, (method, operation) => withOperationHeaders(method, operation, features));
  const responses = Object.fromEntries(
    Object.entries(document.components.responses ?? {}).map(([name, value]) => [
      name,
      withAnswerHeaders(/(\d{3})$/.exec(name)?.[1] ?? '', value, features.rateLimits),
    ]),
  );
  return {
    ...document,
    paths,
    components: {
      ...document.components,
      responses,
      headers: {
        ...document.components.headers,
        ...HEADERS,
        ...(features.caching ? CACHING_HEADERS : {}),
        ...(features.idempotency ? IDEMPOTENCY_HEADERS : {}),
        ...(features.rateLimits ? RATE_LIMIT_HEADERS : {}),
      },
    },
  };
}
