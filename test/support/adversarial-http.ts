import type { TestAppHandle } from './test-app.js';

export const JSON_API = 'application/vnd.api+json';

export interface RawReply {
  status: number;
  body: any;
}

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * Calls the RPC interface with arguments given as JSON text, byte for byte as an attacker would
 * send them: no superjson on the client side (it refuses `__proto__` keys itself), so the server's
 * parser is the first to see them. GET/DELETE carry the text in `q`, the others in the body.
 */
export async function rawRpc(t: TestAppHandle, method: Method, path: string, json: string): Promise<RawReply> {
  const request = t.http()[method](`/api/rpc/${path}`);
  const res = await (method === 'get' || method === 'delete'
    ? request.query({ q: json })
    : request.set('Content-Type', 'application/json').send(json));
  return { status: res.status, body: res.body };
}

/** A JSON:API request with a body given as JSON text (or none), and an optional raw query string. */
export async function rawRest(t: TestAppHandle, method: Method, path: string, json?: string): Promise<RawReply> {
  const request = t.http()[method](`/api/rest/${path}`).set('Accept', JSON_API);
  const res = await (json === undefined ? request : request.set('Content-Type', JSON_API).send(json));
  return { status: res.status, body: res.body };
}

/** The policy reason of an RPC error answer. */
export const rpcReason = (body: any): string | undefined => body?.error?.reason;

/** The policy reason of a JSON:API error answer. */
export const restReason = (body: any): string | undefined => body?.errors?.[0]?.meta?.reason;
