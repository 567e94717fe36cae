/** Longest part of a client's value an error message repeats. */
export const MAX_QUOTED_INPUT = 100;

/**
 * A client-supplied value as an error message quotes it: in double quotes, cut after
 * `MAX_QUOTED_INPUT` characters with "…". A megabyte `type` must not come back in the error body.
 */
export function quoteInput(value: unknown): string {
  const text = String(value);
  const shown = text.length > MAX_QUOTED_INPUT ? `${text.slice(0, MAX_QUOTED_INPUT)}…` : text;
  return `"${shown}"`;
}
