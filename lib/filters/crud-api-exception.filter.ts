import { type ArgumentsHost, Catch, Inject, Injectable, Logger } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Request, Response } from 'express';
import { CRUD_API_OPTIONS } from '../crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../crud-api-options.interface.js';
import { describeError, type ErrorDescription } from './error-description.js';
import { DEFAULT_PRISMA_ERROR_MAP } from './prisma-error-map.js';

type ApiKind = 'rest' | 'rpc';

function mountPattern(path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|/)${escaped}(/|$)`);
}

/** JSON:API error document. */
export function renderJsonApiError(error: ErrorDescription): object {
  return {
    errors: [
      {
        status: String(error.status),
        code: error.code,
        title: error.title,
        detail: error.message,
        ...(error.source ? { source: error.source } : {}),
        ...(error.reason || error.ormCode ? { meta: { reason: error.reason, prismaCode: error.ormCode } } : {}),
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
    },
  };
}

/**
 * Renders every error on the module's routes in the format of the interface that raised it,
 * including errors raised before routing (body parsing). Other routes get Nest's default handling.
 * Registered globally (APP_FILTER) because body-parser errors reach only global filters.
 */
@Catch()
@Injectable()
export class CrudApiExceptionFilter extends BaseExceptionFilter {
  private readonly logger = new Logger('CrudApi');
  private readonly restPattern: RegExp;
  private readonly rpcPattern: RegExp;

  constructor(@Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions) {
    super();
    this.restPattern = mountPattern(options.restPath);
    this.rpcPattern = mountPattern(options.rpcPath);
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const kind = this.kindOf(request);
    if (!kind) return super.catch(exception, host);
    const error = describeError(exception, DEFAULT_PRISMA_ERROR_MAP);
    if (error.status >= 500) {
      this.logger.error(`${request.method} ${request.originalUrl} failed`, (exception as Error)?.stack ?? String(exception));
    }
    const response = http.getResponse<Response>();
    for (const [name, value] of Object.entries(error.headers ?? {})) response.setHeader(name, value);
    const [body, type] =
      kind === 'rest' ? [renderJsonApiError(error), 'application/vnd.api+json'] : [renderRpcError(error), 'application/json'];
    response.status(error.status).type(type).send(JSON.stringify(body));
  }

  private kindOf(request: Request): ApiKind | undefined {
    const path = (request.originalUrl ?? request.url ?? '').split('?')[0] ?? '';
    if (this.restPattern.test(path)) return 'rest';
    if (this.rpcPattern.test(path)) return 'rpc';
    return undefined;
  }
}
