import { IntrinsicException } from '@nestjs/common';

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
 * An error the APIs raise on purpose: a catalogue code plus a message safe to show a client.
 * The module's filters render it in the format of the interface that raised it. Raised in an
 * application's own code (`withPolicies` in a hand-written controller), Nest's default handling
 * answers its status and message on any platform: it has the signature of an `http-errors` error
 * (`status`, `statusCode`, `expose`), and as an `IntrinsicException` it is not logged as a crash.
 */
export class CrudApiError extends IntrinsicException {
  readonly status: number;
  readonly statusCode: number;
  /** Whether Nest's default handling may show the message (not for 5xx). */
  readonly expose: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: CrudApiErrorOptions = {},
  ) {
    super(message);
    this.name = 'CrudApiError';
    this.status = ERROR_CODES[code].status;
    this.statusCode = this.status;
    this.expose = this.status < 500;
  }
}
