import { Logger } from '@nestjs/common';

import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { ApiRequest } from '../shared/api-request.js';
import { isResponseSent, type PlatformResponse, sendApiResponse } from '../shared/api-response.js';
import {
  type ApiInterface,
  beginRequest,
  finishRequest,
  type RequestCall,
  requestCallOf,
} from '../telemetry/request-telemetry.js';
import { reportServerError, type ServerErrorListener } from '../telemetry/server-error-report.js';
import { REQUEST_ID_HEADER } from '../telemetry/telemetry.constants.js';
import { describeError, type ErrorDescription, isDatabaseError } from './error-description.js';
import { mergePrismaErrorMap, type PrismaErrorMap } from './prisma-error-map.js';

/** How one interface writes its errors: each interface hands its own to the filter and body parsing. */
export interface ErrorFormat {
  interface: ApiInterface;
  contentType: string;
  render(error: ErrorDescription, request: Pick<ApiRequest, 'path' | 'query'>, rendering: ErrorRendering): object;
}

/** What rendering an error needs of one module instance's options. */
export interface ErrorRendering {
  prismaErrorMap: PrismaErrorMap;
  /** The REST `endpoint` and mount path, for the error document's `links.self`. */
  endpoint: string;
  restPath: string;
  onServerError?: ServerErrorListener;
}

export function errorRendering(
  options: Pick<ResolvedCrudApiOptions, 'prismaErrorMap' | 'endpoint' | 'restPath' | 'onServerError'>,
): ErrorRendering {
  return {
    prismaErrorMap: mergePrismaErrorMap(options.prismaErrorMap),
    endpoint: options.endpoint,
    restPath: options.restPath,
    onServerError: options.onServerError,
  };
}

const logger = new Logger('CrudApi');

/**
 * The error body an interface answers for `exception`, for a failure that cannot be answered with
 * a status: a live query's re-run, once its stream is open (`call` is the request that opened it).
 * A server error is logged and reported as `sendApiError` does.
 */
export function errorBodyRenderer(
  format: ErrorFormat,
  options: Parameters<typeof errorRendering>[0],
): (exception: unknown, request: Pick<ApiRequest, 'method' | 'path' | 'query' | 'raw'>, call: RequestCall) => Buffer {
  const rendering = errorRendering(options);
  return (exception, request, call) => {
    const error = describeError(exception, rendering.prismaErrorMap);
    noteServerError(exception, error, request, call, rendering);
    return Buffer.from(JSON.stringify(format.render(error, request, rendering)));
  };
}

/**
 * An unexpected error (a 5xx other than a refusal while shutting down): to the application's log,
 * and to its `onServerError`. The client gets a generic message.
 */
function noteServerError(
  exception: unknown,
  error: ErrorDescription,
  request: Pick<ApiRequest, 'method' | 'path' | 'raw'>,
  call: RequestCall,
  rendering: ErrorRendering,
): void {
  if (error.status < 500 || error.code === 'shutting-down') return;
  logger.error(
    `${request.method} ${request.path} failed (request ${call.id}): ${String(exception)}`,
    (exception as Error)?.stack,
  );
  if (!rendering.onServerError) return;
  reportServerError(rendering.onServerError, exception, {
    requestId: call.id,
    interface: call.interface,
    model: call.model,
    operation: call.operation,
    status: error.status,
    code: error.code,
    request: request.raw,
  });
}

/**
 * Answers a failed request of one interface in that interface's error format, with its request
 * id, and ends its telemetry. Used by the filters bound to the module's controllers and by its body
 * parsing, which runs before routing (the request then begins here).
 */
export function sendApiError(
  format: ErrorFormat,
  exception: unknown,
  exchange: { request: Pick<ApiRequest, 'method' | 'path' | 'query' | 'raw'>; response: PlatformResponse },
  rendering: ErrorRendering,
): void {
  const { request, response } = exchange;
  const error = describeError(exception, rendering.prismaErrorMap);
  const call = requestCallOf(request.raw) ?? beginRequest(request.raw, { interface: format.interface });
  if (!isResponseSent(response)) {
    const body = format.render(error, request, rendering);
    sendApiResponse(response, { status: error.status, body, headers: error.headers }, format.contentType, {
      [REQUEST_ID_HEADER]: call.id,
    });
  }
  finishRequest(call, error.status, {
    exception,
    code: error.code,
    database: isDatabaseError(exception),
    prismaCode: error.ormCode,
  });
  noteServerError(exception, error, request, call, rendering);
}
