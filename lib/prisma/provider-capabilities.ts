import type { PrismaOperation } from '../metadata/prisma-operations.js';

/**
 * What Prisma offers on each database (its `provider` names; MariaDB is `mysql`). One table, so
 * the REST filters, the RPC validator, the operation table and the policy engine agree.
 */

/** `createManyAndReturn` and `updateManyAndReturn` need a RETURNING clause, which MySQL lacks. */
const RETURNING_PROVIDERS: ReadonlySet<string> = new Set(['postgresql', 'cockroachdb', 'sqlite']);
/** `mode: 'insensitive'`; elsewhere case sensitivity is the column collation's (MySQL) or LIKE's (SQLite). */
const INSENSITIVE_MODE_PROVIDERS: ReadonlySet<string> = new Set(['postgresql', 'cockroachdb', 'mongodb']);
/** Full-text `search` and `_relevance` (MySQL only on fields with a FULLTEXT index). */
export const FULL_TEXT_PROVIDERS: readonly string[] = ['postgresql', 'mysql'];

/** A database feature some operations need, and how to tell a client that it is missing. */
export interface ProviderFeature {
  supports(provider: string): boolean;
  refusal(operation: string, provider: string): string;
}

export const RETURNING: ProviderFeature = {
  supports: (provider) => RETURNING_PROVIDERS.has(provider),
  refusal: (operation, provider) =>
    `"${operation}" is not available on ${provider}: the database has no RETURNING clause (use the operation without "AndReturn" and read the rows back)`,
};

/** The features the operation table's `requires` names (lib/metadata/prisma-operations.ts). */
export const OPERATION_FEATURES: Readonly<Record<NonNullable<PrismaOperation['requires']>, ProviderFeature>> = {
  returning: RETURNING,
};

export function supportsInsensitiveMode(provider: string): boolean {
  return INSENSITIVE_MODE_PROVIDERS.has(provider);
}

export function supportsFullTextSearch(provider: string): boolean {
  return FULL_TEXT_PROVIDERS.includes(provider);
}

/**
 * Every word of the text (letters and digits only, so no input is a syntax error), all required:
 * PostgreSQL's tsquery joins them with `&`, MySQL's boolean mode marks each with `+`.
 */
export function toFullTextQuery(text: string, provider: string): string {
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  return provider === 'mysql' ? words.map((word) => `+${word}`).join(' ') : words.join(' & ');
}
