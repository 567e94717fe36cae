import { REQUEST_ID_HEADER } from '../telemetry/telemetry.constants.js';
import { OPERATION_KEYS } from './document-security.js';
import type { OpenApiDocument } from './openapi.types.js';

/** The headers the module sets on answers of every route, as `components.headers`. */
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

const REQUEST_ID = { [REQUEST_ID_HEADER]: { $ref: '#/components/headers/RequestId' } };
const RETRY_AFTER = { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };

/** A response object the module answers itself (not a reference, not the HTTP server's own 431). */
function withAnswerHeaders(status: string, response: unknown): unknown {
  if (typeof response !== 'object' || response === null || '$ref' in response || status === '431') return response;
  const { headers } = response as { headers?: Record<string, unknown> };
  return { ...response, headers: { ...headers, ...REQUEST_ID, ...(status === '503' ? RETRY_AFTER : {}) } };
}

function mapResponses(responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, value]) => [status, withAnswerHeaders(status, value)]),
  );
}

/**
 * The document with the headers every answer of the module has: `X-Request-Id` on each response
 * (success and error), `Retry-After` on 503. Error components are named by status (`JsonApiError503`).
 */
export function withResponseHeaders(document: OpenApiDocument): OpenApiDocument {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, operation]) => {
          if (!OPERATION_KEYS.has(key)) return [key, operation];
          const { responses } = operation as { responses?: Record<string, unknown> };
          return [key, responses ? { ...(operation as object), responses: mapResponses(responses) } : operation];
        }),
      ),
    ]),
  );
  const responses = Object.fromEntries(
    Object.entries(document.components.responses ?? {}).map(([name, value]) => [
      name,
      withAnswerHeaders(/(\d{3})$/.exec(name)?.[1] ?? '', value),
    ]),
  );
  return {
    ...document,
    paths,
    components: { ...document.components, responses, headers: { ...document.components.headers, ...HEADERS } },
  };
}
