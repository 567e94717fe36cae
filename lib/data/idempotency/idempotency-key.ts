import { hash } from 'node:crypto';

import { CrudApiError } from '../../errors/crud-api.error.js';
import type { ApiRequest } from '../../shared/api-request.js';

/** Keys are client-made ids (UUIDs, ULIDs): a bound keeps what a client can make the server hash small. */
const MAX_KEY_LENGTH = 255;

/** A Structured Field string (RFC 9651 §3.3.3): printable ASCII, `"` and `\` escaped. */
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;
/** What clients send unquoted, though the draft asks for a string: one run of visible ASCII. */
const BARE_KEY = /^[\x21-\x7e]+$/;

function invalidKey(detail: string): CrudApiError {
  return new CrudApiError('invalid-request', `Idempotency-Key ${detail}.`);
}

/**
 * The key of an `Idempotency-Key` field (draft-ietf-httpapi-idempotency-key-header: a Structured
 * Field string such as `"8e03978e-…"`; an unquoted token is taken as it is), or undefined without
 * one. A repeated field, an empty, overlong or malformed key answers 400: a retry must be
 * recognisable, so a key the server cannot keep is refused rather than ignored.
 */
export function idempotencyKeyOf(value: string | readonly string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidKey('must be sent once');
  const field = value.trim();
  const quoted = SF_STRING.exec(field);
  const key = quoted
    ? quoted[1]!.replace(/\\(["\\])/g, '$1')
    : BARE_KEY.test(field) && !field.startsWith('"')
      ? field
      : undefined;
  if (key === undefined) throw invalidKey('must be a string of printable ASCII characters, such as a UUID');
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw invalidKey(`must have 1 to ${MAX_KEY_LENGTH} characters`);
  }
  return key;
}

const digest = (text: string) => hash('sha256', text, 'base64url');

/** The stored row's id: the caller's scope and the key, so that callers' keys never meet. */
export function idempotencyRecordId(scope: string, key: string): string {
  return digest(`${scope.length}:${scope}\n${key}`);
}

/**
 * What makes a retry the same request: method, target (path and query) and body. A key sent again
 * with another of them is another request reusing the key (422).
 */
export function requestFingerprint({ method, path, query, body }: ApiRequest): string {
  return digest(JSON.stringify([method, path, query, body ?? null]));
}
