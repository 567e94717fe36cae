import { HttpException } from '@nestjs/common';

import { ERROR_CODES, type ErrorCode } from './error-codes.js';

export interface ErrorSource {
  pointer?: string;
  parameter?: string;
  header?: string;
}

/** One problem of a write's data found by the application's rules (validation or a hook). */
export interface ValidationIssue {
  /** Where, as a path of the write's arguments (`['data', 'email']`, `['data', 'posts', 'create', 0, 'title']`). */
  path: (string | number)[];
  message: string;
  /** A stable code (`invalid`, or the validator's own). */
  code: string;
  /** The JSON:API pointer of the member, when REST knows it. */
  pointer?: string;
}

export interface CrudApiErrorOptions {
  /** Every problem of a write's data (`validation-failed`): REST answers one error object each. */
  issues?: ValidationIssue[];
  /** Where in the request the problem is (JSON:API `source`). */
  source?: ErrorSource;
  /** Access-policy reason (`ACCESS_POLICY_VIOLATION`, `RESULT_NOT_READABLE`). */
  reason?: string;
  /** Response headers that belong to this error (e.g. `Allow`). */
  headers?: Record<string, string>;
}

/**
 * `HttpException` as a base class. Its private `status` and `options` bear the names of public
 * fields of `CrudApiError`: the status is the same value, and `options` is read only while
 * `HttpException`'s constructor runs, before `CrudApiError` sets its own.
 */
export const HttpExceptionBase = HttpException as unknown as new (
  response: string,
  status: number,
) => Error & Pick<HttpException, 'getResponse' | 'getStatus' | 'cause'>;

/**
 * An error the APIs raise on purpose: a catalogue code plus a message safe to show a client.
 * The module's filters render it in the format of the interface that raised it. Raised in an
 * application's own code (`withPolicies` in a hand-written controller), it is an `HttpException`
 * (`instanceof`, `getStatus()`, `getResponse()`): Nest's default handling and an application's
 * catch-all filter answer its status and message, and do not log it as a crash. It also has the
 * signature of an `http-errors` error (`status`, `statusCode`, `expose`).
 */
export class CrudApiError extends HttpExceptionBase {
  readonly status: number;
  readonly statusCode: number;
  /** Whether the message may be shown by handling that is not the module's (not for 5xx). */
  readonly expose: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: CrudApiErrorOptions = {},
  ) {
    const { status, title } = ERROR_CODES[code];
    // `getResponse()`: the message, or for a 5xx its title, as Nest shows an `http-errors` error that `expose`s nothing.
    super(status < 500 ? message : title, status);
    this.message = message;
    this.name = 'CrudApiError';
    this.status = status;
    this.statusCode = status;
    this.expose = status < 500;
  }
}
