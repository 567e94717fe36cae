import type { Request } from 'express';
import { resolveCrudApiOptions } from '../crud-api-options.validation.js';
import type { DataModelMeta } from '../metadata/model-meta.types.js';
import type { PrismaClientLike } from './prisma-client-like.js';
import { PrismaClientResolver } from './prisma-client.resolver.js';

const modelMeta: DataModelMeta = { provider: 'sqlite', models: {}, enums: {} } as unknown as DataModelMeta;
const client = (name: string) => ({ name, $transaction: async () => undefined }) as unknown as PrismaClientLike;

describe('PrismaClientResolver', () => {
  it('calls getPrisma once per request, however often the request asks', async () => {
    const calls: Request[] = [];
    const resolver = new PrismaClientResolver(
      resolveCrudApiOptions({
        endpoint: 'http://localhost/api/rest',
        modelMeta,
        getPrisma: async (req) => {
          calls.push(req);
          return client(`for ${req.url}`);
        },
      }),
    );
    const first = { url: '/a' } as Request;
    const second = { url: '/b' } as Request;
    const [a1, a2] = await Promise.all([resolver.forRequest(first), resolver.forRequest(first)]);
    expect(await resolver.forRequest(first)).toBe(a1);
    expect(a2).toBe(a1);
    expect((await resolver.forRequest(second)).name).toBe('for /b');
    expect(calls).toEqual([first, second]);
  });

  it('serves the shared client without getPrisma', async () => {
    const shared = client('shared');
    const resolver = new PrismaClientResolver(resolveCrudApiOptions({ endpoint: 'http://localhost/api/rest', modelMeta, prisma: shared }));
    expect(await resolver.forRequest({} as Request)).toBe(shared);
  });
});
