import { Logger } from '@nestjs/common';

import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { ApiRequest } from '../shared/api-request.js';
import { isResponseSent, type PlatformResponse, sendApiResponse } from '../shared/api-response.js';
import { describeError, type ErrorDescription } from './error-description.js';
import { mergePrismaErrorMap, type PrismaErrorMap } from './prisma-error-map.js';

/** How one interface writes its errors: each interface hands its own to the filter and body parsing. */
export interface ErrorFormat {
  contentType: string;
  render(error: ErrorDescription, request: Pick<ApiRequest, 'path' | 'query'>, rendering: ErrorRendering): object;
}

/** What rendering an error needs of one module instance's options. */
export interface ErrorRendering {
  prismaErrorMap: PrismaErrorMap;
  /** The REST `endpoint` and mount path, for the error document's `links.self`. */
  endpoint: string;
  restPath: string;
}

export function errorRendering(
  options: Pick<ResolvedCrudApiOptions, 'prismaErrorMap' | 'endpoint' | 'restPath'>,
): ErrorRendering {
  return {
    prismaErrorMap: mergePrismaErrorMap(options.prismaErrorMap),
    endpoint: options.endpoint,
    restPath: options.restPath,
  };
}

const logger = new Logger('CrudApi');

/**
 * Answers a failed request of one interface in that interface's error format. Used by the
 * filters bound to the module's controllers and by its body parsing, which runs before routing.
 */
export function sendApiError(
  format: ErrorFormat,
  exception: unknown,
  exchange: { request: Pick<ApiRequest, 'method' | 'path' | 'query'>; response: PlatformResponse },
  rendering: ErrorRendering,
): void {
  const error = describeError(exception, rendering.prismaErrorMap);
  // A refusal while shutting down is expected, not a failure to look into.
  if (error.status >= 500 && error.code !== 'shutting-down') {
    // The client gets a generic message; the real error goes to the application's log.
    logger.error(
      `${exchange.request.method} ${exchange.request.path} failed: ${String(exception)}`,
      (exception as Error)?.stack,
    );
  }
  if (isResponseSent(exchange.response)) return;
  const body = format.render(error, exchange.request, rendering);
  sendApiResponse(exchange.response, { status: error.status, body, headers: error.headers }, format.contentType);
}
