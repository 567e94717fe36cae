import xxhash, { type XXHashAPI } from 'xxhash-wasm';

/** The hash of entity tags, compiled once per process by `prepareEntityTags`. */
let hasher: XXHashAPI | undefined;
let compiling: Promise<void> | undefined;

/**
 * Compiles the entity tags' hash (WebAssembly, compiled asynchronously): awaited as the module
 * starts. Every module instance of the process awaits the one compilation.
 */
export function prepareEntityTags(): Promise<void> {
  compiling ??= xxhash().then((compiled) => {
    hasher = compiled;
  });
  return compiling;
}

/**
 * The largest body digested in one call. The hash copies its input into its WebAssembly memory,
 * which grows to the largest input and never shrinks: larger bodies are digested in parts this size.
 */
export const ENTITY_TAG_PART = 1024 * 1024;

/**
 * A strong entity tag of a representation (RFC 9110 §8.8.3): a 64-bit digest of the exact bytes
 * sent (a string is digested as its UTF-8 bytes, which is how it is sent), so two answers share a
 * tag only when their bodies are byte for byte the same. XXH64 rather than a cryptographic digest:
 * a tag only tells a representation from the others of the same resource, and every answer pays for
 * it (XXH64 in WebAssembly digests a large page several times faster than SHA-256 in hardware).
 */
export function entityTag(payload: string | Buffer): string {
  if (!hasher) throw new Error('entityTag: prepareEntityTags() has not completed');
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
  return `"${hex64(digest(hasher, bytes))}"`;
}

function digest(hash: XXHashAPI, bytes: Buffer): bigint {
  if (bytes.byteLength <= ENTITY_TAG_PART) return hash.h64Raw(bytes);
  const parts = hash.create64();
  for (let start = 0; start < bytes.byteLength; start += ENTITY_TAG_PART)
    parts.update(bytes.subarray(start, start + ENTITY_TAG_PART));
  return parts.digest();
}

const hex64 = (value: bigint): string => value.toString(16).padStart(16, '0');

/** The entity tags of an `If-None-Match` or `If-Match` field value, `*` as itself; repeated fields joined. */
export function entityTagList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return [value]
    .flat()
    .join(',')
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/** The opaque tag without a weakness indicator: weak comparison treats `W/"x"` and `"x"` alike (§8.8.3.2). */
function opaqueTag(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/**
 * Whether `If-None-Match` holds for a representation tagged `etag` (§13.1.2): false when the field
 * is `*` or lists the tag, compared weakly; true without the field.
 */
export function noneMatch(value: string | readonly string[] | undefined, etag: string): boolean {
  if (value === undefined) return true;
  const tags = entityTagList(value);
  const opaque = opaqueTag(etag);
  return !tags.some((tag) => tag === '*' || opaqueTag(tag) === opaque);
}

/**
 * Whether `If-Match` holds for a representation tagged `etag` (§13.1.1): `*`, or a listed tag
 * equal to it by strong comparison (a weak tag never matches). Absent, it holds.
 */
export function ifMatchHolds(value: string | readonly string[] | undefined, etag: string): boolean {
  if (value === undefined) return true;
  return entityTagList(value).some((tag) => tag === '*' || tag === etag);
}
