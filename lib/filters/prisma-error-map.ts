import type { ErrorCode } from './error-codes.js';

export interface PrismaErrorMapping {
  status: number;
  code: ErrorCode;
}

/**
 * Prisma error codes (https://www.prisma.io/docs/orm/reference/error-reference) to HTTP.
 * Known request errors missing here are 400 `data-layer-error`; applications extend or
 * override rows with the `prismaErrorMap` option.
 */
export const DEFAULT_PRISMA_ERROR_MAP: Readonly<Record<string, PrismaErrorMapping>> = {
  P2001: { status: 404, code: 'not-found' },
  P2015: { status: 404, code: 'not-found' },
  P2018: { status: 404, code: 'not-found' },
  P2025: { status: 404, code: 'not-found' },
  P2000: { status: 400, code: 'constraint-violation' },
  P2002: { status: 400, code: 'constraint-violation' },
  P2003: { status: 400, code: 'constraint-violation' },
  P2011: { status: 400, code: 'constraint-violation' },
  P2012: { status: 400, code: 'constraint-violation' },
  P2014: { status: 400, code: 'constraint-violation' },
  P2004: { status: 403, code: 'rejected-by-policy' },
};

export const UNMAPPED_KNOWN_REQUEST_ERROR: PrismaErrorMapping = { status: 400, code: 'data-layer-error' };
