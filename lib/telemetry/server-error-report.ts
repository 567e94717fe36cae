import { Logger } from '@nestjs/common';

import type { ErrorCode } from '../errors/error-codes.js';
import type { PlatformRequest } from '../shared/api-request.js';
import type { ApiInterface } from './request-telemetry.js';

/** What the `onServerError` option learns of a request answered with a 5xx, besides the error. */
export interface ServerErrorInfo {
  /** The request's id: its `X-Request-Id` response header and the module's log line for the error. */
  requestId: string;
  interface: ApiInterface;
  /** The Prisma model, when the request named a known one. */
  model?: string;
  /** REST: `list`, `fetch`, `create`...; RPC: the Prisma operation or `$transaction`. Absent for failures before routing. */
  operation?: string;
  /** The status and catalogue code of the answer. */
  status: number;
  code: ErrorCode;
  /** The platform's request (Express or Fastify). */
  request: PlatformRequest;
}

/** The `onServerError` option: reports an unexpected error (Sentry's `captureException`...). */
export type ServerErrorListener = (error: unknown, info: ServerErrorInfo) => void | Promise<void>;

const logger = new Logger('CrudApi');

/** Hands the error to the application's listener; a listener that throws or rejects is logged, nothing more. */
export function reportServerError(listener: ServerErrorListener, error: unknown, info: ServerErrorInfo): void {
  const failed = (problem: unknown) =>
    logger.error(
      `onServerError failed for request ${info.requestId}: ${String(problem)}`,
      (problem as Error | undefined)?.stack,
    );
  try {
    Promise.resolve(listener(error, info)).catch(failed);
  } catch (problem) {
    failed(problem);
  }
}
