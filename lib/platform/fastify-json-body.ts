import type { Readable } from 'node:stream';

import { CrudApiError } from '../errors/crud-api.error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { type ErrorRendering, sendApiError } from '../filters/send-api-error.js';
import { toApiRequest } from '../shared/api-request.js';
import type { PlatformResponse } from '../shared/api-response.js';
import { isJsonMediaType } from '../shared/json-media-type.js';
import { CRUD_API_ROUTE, type CrudApiRoute, crudApiRouteOf, ERROR_FORMATS } from './crud-api-route.js';
import { contentCodingOf, decodeBody } from './decode-body.js';

/** The JSON:API media type; `application/json` already has Fastify's (and Nest's) parser. */
const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';

type Done = (error: Error | null, body?: unknown) => void;
type BodyParser = (request: FastifyRequest, body: string, done: Done) => void;

interface FastifyRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  routeOptions?: { config?: unknown };
}

type Hook = (...args: any[]) => unknown;

interface RouteOptions {
  url: string;
  config?: unknown;
  bodyLimit?: number;
  preParsing?: Hook | Hook[];
  preValidation?: Hook | Hook[];
  errorHandler?: (error: unknown, request: FastifyRequest, reply: PlatformResponse) => void;
}

/** The parts of a Fastify instance the module uses. */
export interface FastifyInstance {
  addHook(name: 'onRoute', hook: (route: RouteOptions) => void): unknown;
  addContentTypeParser(type: string, options: { parseAs: 'string' }, parser: BodyParser): unknown;
  hasContentTypeParser(type: string): boolean;
  getDefaultJsonParser(onProtoPoisoning: string, onConstructorPoisoning: string): BodyParser;
}

export interface FastifyJsonBodySettings {
  /** The module instance whose routes these settings are for. */
  instance: symbol;
  bodyLimit: number;
  /** The instance's route at a URL, for routes Nest registered without their route config (Nest 11's `@All`). */
  unmarkedRoute: (url: string) => CrudApiRoute | undefined;
  errors: ErrorRendering;
}

/** Fastify's body errors (by `code`) as the catalogue's codes, the way body-parser's are mapped on Express. */
const FASTIFY_BODY_ERRORS: Readonly<Record<string, { code: ErrorCode; message: string }>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload-too-large', message: 'The request body exceeds the limit of' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'malformed-json', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'malformed-json', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported-media-type',
    message: 'The request body media type is not supported.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid-request',
    message: 'The request body does not match its Content-Length.',
  },
};

/** A Fastify body error as a `CrudApiError`; anything else as it is. */
export function fastifyBodyError(error: unknown, bodyLimit: number): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const known =
    typeof code === 'string' && Object.hasOwn(FASTIFY_BODY_ERRORS, code) ? FASTIFY_BODY_ERRORS[code]! : undefined;
  if (known) {
    const message = known.code === 'payload-too-large' ? `${known.message} ${bodyLimit} bytes.` : known.message;
    return new CrudApiError(known.code, message);
  }
  // The JSON parser's own failures are SyntaxErrors (matched by name: they may come from another realm).
  if ((error as Error | null)?.name === 'SyntaxError')
    return new CrudApiError('malformed-json', 'The request body is not valid JSON.');
  return error;
}

/** The `Content-Type` a request was sent with, while the module's own parser reads its body. */
const SENT_CONTENT_TYPE = Symbol('sentContentType');

type MarkedRequest = FastifyRequest & { [SENT_CONTENT_TYPE]?: string };

const hooks = (existing: Hook | Hook[] | undefined): Hook[] =>
  existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];

/**
 * The `preParsing` hook of the module's routes. Fastify has one `application/json` parser per
 * instance (Nest's, shared with the application's routes), and picks it from the `Content-Type`
 * read after the `preParsing` hooks. So on the module's routes `application/json` is read by the
 * module's own parser (the JSON:API one, which treats an empty body as no body and leaves prototype
 * keys to the module's checks with their pointer), and the header is put back before the handler
 * sees the request. Fastify decodes no content coding: a JSON body sent with one is decoded here,
 * and Fastify holds the decoded bytes (and the bytes received, `receivedEncodedLength`) to the limit.
 */
function moduleBodyStream(bodyLimit: number) {
  return (
    request: MarkedRequest,
    _reply: unknown,
    payload: Readable,
    done: (error: unknown, payload?: Readable) => void,
  ): void => {
    const sent = request.headers['content-type'];
    if (typeof sent !== 'string') return done(null, payload);
    if (sent.split(';')[0]!.trim().toLowerCase() === 'application/json') {
      request[SENT_CONTENT_TYPE] = sent;
      request.headers['content-type'] = JSON_API_MEDIA_TYPE;
    }
    // RFC 9112 §6.3: no Transfer-Encoding and no Content-Length, no body.
    const hasBody =
      request.headers['transfer-encoding'] !== undefined || request.headers['content-length'] !== undefined;
    if (!hasBody || !isJsonMediaType(sent)) return done(null, payload);
    try {
      const coding = contentCodingOf(request.headers['content-encoding']);
      done(null, coding === undefined ? payload : decodeBody(payload, coding, bodyLimit));
    } catch (error) {
      done(error);
    }
  };
}

function restoreContentType(request: MarkedRequest, _reply: unknown, done: () => void): void {
  if (request[SENT_CONTENT_TYPE] !== undefined) request.headers['content-type'] = request[SENT_CONTENT_TYPE];
  done();
}

/** Marks a Fastify instance on which the shared JSON:API parser is registered (once, for every module instance). */
const withJsonApiParser = new WeakSet<object>();

/**
 * Sets up one module instance's routes on Fastify: its `bodyLimit` and an error handler answering
 * body errors in the interface's format, both per route; and a parser for `application/vnd.api+json`
 * (with any parameters) that serves the module's routes only (`application/json` included, see
 * `readJsonWithModuleParser`), so the application's own routes still refuse that media type and
 * parse `application/json` as before. Must run before the routes are registered.
 */
export function installFastifyJsonBody(fastify: FastifyInstance, settings: FastifyJsonBodySettings): void {
  fastify.addHook('onRoute', (route) => {
    const mounted = crudApiRouteOf(route.config) ?? settings.unmarkedRoute(route.url);
    if (mounted?.instance !== settings.instance) return;
    // Marked, for the content-type parsers to tell the module's routes from the application's.
    route.config = { ...(route.config as object | undefined), [CRUD_API_ROUTE]: mounted };
    route.bodyLimit = settings.bodyLimit;
    route.preParsing = [...hooks(route.preParsing), moduleBodyStream(settings.bodyLimit)];
    route.preValidation = [restoreContentType, ...hooks(route.preValidation)];
    route.errorHandler = (error, request, reply) =>
      sendApiError(
        ERROR_FORMATS[mounted.kind],
        fastifyBodyError(error, settings.bodyLimit),
        { request: toApiRequest(request), response: reply },
        settings.errors,
      );
  });
  if (withJsonApiParser.has(fastify) || fastify.hasContentTypeParser(JSON_API_MEDIA_TYPE)) return;
  withJsonApiParser.add(fastify);
  // Prototype keys are left to the module's own body checks, which refuse them with a pointer to where they stand.
  const parseJson = fastify.getDefaultJsonParser('ignore', 'ignore');
  fastify.addContentTypeParser(JSON_API_MEDIA_TYPE, { parseAs: 'string' }, (request, body, done) => {
    // An empty body is no body (a DELETE sent with the JSON:API Content-Type), as on Express.
    if (crudApiRouteOf(request.routeOptions?.config))
      return body === '' ? done(null, undefined) : parseJson(request, body, done);
    done(
      Object.assign(new Error(`Unsupported Media Type: ${request.headers['content-type']}`), {
        code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
        statusCode: 415,
      }),
    );
  });
}
