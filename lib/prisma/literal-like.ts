/**
 * Prisma passes `contains`, `startsWith` and `endsWith` values into SQL LIKE patterns without
 * escaping the wildcards (prisma/orm#19506): `_` matches any character, `%` any text, and on
 * PostgreSQL a trailing `\` is a database error. These helpers make a value match itself.
 */

/** Providers whose LIKE takes `\` as its default escape character. */
const BACKSLASH_ESCAPE_PROVIDERS: ReadonlySet<string> = new Set(['postgresql', 'cockroachdb', 'mysql']);

const LIKE_WILDCARDS = /[%_]/;

/**
 * The value to send so that the LIKE pattern Prisma builds matches the text literally, or
 * `undefined` when the database cannot: SQLite's LIKE has no default escape character and Prisma
 * adds no ESCAPE clause, so a `%` or `_` there is always a wildcard (a backslash is literal).
 */
export function literalLike(value: string, provider: string): string | undefined {
  if (BACKSLASH_ESCAPE_PROVIDERS.has(provider)) return value.replace(/[\\%_]/g, '\\$&');
  return LIKE_WILDCARDS.test(value) ? undefined : value;
}

/** Why `literalLike` refused a value, for the client. */
export function literalLikeRefusal(provider: string): string {
  return `"%" and "_" cannot be matched literally on ${provider} (its LIKE has no escape character); use equals or leave them out`;
}
