import { type ArgumentsHost, Catch, Inject, Injectable, Logger } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Request, Response } from 'express';
import { CRUD_API_OPTIONS } from '../crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../crud-api-options.interface.js';
import { sendApiResponse } from '../http/api-response.js';
import { ApiMounts } from '../http/api-mounts.js';
import { JSON_API_MEDIA_TYPE } from '../rest/json-api.constants.js';
import { describeError, type ErrorDescription } from './error-description.js';
import { mergePrismaErrorMap, type PrismaErrorMap } from './prisma-error-map.js';

/** JSON:API error document. */
export function renderJsonApiError(error: ErrorDescription): object {
  const meta = { ...(error.reason ? { reason: error.reason } : {}), ...(error.ormCode ? { prismaCode: error.ormCode } : {}) };
  return {
    errors: [
      {
        status: String(error.status),
        code: error.code,
        title: error.title,
        detail: error.message,
        ...(error.source ? { source: error.source } : {}),
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
  private readonly mounts: ApiMounts;
  private readonly prismaErrorMap: PrismaErrorMap;

  constructor(@Inject(CRUD_API_OPTIONS) options: ResolvedCrudApiOptions) {
    super();
    this.mounts = new ApiMounts(options.restPath, options.rpcPath);
    this.prismaErrorMap = mergePrismaErrorMap(options.prismaErrorMap);
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return super.catch(exception, host);
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const kind = this.mounts.kindOf(request);
    if (!kind) return super.catch(exception, host);
    const error = describeError(exception, this.prismaErrorMap);
    if (error.status >= 500) {
      // The client gets a generic message; the real error goes to the application's log.
      this.logger.error(`${request.method} ${request.path} failed: ${String(exception)}`, (exception as Error)?.stack);
    }
    const response = http.getResponse<Response>();
    if (response.headersSent) return;
    const [body, type] =
      kind === 'rest' ? [renderJsonApiError(error), JSON_API_MEDIA_TYPE] : [renderRpcError(error), 'application/json'];
    sendApiResponse(response, { status: error.status, body, headers: error.headers }, type);
  }
}
