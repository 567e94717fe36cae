import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import bodyParser from 'body-parser';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { CRUD_API_OPTIONS } from '../crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../crud-api-options.interface.js';
import { ApiMounts } from './api-mounts.js';

/** `application/json`, `application/vnd.api+json` and any other `+json` media type. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Parses the JSON bodies of the module's routes, of any JSON media type, with `bodyLimit`.
 *
 * It is installed on the Express application as soon as Nest creates it, ahead of Nest's own
 * `application/json` parser (whose limit is 100kb) and of module middleware: that parser then
 * skips the already-read body. So `bodyLimit` holds for `application/json` as well as for
 * `application/vnd.api+json`, without touching the application's parser or its other routes.
 * Parser errors travel through Express to Nest's global exception filters.
 */
@Injectable()
export class JsonBodyMiddleware {
  readonly handle: RequestHandler;

  constructor(@Inject(CRUD_API_OPTIONS) options: ResolvedCrudApiOptions, adapterHost: HttpAdapterHost) {
    const parse = bodyParser.json({
      limit: options.bodyLimit,
      type: (req) => isJsonMediaType(req.headers['content-type']),
    });
    const mounts = new ApiMounts(options.restPath, options.rpcPath);
    this.handle = (req: Request, res: Response, next: NextFunction) =>
      mounts.kindOf(req) ? parse(req, res, next) : next();
    // init$ replays: it fires when the HTTP adapter is set, before `app.init()` registers parsers.
    adapterHost.init$.subscribe(() => {
      const adapter = adapterHost.httpAdapter;
      if (adapter?.getType() === 'express') adapter.use(this.handle);
    });
  }
}
