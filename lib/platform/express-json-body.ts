import type { IncomingMessage, ServerResponse } from 'node:http';

import bodyParser from 'body-parser';

import { type ErrorRendering, sendApiError } from '../filters/send-api-error.js';
import { requestPath, toApiRequest } from '../shared/api-request.js';
import { isJsonMediaType } from '../shared/json-media-type.js';
import type { ApiMounts } from './api-mounts.js';
import { ERROR_FORMATS } from './crud-api-route.js';
import { contentCodingOf, decodeBody } from './decode-body.js';

export interface ExpressJsonBodySettings {
  mounts: ApiMounts;
  bodyLimit: number;
  errors: ErrorRendering;
}

type Request = IncomingMessage & { originalUrl?: string; url: string; method: string; body?: unknown };
type Middleware = (req: Request, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The request as body-parser should read it: a body sent with a content coding is decoded by the
 * module (the same decoder as on Fastify, which holds the bytes received to the limit as well), and
 * body-parser reads the decoded bytes as a body sent as it is.
 */
function decodedRequest(req: Request, bodyLimit: number): Request {
  if (!isJsonMediaType(req.headers['content-type'])) return req;
  const coding = contentCodingOf(req.headers['content-encoding']);
  if (coding === undefined) return req;
  const { 'content-encoding': _coding, 'content-length': _length, ...headers } = req.headers;
  return Object.assign(decodeBody(req, coding, bodyLimit), {
    headers: { ...headers, 'transfer-encoding': 'chunked' },
  }) as unknown as Request;
}

/**
 * Express middleware parsing the JSON bodies (any JSON media type) of one instance's routes with
 * its `bodyLimit`, and answering a body it cannot parse in the interface's error format itself.
 * Installed ahead of Nest's own `application/json` parser (limit 100kb), which then skips the
 * already-read body; other routes are left to the application's parsers.
 */
export function expressJsonBody(settings: ExpressJsonBodySettings): Middleware {
  const parse = bodyParser.json({
    limit: settings.bodyLimit,
    type: (req) => isJsonMediaType(req.headers['content-type']),
  });
  return (req, res, next) => {
    // RFC 9112 §6.3: no Transfer-Encoding and no Content-Length, no body (body-parser's own test):
    // a GET passes on without its path being looked at.
    if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) return next();
    const kind = settings.mounts.kindOf(requestPath(req));
    if (!kind) return next();
    const fail = (error: unknown) =>
      sendApiError(ERROR_FORMATS[kind], error, { request: toApiRequest(req), response: res }, settings.errors);
    let read: Request;
    try {
      read = decodedRequest(req, settings.bodyLimit);
    } catch (error) {
      return fail(error);
    }
    parse(read, res, (error?: unknown) => {
      if (read !== req) req.body = read.body;
      return error ? fail(error) : next();
    });
  };
}
