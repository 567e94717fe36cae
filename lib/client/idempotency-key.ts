/** What of Web Crypto a key needs. */
interface RandomSource {
  getRandomValues<T extends Uint8Array>(array: T): T;
  randomUUID?(): string;
}

/**
 * A random (version 4) UUID for an `Idempotency-Key`. `crypto.randomUUID` exists only in secure
 * contexts (HTTPS, localhost); a page served over plain HTTP has `getRandomValues` alone.
 */
export function randomUuid(source: RandomSource = globalThis.crypto): string {
  if (source.randomUUID) return source.randomUUID();
  const bytes = source.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 9562 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The field value of a key: a structured-field string (draft-ietf-httpapi-idempotency-key-header). */
export function idempotencyKeyField(key: string): string {
  if (!/^[\x20-\x7e]+$/.test(key)) throw new TypeError('An Idempotency-Key is a non-empty string of printable ASCII.');
  return `"${key.replace(/[\\"]/g, '\\$&')}"`;
}
