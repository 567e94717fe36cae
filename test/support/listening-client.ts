import { Decimal } from '@prisma/client/runtime/client';

import type { SamplePrismaClient } from '../../fixtures/blog/database/create-prisma-client.js';
import { createRpcClient, type RpcClient, type RpcClientOptions } from '../../lib/client/index.js';
import type { TestAppHandle } from './test-app.js';

/** Puts the test app on a loopback port and answers the URL of its RPC interface. */
export async function listenRpc(t: TestAppHandle): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  return `${(await t.app.getUrl()).replace('[::1]', '127.0.0.1')}/api/rpc`;
}

/** The typed RPC client of the sample schema, restoring decimals into Prisma's Decimal. */
export function sampleRpcClient(
  baseUrl: string,
  options: Partial<RpcClientOptions> = {},
): RpcClient<SamplePrismaClient> {
  return createRpcClient<SamplePrismaClient>({ baseUrl, decimal: Decimal, ...options });
}
