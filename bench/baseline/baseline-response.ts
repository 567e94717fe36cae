import type { Response } from 'express';

/** Fastify's reply, as the baselines use it. */
interface FastifyReply {
  raw: unknown;
  code(status: number): FastifyReply;
  headers(values: Record<string, string>): FastifyReply;
  send(payload: Buffer): unknown;
}

/** The response a baseline writes: Express's, or Fastify's reply (`npm run bench -- --platform fastify`). */
export type BaselineResponse = Response | FastifyReply;

/** The request fields the baselines read, which Express's and Fastify's requests both have. */
export interface BaselineRequest {
  url: string;
  originalUrl: string;
}

/**
 * Writes `body` with exactly `contentType`, as our module writes its answers on each platform:
 * `setHeader` + `end` on Express, a Buffer payload on Fastify (neither then adds a `charset`).
 */
export function sendBytes(
  res: BaselineResponse,
  status: number,
  contentType: string,
  body: Buffer,
  headers: Record<string, string> = {},
): void {
  if ('raw' in res) {
    res
      .code(status)
      .headers({ ...headers, 'content-type': contentType })
      .send(body);
    return;
  }
  res.statusCode = status;
  for (const name in headers) res.setHeader(name, headers[name]!);
  res.setHeader('Content-Type', contentType);
  res.end(body);
}
