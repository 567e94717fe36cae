import type { IncomingHttpHeaders } from 'node:http';

import { CrudApiError } from '../errors/crud-api.error.js';
import { parseWalPosition } from '../shared/consistency-token.js';
import type { ResolvedReplicas } from './replicas.types.js';

/** The cookie of `name` in a `Cookie` header, if it has one. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of header?.split(';') ?? []) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * Reads the position a read's token names: its header, else its cookie; none without either. A
 * token that names no position is refused (400), not ignored: the caller asked for a guarantee.
 * Made once per module instance: the header's name is lower-cased at start-up, as Node has the
 * names of the headers it received.
 */
export function tokenReader(settings: ResolvedReplicas): (headers: IncomingHttpHeaders) => bigint | undefined {
  const name = settings.header.toLowerCase();
  return (headers) => {
    const sent = headers[name];
    const text =
      typeof sent === 'string' ? sent : settings.cookie ? cookieValue(headers.cookie, settings.cookie) : undefined;
    if (text === undefined) return undefined;
    const position = parseWalPosition(text.trim());
    if (position === undefined)
      throw new CrudApiError(
        'invalid-request',
        `The ${settings.header} header (or cookie) must be a token a write answered, like 0/16B3748`,
      );
    return position;
  };
}

/** The headers that hand a write's token to its caller: the header, and the cookie when there is one. */
export function tokenHeaders(token: string, settings: ResolvedReplicas): Record<string, string> {
  const headers: Record<string, string> = { [settings.header]: token };
  if (settings.cookie) headers['Set-Cookie'] = `${settings.cookie}=${token}; Path=/; HttpOnly; SameSite=Lax`;
  return headers;
}
