/**
 * The documented catalogue of error codes. REST renders `code` and `title` in JSON:API error
 * objects; RPC renders `code` as `errorCode` in its error body. Codes are a public contract: add,
 * never rename.
 */
export const ERROR_CODES = {
  'invalid-request': { status: 400, title: 'Invalid request' },
  'invalid-query-parameter': { status: 400, title: 'Invalid query parameter' },
  'invalid-payload': { status: 400, title: 'Invalid request body' },
  'malformed-json': { status: 400, title: 'Malformed JSON' },
  'invalid-argument': { status: 400, title: 'Invalid query arguments' },
  'unknown-operation': { status: 400, title: 'Unknown operation' },
  'method-not-allowed': { status: 400, title: 'Method not allowed for this operation' },
  'constraint-violation': { status: 400, title: 'Constraint violation' },
  'data-layer-error': { status: 400, title: 'Data layer rejected the request' },
  'validation-failed': { status: 400, title: 'Validation failed' },
  'as-of-before-retention': { status: 400, title: 'Time before the history kept' },
  'as-of-unsupported': { status: 400, title: 'Read not answerable as of a past time' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  'client-id-not-allowed': { status: 403, title: 'Client-generated ids are not supported' },
  'rejected-by-policy': { status: 403, title: 'Rejected by access policy' },
  'unknown-type': { status: 404, title: 'Unknown resource type' },
  'unknown-relationship': { status: 404, title: 'Unknown relationship' },
  'not-found': { status: 404, title: 'Resource not found' },
  'not-acceptable': { status: 406, title: 'Not acceptable' },
  conflict: { status: 409, title: 'Conflict' },
  'idempotency-key-in-use': { status: 409, title: 'Idempotency key in use' },
  'precondition-failed': { status: 412, title: 'Precondition failed' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'idempotency-key-reused': { status: 422, title: 'Idempotency key reused' },
  'too-many-live-queries': { status: 429, title: 'Too many live queries' },
  'too-many-requests': { status: 429, title: 'Too many requests' },
  'http-error': { status: 500, title: 'HTTP error' },
  'internal-error': { status: 500, title: 'Internal server error' },
  'service-unavailable': { status: 503, title: 'Service temporarily unavailable' },
  'rate-limit-store-unavailable': { status: 503, title: 'Rate limit store unavailable' },
  'database-read-only': { status: 503, title: 'Database read-only' },
  'database-timeout': { status: 504, title: 'Database timeout' },
  'shutting-down': { status: 503, title: 'Server shutting down' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
