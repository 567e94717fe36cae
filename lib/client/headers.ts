import type { RpcClientOptions } from './rpc-client.types.js';

/** The headers of one request: the option's object, or what its function answers now (a fresh access token...). */
export async function resolveHeaders(headers: RpcClientOptions['headers']): Promise<Headers> {
  return new Headers(typeof headers === 'function' ? await headers() : headers);
}
