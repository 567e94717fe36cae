import { Catch, Injectable } from '@nestjs/common';

import { CrudApiExceptionFilter } from '../filters/crud-api-exception.filter.js';
import type { ErrorDescription } from '../filters/error-description.js';
import type { ErrorFormat } from '../filters/send-api-error.js';
import { JSON_API_MEDIA_TYPE } from './json-api.constants.js';
import { errorSelfUrl } from './serialize/resource-links.js';

/** A pointer as the client reads it: within an atomic request, into the failing operation. */
function atOperation(index: number | undefined, pointer: string | undefined): string | undefined {
  return index === undefined ? pointer : `/atomic:operations/${index}${pointer ?? ''}`;
}

/** Where an error points. */
function errorSource({ source, index }: ErrorDescription): ErrorDescription['source'] {
  return index === undefined ? source : { pointer: atOperation(index, source?.pointer) };
}

/** The error objects of a description: one per issue of a rule refusal, else one. */
function errorObjects(error: ErrorDescription): object[] {
  const common = { status: String(error.status), code: error.code, title: error.title };
  if (error.code === 'validation-failed' && error.issues?.length) {
    return error.issues.map((issue) => {
      const pointer = atOperation(error.index, issue.pointer);
      return {
        ...common,
        detail: issue.message,
        ...(pointer === undefined ? {} : { source: { pointer } }),
        meta: { issue: issue.code },
      };
    });
  }
  const source = errorSource(error);
  const meta = {
    ...(error.reason ? { reason: error.reason } : {}),
    ...(error.ormCode ? { prismaCode: error.ormCode } : {}),
  };
  return [
    {
      ...common,
      detail: error.message,
      ...(source ? { source } : {}),
      ...(Object.keys(meta).length > 0 ? { meta } : {}),
    },
  ];
}

/** JSON:API error document; `self` is the request URL (JSON:API: top-level `links.self` is always present). */
export function renderJsonApiError(error: ErrorDescription, self?: string): object {
  return { ...(self === undefined ? {} : { links: { self } }), errors: errorObjects(error) };
}

/** The REST interface's error format: a JSON:API error document whose `links.self` is the request URL. */
export const JSON_API_ERROR_FORMAT: ErrorFormat = {
  interface: 'rest',
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
