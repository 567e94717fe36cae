import type { ApiRequest } from '../../shared/api-request.js';
import type { RequestScope } from '../../telemetry/request-telemetry.js';

/**
 * Request headers that differ from one request to the next whatever it asks (a proxy's or a
 * tracer's id, the connection's own), or that each request's answer applies itself (`If-None-Match`).
 */
const PER_REQUEST_HEADERS = new Set([
  'x-request-id',
  'traceparent',
  'tracestate',
  'if-none-match',
  'connection',
  'keep-alive',
]);

/** The headers a request brought, but the per-request ones, as name and value pairs in their order. */
function sentHeaders(headers: Record<string, string | string[] | undefined>): unknown[] {
  const sent: unknown[] = [];
  for (const name in headers) if (!PER_REQUEST_HEADERS.has(name)) sent.push(name, headers[name]);
  return sent;
}

/**
 * The key of the requests whose answers are the same (`coalesceReads: 'request'`): interface,
 * path and query, every header the request brought (but those unique to each request), its client
 * address, and `origin` (its client and policy context, `shareKeyOf`).
 */
export function requestKey(request: ApiRequest, scope: RequestScope, origin: string): string {
  const sent = [sentHeaders(request.headers), request.raw.socket?.remoteAddress ?? null];
  return JSON.stringify([scope.interface, request.path, request.query, sent, origin]);
}

/**
 * The key of the requests whose answers are the same as long as the data is (revalidation from
 * changes, `coalesceReads: 'context'`): interface, path and query, the headers the services read
 * (`Accept`, `Content-Type`, `Prefer`) and the answers vary on (`varyNames`), and `origin`.
 */
export function contextKey(
  request: ApiRequest,
  scope: RequestScope,
  origin: string,
  varyNames: readonly string[] | undefined,
): string {
  const { headers } = request;
  const read = [headers.accept, headers['content-type'], headers.prefer].map((value) => value ?? null);
  const varied = varyNames?.map((name) => headers[name] ?? null) ?? null;
  return JSON.stringify([scope.interface, request.path, request.query, read, varied, origin]);
}
