import { Decimal } from '@prisma/client/runtime/client';
import { SuperJSON } from 'superjson';

import { registerPrismaTypes } from '../../lib/index.js';
import type { TestApp } from './test-app.js';

/** What a client of the RPC interface does: superjson with the library's Decimal and Bytes registrations. */
export const clientSuperJSON = registerPrismaTypes(new SuperJSON(), Decimal);

export interface RpcReply {
  status: number;
  body: any;
  headers: Record<string, string>;
  /** `data` restored with `meta.serialization`, as a client would read it. */
  data: any;
}

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** The query string of a GET/DELETE call: `q` carries superjson's `json`, `meta` its metadata. */
export function rpcQuery(args: unknown): Record<string, string> {
  const { json, meta } = clientSuperJSON.serialize(args);
  return meta
    ? { q: JSON.stringify(json), meta: JSON.stringify({ serialization: meta }) }
    : { q: JSON.stringify(json) };
}

/** The path of a GET call of `operation` on `model` (its delegate name) with `args`. */
export const rpcPath = (model: string, operation: string, args: unknown): string =>
  `/api/rpc/${model}/${operation}?${new URLSearchParams(rpcQuery(args))}`;

/** The body of a POST/PATCH/PUT call: superjson's `json` with a top-level `meta` when needed. */
export function rpcBody(args: unknown): Record<string, unknown> {
  const { json, meta } = clientSuperJSON.serialize(args);
  return meta ? { ...(json as object), meta: { serialization: meta } } : (json as Record<string, unknown>);
}

/** What a call sends besides its arguments: further query parameters (`withDeleted`), headers. */
export interface RpcCallExtras {
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

/** Calls `/{model}/{operation}` the way the specification describes, and restores the result's types. */
export async function callRpc(
  t: Pick<TestApp, 'http'>,
  method: Method,
  path: string,
  args?: unknown,
  base = '/api/rpc',
  { query = {}, headers = {} }: RpcCallExtras = {},
): Promise<RpcReply> {
  const url = `${base}/${path}`;
  const request = t.http()[method](url).set(headers);
  const res = await (method === 'get' || method === 'delete'
    ? request.query({ ...(args === undefined ? {} : rpcQuery(args)), ...query })
    : args === undefined
      ? request.query(query)
      : request.query(query).send(rpcBody(args)));
  const body = res.body;
  const data =
    body && 'data' in body
      ? body.meta?.serialization
        ? clientSuperJSON.deserialize({ json: body.data, meta: body.meta.serialization })
        : body.data
      : undefined;
  return { status: res.status, body, headers: res.headers as Record<string, string>, data };
}
