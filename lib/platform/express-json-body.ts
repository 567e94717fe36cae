import type { IncomingMessage, ServerResponse } from 'node:http';

import bodyParser from 'body-parser';

import { type ErrorRendering, sendApiError } from '../filters/send-api-error.js';
import { toApiRequest } from '../shared/api-request.js';
import { isJsonMediaType } from '../shared/json-media-type.js';
import type { ApiMounts } from './api-mounts.js';
import { ERROR_FORMATS } from './crud-api-route.js';

export interface ExpressJsonBodySettings {
  mounts: ApiMounts;
  globalPrefix: () => string;
  bodyLimit: number;
  errors: ErrorRendering;
}

type Request = IncomingMessage & { originalUrl?: string; url: string; method: string; body?: unknown };
type Middleware = (req: Request, res: ServerResponse, next: (error?: unknown) => void) => void;

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
    const request = toApiRequest(req);
    const kind = settings.mounts.kindOf(request.path, settings.globalPrefix());
    if (!kind) return next();
    parse(req, res, (error?: unknown) =>
      error ? sendApiError(ERROR_FORMATS[kind], error, { request, response: res }, settings.errors) : next(),
    );
  };
}
