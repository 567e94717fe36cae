import { HttpException } from '@nestjs/common';
import { CrudApiError, type ErrorSource } from './crud-api.error.js';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';
import { type PrismaErrorMapping, UNMAPPED_KNOWN_REQUEST_ERROR } from './prisma-error-map.js';

/** Everything either wire format needs to know about a failure, and nothing internal. */
export interface ErrorDescription {
  status: number;
  code: ErrorCode;
  title: string;
  message: string;
  source?: ErrorSource;
  headers?: Record<string, string>;
  /** The data layer's own code (`P2002`) when the failure came from Prisma. */
  ormCode?: string;
  rejectedByPolicy?: boolean;
  reason?: string;
}

const GENERIC_MESSAGE = 'An unexpected error occurred.';

interface PrismaKnownError {
  name: string;
  code: string;
  message: string;
  meta?: Record<string, unknown>;
}

/** Prisma's error classes are matched by name: an application may load several copies of them. */
function isPrismaKnownRequestError(error: unknown): error is PrismaKnownError {
  return error instanceof Error && error.name === 'PrismaClientKnownRequestError' && 'code' in error;
}

function isPrismaValidationError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'PrismaClientValidationError';
}

function describe(code: ErrorCode, message: string, extra: Partial<ErrorDescription> = {}): ErrorDescription {
  const { status, title } = ERROR_CODES[code];
  return { status, code, title, message, ...extra };
}

/** Maps any thrown value to a client-safe description; `undefined`-free, never leaks internals. */
export function describeError(
  error: unknown,
  prismaErrorMap: Readonly<Record<string, PrismaErrorMapping>>,
): ErrorDescription {
  if (error instanceof CrudApiError) {
    return describe(error.code, error.message, {
      source: error.options.source,
      headers: error.options.headers,
      reason: error.options.reason,
      rejectedByPolicy: error.code === 'rejected-by-policy' || undefined,
    });
  }
  if (error instanceof HttpException) return describeHttpException(error);
  if (isPrismaKnownRequestError(error)) return describePrismaKnownError(error, prismaErrorMap);
  if (isPrismaValidationError(error)) return describe('invalid-argument', summarizeValidationMessage(error.message), { ormCode: undefined });
  return describe('internal-error', GENERIC_MESSAGE);
}

function describePrismaKnownError(
  error: PrismaKnownError,
  prismaErrorMap: Readonly<Record<string, PrismaErrorMapping>>,
): ErrorDescription {
  const mapping = prismaErrorMap[error.code] ?? UNMAPPED_KNOWN_REQUEST_ERROR;
  const reason = typeof error.meta?.reason === 'string' ? error.meta.reason : undefined;
  return {
    ...describe(mapping.code, summarizeKnownErrorMessage(error)),
    status: mapping.status,
    ormCode: error.code,
    rejectedByPolicy: mapping.status === 403 || undefined,
    reason,
  };
}

const HTTP_STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: 'invalid-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  406: 'not-acceptable',
  409: 'conflict',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
};

function describeHttpException(error: HttpException): ErrorDescription {
  const status = error.getStatus();
  const code = HTTP_STATUS_CODES[status] ?? (status >= 500 ? 'internal-error' : 'invalid-request');
  const response = error.getResponse();
  const message =
    status >= 500
      ? GENERIC_MESSAGE
      : typeof response === 'string'
        ? response
        : String((response as { message?: unknown }).message ?? error.message);
  return { ...describe(code, message), status };
}

/** Prisma's messages start with a developer-oriented dump of the call; its last line is the point. */
export function summarizeValidationMessage(message: string): string {
  const lines = message.split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.at(-1) ?? 'Invalid query arguments.';
}

function summarizeKnownErrorMessage(error: PrismaKnownError): string {
  return summarizeValidationMessage(error.message);
}
