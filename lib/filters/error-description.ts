import { STATUS_CODES } from 'node:http';

import { HttpException } from '@nestjs/common';

import { StepFailure } from '../data/step-failure.error.js';
import { CrudApiError, type ErrorSource, type ValidationIssue } from '../errors/crud-api.error.js';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';
import type { PrismaErrorMapping } from '../options/crud-api-options.interface.js';
import { databaseErrorOf, rawDatabaseErrorOf } from '../prisma/database-error.js';
import {
  databaseErrorMapping,
  DRIVER_ERRORS,
  type PrismaErrorMap,
  UNMAPPED_KNOWN_REQUEST_ERROR,
} from './prisma-error-map.js';

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
  /** The failing operation of a multi-operation request (RPC transaction, JSON:API atomic operations). */
  index?: number;
  /** Every problem of a write refused by the application's rules (`validation-failed`). */
  issues?: ValidationIssue[];
}

export const GENERIC_ERROR_MESSAGE = 'An unexpected error occurred.';

/** Seconds a client waits before retrying a request the database could not serve (503). */
export const DATABASE_RETRY_AFTER_SECONDS = 1;
const GENERIC_VALIDATION_MESSAGE = 'Invalid query arguments.';

interface PrismaKnownError extends Error {
  code: string;
  meta?: Record<string, unknown>;
}

/** The errors body-parser raises (http-errors), by their `type`. */
interface BodyParserError extends Error {
  type: string;
  limit?: number;
}

/** What a body-parser failure means for the client. */
const BODY_PARSER_ERRORS: Readonly<Record<string, { code: ErrorCode; message: (error: BodyParserError) => string }>> = {
  'entity.parse.failed': { code: 'malformed-json', message: () => 'The request body is not valid JSON.' },
  'entity.too.large': {
    code: 'payload-too-large',
    message: (error) => `The request body exceeds the limit of ${error.limit ?? 'the server'} bytes.`,
  },
  'charset.unsupported': {
    code: 'unsupported-media-type',
    message: () => 'The request body charset is not supported.',
  },
  'encoding.unsupported': {
    code: 'unsupported-media-type',
    message: () => 'The request body content encoding is not supported.',
  },
  'request.aborted': { code: 'invalid-request', message: () => 'The request body was not received completely.' },
  'request.size.invalid': {
    code: 'invalid-request',
    message: () => 'The request body does not match its Content-Length.',
  },
};

/** Nest statuses without a more precise code of their own in the catalogue. */
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

/** Prisma's error classes are matched by name: an application may load several copies of them. */
export function isPrismaKnownRequestError(error: unknown): error is PrismaKnownError {
  return (
    error instanceof Error &&
    error.name === 'PrismaClientKnownRequestError' &&
    typeof (error as PrismaKnownError).code === 'string'
  );
}

function isPrismaValidationError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'PrismaClientValidationError';
}

function bodyParserErrorOf(error: unknown): BodyParserError | undefined {
  const candidate = error instanceof HttpException ? error.cause : error;
  const type = (candidate as BodyParserError | undefined)?.type;
  return typeof type === 'string' && Object.hasOwn(BODY_PARSER_ERRORS, type)
    ? (candidate as BodyParserError)
    : undefined;
}

function describe(code: ErrorCode, message: string, extra: Partial<ErrorDescription> = {}): ErrorDescription {
  const { status, title } = ERROR_CODES[code];
  return { status, code, title, message, ...extra };
}

/** Maps any thrown value to a client-safe description: nothing of an unexpected error reaches the client. */
export function describeError(error: unknown, prismaErrorMap: PrismaErrorMap): ErrorDescription {
  if (error instanceof StepFailure) return { ...describeError(error.cause, prismaErrorMap), index: error.index };
  if (error instanceof CrudApiError) {
    return describe(error.code, error.message, {
      source: error.options.source,
      headers: error.options.headers,
      reason: error.options.reason,
      rejectedByPolicy: error.code === 'rejected-by-policy' || undefined,
      issues: error.options.issues,
    });
  }
  const bodyParserError = bodyParserErrorOf(error);
  if (bodyParserError) {
    const { code, message } = BODY_PARSER_ERRORS[bodyParserError.type]!;
    return describe(code, message(bodyParserError));
  }
  if (error instanceof HttpException) return describeHttpException(error);
  if (isPrismaKnownRequestError(error)) return describePrismaKnownError(error, prismaErrorMap);
  if (isPrismaValidationError(error)) return describe('invalid-argument', summarizeValidationMessage(error.message));
  const driverMapping = error instanceof Error ? driverErrorMapping(error) : undefined;
  if (driverMapping)
    return describeMapping(driverMapping, driverMapping.message ?? ERROR_CODES[driverMapping.code].title);
  return describe('internal-error', GENERIC_ERROR_MESSAGE);
}

/**
 * A driver's own error that says the database cannot serve the request now (or a value it cannot
 * bind). Its other errors stay unexpected: they may be the application's own.
 */
function driverErrorMapping(error: Error): PrismaErrorMapping | undefined {
  const row = DRIVER_ERRORS.find(
    ({ name, message }) => error.name === name && error.constructor.name === name && message.test(error.message),
  );
  if (row) return row.mapping;
  const database = databaseErrorMapping(rawDatabaseErrorOf(error));
  return database && database.status >= 500 ? database : undefined;
}

/** A data-layer failure as its row says; a 503 tells the client when to retry. */
function describeMapping(
  mapping: PrismaErrorMapping,
  message: string,
  extra: Partial<ErrorDescription> = {},
): ErrorDescription {
  return {
    status: mapping.status,
    code: mapping.code,
    title: ERROR_CODES[mapping.code].title,
    message,
    ...(mapping.status === 503 ? { headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) } } : {}),
    ...extra,
  };
}

/**
 * Whether the database, its driver or Prisma's engine failed the request, rather than the caller
 * (Prisma's argument validation) or the module's own checks: what `crud_api.database.errors` counts.
 */
export function isDatabaseError(error: unknown): boolean {
  const cause = error instanceof StepFailure ? error.cause : error;
  if (!(cause instanceof Error)) return false;
  return (
    (cause.name.startsWith('PrismaClient') && !isPrismaValidationError(cause)) ||
    cause.name === 'DriverAdapterError' ||
    driverErrorMapping(cause) !== undefined
  );
}

function describePrismaKnownError(error: PrismaKnownError, prismaErrorMap: PrismaErrorMap): ErrorDescription {
  const reason = typeof error.meta?.reason === 'string' ? error.meta.reason : undefined;
  // The application's and the default rows first; a generic code is explained by the database's own.
  const row = prismaErrorMap.get(error.code) ?? databaseErrorMapping(databaseErrorOf(error.meta));
  const mapping = row && (!row.requiresReason || reason) ? row : UNMAPPED_KNOWN_REQUEST_ERROR;
  const { title } = ERROR_CODES[mapping.code];
  // Unmapped codes (raw queries, driver failures...) carry database messages: only the title is shown.
  const message = mapping.message ?? (row === mapping ? (clientSafeSummary(error.message) ?? title) : title);
  const rejectedByPolicy = mapping.code === 'rejected-by-policy';
  return describeMapping(mapping, message, {
    ormCode: error.code,
    ...(rejectedByPolicy ? { rejectedByPolicy, reason } : {}),
  });
}

function describeHttpException(error: HttpException): ErrorDescription {
  const status = error.getStatus();
  const code = HTTP_STATUS_CODES[status] ?? (status >= 500 ? 'internal-error' : 'http-error');
  const title = code === 'http-error' ? (STATUS_CODES[status] ?? ERROR_CODES[code].title) : ERROR_CODES[code].title;
  return { ...describe(code, status >= 500 ? GENERIC_ERROR_MESSAGE : httpExceptionMessage(error)), status, title };
}

/** Nest's responses are a string or `{ message }`, where ValidationPipe's message is a list. */
function httpExceptionMessage(error: HttpException): string {
  const response = error.getResponse();
  const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}

/**
 * Prisma's sentences that point into the call dump, which the client never sees, and its
 * suggestions, which name fields (hidden ones included) the client did not name.
 */
const DUMP_REFERENCES = /\s*(Available options are .*|Note: Lines with .*)$/;
const SUGGESTIONS = /\s*Did you mean [^?]*\?/g;

/** Text that must never reach a client: dump lines, file paths, stack frames, SQL. */
const INTERNALS = [
  /invocation/i,
  /^(→|~|\?|\+|\}|\{)/,
  /(^|[\s('"`])(\/|[A-Za-z]:\\)[\w.@-]+[/\\]/,
  /\bat .+:\d+:\d+/,
  /\b(SELECT\b.+\bFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b/i,
];

/** Prisma's last line states the problem; everything above it is a developer-oriented dump. */
function clientSafeSummary(message: string): string | undefined {
  const lastLine = message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1)
    ?.replace(SUGGESTIONS, '')
    .replace(DUMP_REFERENCES, '');
  if (!lastLine || INTERNALS.some((pattern) => pattern.test(lastLine))) return undefined;
  return lastLine;
}

/** A Prisma validation message reduced to the one line a client can act on. */
export function summarizeValidationMessage(message: string): string {
  return clientSafeSummary(message) ?? GENERIC_VALIDATION_MESSAGE;
}
