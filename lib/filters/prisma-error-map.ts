import type { ErrorCode } from './error-codes.js';

export interface PrismaErrorMapping {
  status: number;
  code: ErrorCode;
  /**
   * What the client reads. Without it the client gets Prisma's one-line summary of the error
   * (never its call dump), or the code's title when that line could expose internals.
   */
  message?: string;
  /** The row applies only to errors carrying `meta.reason` (access-policy rejections). */
  requiresReason?: boolean;
}

const TEMPORARILY_UNAVAILABLE: PrismaErrorMapping = {
  status: 503,
  code: 'service-unavailable',
  message: 'The database could not complete the request in time; retry it.',
};

/**
 * Prisma error codes (https://www.prisma.io/docs/orm/reference/error-reference) to HTTP.
 * Known request errors missing here, or whose row does not apply, are 400 `data-layer-error`;
 * applications extend or override rows with the `prismaErrorMap` option.
 * Fixed messages replace Prisma's where its text names database constraints or columns.
 */
export const DEFAULT_PRISMA_ERROR_MAP: Readonly<Record<string, PrismaErrorMapping>> = {
  P2001: { status: 404, code: 'not-found' },
  P2015: { status: 404, code: 'not-found' },
  P2018: { status: 404, code: 'not-found' },
  P2025: { status: 404, code: 'not-found' },
  P2000: { status: 400, code: 'constraint-violation', message: 'A value is too long for its field.' },
  P2002: { status: 400, code: 'constraint-violation', message: 'A record with the same unique value already exists.' },
  P2003: { status: 400, code: 'constraint-violation', message: 'A related record does not exist (foreign key constraint).' },
  P2011: { status: 400, code: 'constraint-violation', message: 'A required value is null.' },
  P2012: { status: 400, code: 'constraint-violation' },
  P2014: { status: 400, code: 'constraint-violation' },
  // Access-policy-enhanced clients (ZenStack) reject with P2004 and a `meta.reason`.
  P2004: { status: 403, code: 'rejected-by-policy', requiresReason: true },
  // Timeouts, exhausted pools and write conflicts are the server's state, not the client's fault:
  // the same request may succeed when retried.
  P1001: TEMPORARILY_UNAVAILABLE,
  P1002: TEMPORARILY_UNAVAILABLE,
  P1008: TEMPORARILY_UNAVAILABLE,
  P1017: TEMPORARILY_UNAVAILABLE,
  P2024: TEMPORARILY_UNAVAILABLE,
  P2028: TEMPORARILY_UNAVAILABLE,
  P2034: TEMPORARILY_UNAVAILABLE,
};

export const UNMAPPED_KNOWN_REQUEST_ERROR: PrismaErrorMapping = { status: 400, code: 'data-layer-error' };

/** The defaults with the application's rows (the `prismaErrorMap` option) on top. */
export function mergePrismaErrorMap(
  overrides: Readonly<Record<string, PrismaErrorMapping>> = {},
): PrismaErrorMap {
  return new Map([...Object.entries(DEFAULT_PRISMA_ERROR_MAP), ...Object.entries(overrides)]);
}

export type PrismaErrorMap = ReadonlyMap<string, PrismaErrorMapping>;
