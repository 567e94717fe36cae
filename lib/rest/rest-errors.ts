import { Catch, Injectable } from '@nestjs/common';

import { CrudApiExceptionFilter } from '../filters/crud-api-exception.filter.js';
import type { ErrorDescription } from '../filters/error-description.js';
import type { ErrorFormat } from '../filters/send-api-error.js';
import { JSON_API_MEDIA_TYPE } from './json-api.constants.js';
import { errorSelfUrl } from './serialize/resource-links.js';

/** Where an error points; within an atomic request, into its failing operation. */
function errorSource({ source, index }: ErrorDescription): ErrorDescription['source'] {
  if (index === undefined) return source;
  return { pointer: `/atomic:operations/${index}${source?.pointer ?? ''}` };
}

/** JSON:API error document; `self` is the request URL (JSON:API: top-level `links.self` is always present). */
export function renderJsonApiError(error: ErrorDescription, self?: string): object {
  const source = errorSource(error);
  const meta = {
    ...(error.reason ? { reason: error.reason } : {}),
    ...(error.ormCode ? { prismaCode: error.ormCode } : {}),
  };
  return {
    ...(self === undefined ? {} : { links: { self } }),
    errors: [
      {
        status: String(error.status),
        code: error.code,
        title: error.title,
        detail: error.message,
        ...(source ? { source } : {}),
        ...(Object.keys(meta).length > 0 ? { meta } : {}),
      },
    ],
  };
}

/** The REST interface's error format: a JSON:API error document whose `links.self` is the request URL. */
export const JSON_API_ERROR_FORMAT: ErrorFormat = {
  contentType: JSON_API_MEDIA_TYPE,
  render: (error, request, { endpoint, restPath }) =>
    renderJsonApiError(error, errorSelfUrl(endpoint, restPath, request)),
};

/** JSON:API error documents on the REST routes. */
@Catch()
@Injectable()
export class RestExceptionFilter extends CrudApiExceptionFilter {
  protected readonly format = JSON_API_ERROR_FORMAT;
}
