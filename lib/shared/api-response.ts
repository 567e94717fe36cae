import type { ServerResponse } from 'node:http';

/** What a service returns to its controller: status, headers and an already-shaped body. */
export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A header value as the platforms hold it. */
type HeaderValue = string | number | readonly string[] | undefined;

/** Node's `ServerResponse`, which Express's response is. */
interface NodeResponse {
  statusCode: number;
  headersSent: boolean;
  getHeader(name: string): HeaderValue;
  setHeader(name: string, value: string): unknown;
  end(chunk?: Buffer): unknown;
}

/** Fastify's reply: headers set on it are written only by its own `send`. */
interface FastifyReply {
  raw: unknown;
  sent: boolean;
  getHeader(name: string): HeaderValue;
  getHeaders(): Record<string, HeaderValue>;
  hijack(): unknown;
  status(code: number): FastifyReply;
  headers(values: Record<string, string>): FastifyReply;
  send(payload?: Buffer): unknown;
}

/** The response object of the platform serving the request. */
export type PlatformResponse = NodeResponse | FastifyReply;

function isFastifyReply(response: PlatformResponse): response is FastifyReply {
  return 'raw' in response && typeof (response as FastifyReply).send === 'function';
}

/**
 * The Node response under either platform's, for an answer written in parts (an event stream):
 * Fastify's is taken over from it (`hijack`), with the headers its hooks already set on the reply.
 */
export function nodeResponseOf(response: PlatformResponse): ServerResponse {
  if (!isFastifyReply(response)) return response as unknown as ServerResponse;
  const raw = response.raw as ServerResponse;
  for (const [name, value] of Object.entries(response.getHeaders()))
    if (value !== undefined) raw.setHeader(name, value);
  response.hijack();
  return raw;
}

/** Sets headers on the platform's response ahead of its answer, whichever answer (or error) it turns out to be. */
export function setResponseHeaders(response: PlatformResponse, headers: Record<string, string>): void {
  if (isFastifyReply(response)) response.headers(headers);
  else setHeaders(response, headers);
}

export function isResponseSent(response: PlatformResponse): boolean {
  return isFastifyReply(response) ? response.sent : response.headersSent;
}

/** The JSON text of an answer's body, or none. */
export function bodyText(body: unknown): string | undefined {
  return body === undefined ? undefined : JSON.stringify(body);
}

/** The bytes of an answer's body: its JSON, or none. */
export function bodyBytes(body: unknown): Buffer | undefined {
  const text = bodyText(body);
  return text === undefined ? undefined : Buffer.from(text);
}

/**
 * Writes the response as given on either platform, with `extraHeaders` (the request id). The body
 * goes out as bytes (`payload`, the body's own by default) with exactly `contentType`: neither
 * platform then adds `charset=utf-8`, which JSON:API forbids (media type parameters other than
 * `ext` and `profile`) and JSON does not need (it is UTF-8 by definition).
 */
export function sendApiResponse(
  response: PlatformResponse,
  { status, body, headers }: ApiResponse,
  contentType: string,
  extraHeaders?: Record<string, string>,
  payload: Buffer | undefined = bodyBytes(body),
): void {
  if (isFastifyReply(response)) {
    const all = { ...headers, ...extraHeaders };
    if (payload !== undefined) all['Content-Type'] = contentType;
    sendBytes(response, status, all, payload);
    return;
  }
  // Every answer goes through here: headers are set from each object in turn, with no merged copy.
  response.statusCode = status;
  setHeaders(response, headers);
  setHeaders(response, extraHeaders);
  if (payload !== undefined) response.setHeader('Content-Type', contentType);
  response.end(payload);
}

function setHeaders(response: NodeResponse, headers: Record<string, string> | undefined): void {
  for (const name in headers) response.setHeader(name, joinedValue(response, name, headers[name]!));
}

/**
 * The `Vary` of both values: each field name once (case-insensitively, the first spelling kept),
 * or `*` alone when either has it (RFC 9110 §12.5.5: it already says everything varies).
 */
export function mergeVary(...values: HeaderValue[]): string {
  const names = new Map<string, string>();
  for (const value of values.flat()) {
    for (const name of String(value ?? '').split(',')) {
      const trimmed = name.trim();
      if (trimmed && !names.has(trimmed.toLowerCase())) names.set(trimmed.toLowerCase(), trimmed);
    }
  }
  return names.has('*') ? '*' : [...names.values()].join(', ');
}

/**
 * A header of the module's answer joined with what the application already set on the response
 * (its CORS middleware's `Vary: Origin`, its interceptors' `Cache-Control`): `Vary` merged,
 * `Cache-Control` the application's, every other header the module's own (they describe its answer).
 */
function joinedValue(response: PlatformResponse, name: string, value: string): string {
  // Most headers are neither: their length tells without lower-casing every name of every answer.
  if (name.length !== 4 && name.length !== 13) return value;
  const key = name.toLowerCase();
  if (key !== 'vary' && key !== 'cache-control') return value;
  const set = valuesSet(response, name);
  if (set.length === 0) return value;
  return key === 'vary' ? mergeVary(...set, value) : [set[0]!].flat().join(', ');
}

/**
 * The values of a header already set on the response. On Fastify a middleware may have set it on
 * the raw response and a hook on the reply (`@fastify/cors`); the reply's would replace the raw's.
 */
function valuesSet(response: PlatformResponse, name: string): Array<NonNullable<HeaderValue>> {
  const values = isFastifyReply(response)
    ? [response.getHeader(name), (response.raw as Partial<NodeResponse>).getHeader?.(name)]
    : [response.getHeader(name)];
  return values.filter((value) => value !== undefined);
}

/**
 * Writes status, headers and bytes on either platform, the application's headers joined
 * (`joinedValue`). `headers` is the answer's own object: its values are replaced by the joined ones.
 */
export function sendBytes(
  response: PlatformResponse,
  status: number,
  headers: Record<string, string>,
  payload: Buffer | undefined,
): void {
  if (isFastifyReply(response)) {
    for (const name in headers) headers[name] = joinedValue(response, name, headers[name]!);
    response.status(status).headers(headers).send(payload);
    return;
  }
  response.statusCode = status;
  setHeaders(response, headers);
  response.end(payload);
}
