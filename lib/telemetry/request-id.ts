import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** An id a client or proxy may hand in: short, and safe in headers and log lines. */
const WELL_FORMED_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The id of a request: its own well-formed `X-Request-Id` (a proxy's, a client's), else a new UUID. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && WELL_FORMED_ID.test(given) ? given : randomUUID();
}
