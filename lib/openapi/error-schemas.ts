import { ERROR_CODES } from '../errors/error-codes.js';
import { DATABASE_ERROR_MAPPINGS, DEFAULT_PRISMA_ERROR_MAP } from '../filters/prisma-error-map.js';
import type { PrismaErrorMapping } from '../options/crud-api-options.interface.js';
import { POLICY_REASONS } from '../policies/policy.error.js';
import type { JsonSchema } from './openapi.types.js';

/** Every status an error can be answered with: the catalogue's and the (merged) Prisma error map's. */
export function errorStatuses(prismaErrorMap: Readonly<Record<string, PrismaErrorMapping>> = {}): number[] {
  const statuses = [
    ...Object.values(ERROR_CODES),
    ...Object.values(DEFAULT_PRISMA_ERROR_MAP),
    ...DATABASE_ERROR_MAPPINGS,
    ...Object.values(prismaErrorMap),
  ].map((entry) => entry.status);
  return [...new Set(statuses)].sort((a, b) => a - b);
}

const ERROR_CODE_LIST = Object.keys(ERROR_CODES);

/** `reason` of a policy refusal, in both interfaces' error bodies. */
const POLICY_REASON = {
  type: 'string',
  enum: Object.values(POLICY_REASONS),
  description:
    'Why an access policy refused (code rejected-by-policy): ACCESS_POLICY_VIOLATION, the rules do not permit the operation; RESULT_NOT_READABLE, the write stands but the read rule hides its result.',
};

/** The JSON:API error document of `rest/rest-errors.ts` (`renderJsonApiError`). */
export const JSON_API_ERROR_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  JsonApiError: {
    type: 'object',
    required: ['status', 'code', 'title', 'detail'],
    additionalProperties: false,
    properties: {
      status: { type: 'string', pattern: '^[1-5]\\d\\d$', description: 'The HTTP status, as a string.' },
      code: {
        type: 'string',
        description: `What went wrong, as a stable code for programs to branch on (title and detail are for people): ${ERROR_CODE_LIST.join(', ')}.`,
      },
      title: { type: 'string' },
      detail: { type: 'string' },
      source: {
        type: 'object',
        additionalProperties: false,
        properties: {
          pointer: { type: 'string', description: 'JSON Pointer into the request document.' },
          parameter: { type: 'string', description: 'The query parameter at fault.' },
          header: { type: 'string' },
        },
      },
      meta: {
        type: 'object',
        additionalProperties: false,
        properties: {
          reason: POLICY_REASON,
          prismaCode: { type: 'string', description: 'The Prisma error code behind the error.' },
          issue: {
            type: 'string',
            description: 'validation-failed: the code of this issue (`invalid`, or the validator’s own).',
          },
        },
      },
    },
  },
  JsonApiErrorDocument: {
    type: 'object',
    required: ['errors'],
    additionalProperties: false,
    properties: {
      links: {
        type: 'object',
        required: ['self'],
        additionalProperties: false,
        properties: { self: { type: 'string' } },
      },
      errors: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/JsonApiError' } },
    },
  },
};

/** The RPC error body (`renderRpcError`). */
export const RPC_ERROR_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  RpcError: {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['message', 'errorCode'],
        additionalProperties: false,
        properties: {
          message: { type: 'string' },
          errorCode: {
            type: 'string',
            description: 'The module’s error code (`forbidden`, `not-found`, `invalid-argument`…), on every error.',
          },
          orm: { const: true, description: 'Present when the database layer (Prisma) raised the error.' },
          code: { type: 'string', description: 'The Prisma error code, with `orm`.' },
          rejectedByPolicy: { const: true, description: 'Present when an access policy refused the operation.' },
          reason: POLICY_REASON,
          meta: {
            type: 'object',
            additionalProperties: false,
            required: ['index'],
            properties: { index: { type: 'integer', minimum: 0, description: 'The failing step of a transaction.' } },
          },
          issues: {
            type: 'array',
            description: 'validation-failed: every problem the application’s rules found in the data.',
            items: {
              type: 'object',
              required: ['path', 'message', 'code'],
              additionalProperties: false,
              properties: {
                path: { type: 'string', description: 'The argument path (`data.posts.create[0].title`).' },
                message: { type: 'string' },
                code: { type: 'string', description: '`invalid`, or the validator’s own code.' },
              },
            },
          },
        },
      },
    },
  },
};

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad request (invalid parameters, body or arguments)',
  401: 'Unauthorized',
  403: 'Forbidden (operation not allowed, client id, access policy)',
  404: 'Not found (unknown type, resource or relationship)',
  406: 'Not acceptable',
  409: 'Conflict',
  412: 'Precondition failed (If-Match: the resource changed since the client read it)',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests (a rate limit ran out: see Retry-After; or too many live queries)',
  500: 'Internal error',
  503: 'Service unavailable (the database cannot serve the request now; see Retry-After)',
  504: 'Database timeout (a statement or lock timeout; nothing was written)',
};

/** The error responses as components (`JsonApiError400`...: `name` and the status), all with the body `schema`. */
export function errorResponseComponents(
  statuses: readonly number[],
  mediaType: string,
  name: string,
  schema: string,
): Record<string, unknown> {
  return Object.fromEntries(
    statuses.map((status) => [
      `${name}${status}`,
      {
        description: REASONS[status] ?? 'Error',
        content: { [mediaType]: { schema: { $ref: `#/components/schemas/${schema}` } } },
      },
    ]),
  );
}

/**
 * The HTTP server answers a request whose URL and headers exceed its limit before any route runs:
 * Node's parser with no body (Express), Fastify's client error handler with its own JSON.
 */
const HEADERS_TOO_LARGE = {
  description:
    'Request header fields too large (URL and headers beyond the HTTP server’s limit): no body on Express, Fastify’s own error JSON.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { error: { type: 'string' }, message: { type: 'string' }, statusCode: { const: 431 } },
      },
    },
  },
};

/** The error responses of one operation: references to the components, and the HTTP server's own 431. */
export function errorResponseRefs(statuses: readonly number[], name: string): Record<string, unknown> {
  const own = statuses.map((status) => [String(status), { $ref: `#/components/responses/${name}${status}` }]);
  return Object.fromEntries([...own, ['431', HEADERS_TOO_LARGE]]);
}

/**
 * An operation's error responses with some statuses explained for it: the reference keeps the
 * component and carries its own `description`, which OpenAPI 3.1 lets override the component's.
 */
export function explainedErrors(
  errors: Readonly<Record<string, unknown>>,
  reasons: Readonly<Record<number, string>>,
): Record<string, unknown> {
  const explained = Object.entries(reasons)
    .filter(([status]) => status in errors)
    .map(([status, description]) => [status, { ...(errors[status] as object), description }]);
  return { ...errors, ...Object.fromEntries(explained) };
}
