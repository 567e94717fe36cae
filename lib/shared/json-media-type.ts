/** `application/json`, `application/vnd.api+json` and any other `+json` media type, parameters aside. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}
