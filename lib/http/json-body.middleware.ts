import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import bodyParser from 'body-parser';
import type { NextFunction, Request, Response } from 'express';
import { CRUD_API_OPTIONS } from '../crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../crud-api-options.interface.js';

/** `application/json`, `application/vnd.api+json` and any other `+json` media type. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Parses JSON bodies of our routes that the application's parser left alone: Nest's default parser
 * reads only `application/json`, and JSON:API clients send `application/vnd.api+json`.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parse: ReturnType<typeof bodyParser.json>;

  constructor(@Inject(CRUD_API_OPTIONS) options: ResolvedCrudApiOptions) {
    this.parse = bodyParser.json({
      limit: options.bodyLimit,
      type: (req) => isJsonMediaType(req.headers['content-type']),
    });
  }

  use(req: Request, res: Response, next: NextFunction): void {
    this.parse(req, res, next);
  }
}
