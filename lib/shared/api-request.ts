import type { IncomingHttpHeaders } from 'node:http';

/**
 * The platform's own request object: Express's `Request` or Fastify's `FastifyRequest`, with
 * whatever the application's guards and middleware put on it (`request.user`).
 */
// Its type varies with the application's platform and middleware: `any` lets the application's
// callbacks read what its guards put there with the types the application gave them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PlatformRequest = any;

/** What the services need of an HTTP request, whatever platform (Express, Fastify) received it. */
export interface ApiRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** URL path as received, without the query string. */
  path: string;
  /** Raw query string, without the `?` (`''` when there is none). */
  query: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, `undefined` without one. */
  body: unknown;
  /** The platform's request: handed to `getPrisma` and `context`, and the key of per-request state. */
  raw: PlatformRequest;
  /** Its id (its `X-Request-Id`), once the module began serving it. */
  id?: string;
}

/** Whether a request of this method only reads (GET, HEAD): it writes nothing, so has no change to tell. */
export const isReadMethod = (method: string): boolean => method === 'GET' || method === 'HEAD';

/** The fields both Express's and Fastify's request objects have. */
interface RequestFields {
  method: string;
  url: string;
  originalUrl?: string;
  headers: IncomingHttpHeaders;
  body?: unknown;
}

/** The URL path of a platform request, without the query string. */
export function requestPath(raw: Pick<RequestFields, 'url' | 'originalUrl'>): string {
  const url = raw.originalUrl ?? raw.url;
  const mark = url.indexOf('?');
  return mark < 0 ? url : url.slice(0, mark);
}

/** Describes a platform request (`originalUrl` survives Express's sub-routers rewriting `url`). */
export function toApiRequest(raw: RequestFields): ApiRequest {
  const url = raw.originalUrl ?? raw.url;
  const path = requestPath(raw);
  return {
    method: raw.method,
    path,
    query: url.slice(path.length + 1),
    headers: raw.headers,
    body: raw.body,
    raw,
    // Set when the request begins: present from the start, so every request object has one shape.
    id: undefined,
  };
}

/** Query parameters by name: a string, or the list of values of a repeated name. */
export function queryParameters(query: string): Record<string, string | string[]> {
  const parameters: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(query)) {
    const seen = parameters[name];
    parameters[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return parameters;
}
