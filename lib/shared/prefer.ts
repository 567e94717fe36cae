/**
 * The value of the first preference named `token` in RFC 7240 `Prefer` headers (several arrive
 * joined by commas): lower-cased, unquoted, `''` for a preference without a value; undefined when
 * the request states none. Its parameters (`; …`) are not read.
 */
export function preferenceValue(prefer: string | string[] | undefined, token: string): string | undefined {
  if (prefer === undefined) return undefined;
  for (const preference of (Array.isArray(prefer) ? prefer.join(',') : prefer).split(',')) {
    const [name, ...rest] = preference.split(';')[0]!.split('=');
    if (name!.trim().toLowerCase() !== token) continue;
    return rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return undefined;
}
