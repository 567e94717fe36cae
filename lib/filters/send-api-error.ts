import { Logger } from '@nestjs/common';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { ApiRequest } from '../shared/api-request.js';
import { type PlatformResponse, isResponseSent, sendApiResponse } from '../shared/api-response.js';
import { JSON_API_MEDIA_TYPE } from '../rest/json-api.constants.js';
import { errorSelfUrl } from '../rest/serialize/resource-links.js';
import { describeError, type ErrorDescription } from './error-description.js';
import { mergePrismaErrorMap, type PrismaErrorMap } from './prisma-error-map.js';

/** The module's two interfaces, each with its own error format. */
export type ApiKind = 'rest' | 'rpc';

/** What rendering an error needs of one module instance's options. */
export interface ErrorRendering {
  prismaErrorMap: PrismaErrorMap;
  /** The REST `endpoint` and mount path, for the error document's `links.self`. */
  endpoint: string;
  restPath: string;
}

export function errorRendering(options: Pick<ResolvedCrudApiOptions, 'prismaErrorMap' | 'endpoint' | 'restPath'>): ErrorRendering {
  return { prismaErrorMap: mergePrismaErrorMap(options.prismaErrorMap), endpoint: options.endpoint, restPath: options.restPath };
}

/** Where an error points; within an atomic request, into its failing operation. */
function errorSource({ source, index }: ErrorDescription): ErrorDescription['source'] {
  if (index === undefined) return source;
  return { pointer: `/atomic:operations/${index}${source?.pointer ?? ''}` };
}

/** JSON:API error document; `self` is the request URL (JSON:API: top-level `links.self` is always present). */
export function renderJsonApiError(error: ErrorDescription, self?: string): object {
  const source = errorSource(error);
  const meta = { ...(error.reason ? { reason: error.reason } : {}), ...(error.ormCode ? { prismaCode: error.ormCode } : {}) };
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

/** The RPC error body of the specification. */
export function renderRpcError(error: ErrorDescription): object {
  return {
    error: {
      message: error.message,
      ...(error.ormCode ? { orm: true, code: error.ormCode } : {}),
      ...(error.rejectedByPolicy ? { rejectedByPolicy: true } : {}),
      ...(error.reason ? { reason: error.reason } : {}),
      ...(error.index === undefined ? {} : { meta: { index: error.index } }),
    },
  };
}

type RenderError = (error: ErrorDescription, request: Pick<ApiRequest, 'path' | 'query'>, rendering: ErrorRendering) => object;

const ERROR_FORMATS: Readonly<Record<ApiKind, { contentType: string; render: RenderError }>> = {
  rest: {
    contentType: JSON_API_MEDIA_TYPE,
    render: (error, request, { endpoint, restPath }) => renderJsonApiError(error, errorSelfUrl(endpoint, restPath, request)),
  },
  rpc: { contentType: 'application/json', render: renderRpcError },
};

const logger = new Logger('CrudApi');

/**
 * Answers a failed request of one interface in that interface's error format. Used by the
 * filters bound to the module's controllers and by its body parsing, which runs before routing.
 */
export function sendApiError(
  kind: ApiKind,
  exception: unknown,
  exchange: { request: Pick<ApiRequest, 'method' | 'path' | 'query'>; response: PlatformResponse },
  rendering: ErrorRendering,
): void {
  const error = describeError(exception, rendering.prismaErrorMap);
  if (error.status >= 500) {
    // The client gets a generic message; the real error goes to the application's log.
    logger.error(`${exchange.request.method} ${exchange.request.path} failed: ${String(exception)}`, (exception as Error)?.stack);
  }
  if (isResponseSent(exchange.response)) return;
  const { contentType, render } = ERROR_FORMATS[kind];
  sendApiResponse(exchange.response, { status: error.status, body: render(error, exchange.request, rendering), headers: error.headers }, contentType);
}
