/** `application/json`, `application/vnd.api+json` and any other `+json` media type, parameters aside. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  // The two a client sends almost always, as it spells them: no parsing needed.
  if (contentType === 'application/vnd.api+json' || contentType === 'application/json') return true;
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}
