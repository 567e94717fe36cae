/** What a service returns to its controller: status, headers and an already-shaped body. */
export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Node's `ServerResponse`, which Express's response is. */
interface NodeResponse {
  statusCode: number;
  headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  end(chunk?: Buffer): unknown;
}

/** Fastify's reply: headers set on it are written only by its own `send`. */
interface FastifyReply {
  raw: unknown;
  sent: boolean;
  status(code: number): FastifyReply;
  headers(values: Record<string, string>): FastifyReply;
  send(payload?: Buffer): unknown;
}

/** The response object of the platform serving the request. */
export type PlatformResponse = NodeResponse | FastifyReply;

function isFastifyReply(response: PlatformResponse): response is FastifyReply {
  return 'raw' in response && typeof (response as FastifyReply).send === 'function';
}

export function isResponseSent(response: PlatformResponse): boolean {
  return isFastifyReply(response) ? response.sent : response.headersSent;
}

/**
 * Writes the response as given on either platform, with `extraHeaders` (the request id). The body
 * goes out as bytes with exactly `contentType`: neither platform then adds `charset=utf-8`, which
 * JSON:API forbids (media type parameters other than `ext` and `profile`) and JSON does not need
 * (it is UTF-8 by definition).
 */
export function sendApiResponse(
  response: PlatformResponse,
  { status, body, headers }: ApiResponse,
  contentType: string,
  extraHeaders?: Record<string, string>,
): void {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  sendBytes(
    response,
    status,
    payload === undefined
      ? { ...headers, ...extraHeaders }
      : { ...headers, ...extraHeaders, 'Content-Type': contentType },
    payload,
  );
}

/** Writes status, headers and bytes as they are, on either platform. */
export function sendBytes(
  response: PlatformResponse,
  status: number,
  headers: Record<string, string>,
  payload: Buffer | undefined,
): void {
  if (isFastifyReply(response)) {
    response.status(status).headers(headers).send(payload);
    return;
  }
  response.statusCode = status;
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  response.end(payload);
}
