import { ERROR_CODES, type ErrorCode } from './error-codes.js';

export interface ErrorSource {
  pointer?: string;
  parameter?: string;
  header?: string;
}

export interface CrudApiErrorOptions {
  /** Where in the request the problem is (JSON:API `source`). */
  source?: ErrorSource;
  /** Access-policy reason (`ACCESS_POLICY_VIOLATION`, `RESULT_NOT_READABLE`). */
  reason?: string;
  /** Response headers that belong to this error (e.g. `Allow`). */
  headers?: Record<string, string>;
}

/**
 * An error the APIs raise on purpose: a catalogue code plus a message safe to show a client.
 * The exception filter renders it in the format of the interface that raised it.
 */
export class CrudApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: CrudApiErrorOptions = {},
  ) {
    super(message);
    this.name = 'CrudApiError';
    this.status = ERROR_CODES[code].status;
  }
}
