import type { ModuleRef } from '@nestjs/core';

import { LiveQueries } from '../changes/live-queries.js';
import type { DataModelMeta } from '../metadata/model-meta.types.js';
import { resolveCrudApiOptions } from '../module/resolve-options.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { toApiRequest } from '../shared/api-request.js';
import { PrismaClientResolver } from './prisma-client.resolver.js';

const modelMeta: DataModelMeta = { provider: 'sqlite', models: {}, enums: {} } as unknown as DataModelMeta;
const MOUNT = { restPath: 'api/rest', rpcPath: 'api/rpc' };
/** An application without an event emitter. */
const noModules = {
  get: () => {
    throw new Error('not provided');
  },
} as unknown as ModuleRef;
const client = (name: string) => ({ name, $transaction: async () => undefined }) as unknown as PrismaClientLike;

describe('PrismaClientResolver', () => {
  it('calls getPrisma once per request, however often the request asks', async () => {
    const calls: unknown[] = [];
    const resolver = new PrismaClientResolver(
      resolveCrudApiOptions(
        {
          endpoint: 'http://localhost/api/rest',
          modelMeta,
          getPrisma: async (req) => {
            calls.push(req);
            return client(`for ${req.url}`);
          },
        },
        MOUNT,
      ),
      noModules,
      new LiveQueries(undefined, modelMeta),
    );
    const first = toApiRequest({ method: 'GET', url: '/a', headers: {} });
    const second = toApiRequest({ method: 'GET', url: '/b', headers: {} });
    const [a1, a2] = await Promise.all([resolver.forRequest(first), resolver.forRequest(first)]);
    expect(await resolver.forRequest(first)).toBe(a1);
    expect(a2).toBe(a1);
    expect((await resolver.forRequest(second)).name).toBe('for /b');
    expect(calls).toEqual([first.raw, second.raw]);
  });

  it('serves the shared client without getPrisma', async () => {
    const shared = client('shared');
    const resolver = new PrismaClientResolver(
      resolveCrudApiOptions({ endpoint: 'http://localhost/api/rest', modelMeta, prisma: shared }, MOUNT),
      noModules,
      new LiveQueries(undefined, modelMeta),
    );
    expect(await resolver.forRequest(toApiRequest({ method: 'GET', url: '/', headers: {} }))).toBe(shared);
  });
});
