import { MAX_QUOTED_INPUT } from '../errors/quote-input.js';

/**
 * The JSON pointer (RFC 6901) of a path into a request body, for an error's `source.pointer`.
 * A member name longer than an error message may quote ends the pointer at its parent: the client's
 * megabyte key must not come back in the error document.
 */
export function jsonPointer(path: readonly (string | number)[]): string {
  let pointer = '';
  for (const segment of path) {
    const text = String(segment);
    if (text.length > MAX_QUOTED_INPUT) break;
    pointer +=
      text.includes('~') || text.includes('/') ? `/${text.replaceAll('~', '~0').replaceAll('/', '~1')}` : `/${text}`;
  }
  return pointer;
}
