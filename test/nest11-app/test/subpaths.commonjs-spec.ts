import { CrudApiModule, type PoliciesFor } from 'nestjs-crud-api';
import { createRpcClient, type RpcClient, RpcClientError } from 'nestjs-crud-api/client';
import { createRpcHooks, rpcQueryKey } from 'nestjs-crud-api/client/react';
import { modelMeta } from './../src/generated/crud-api';
import type { PrismaClient } from './../src/generated/prisma/client';
import { type AppContext, policies } from './../src/policies';
import type { PrismaService } from './../src/prisma.service';

// The application type-checked as `nest new` set it up before Nest 11 (tsconfig.commonjs.json:
// `module: commonjs`, so `moduleResolution` node10, which reads no package `exports`), by ts-jest
// with type checking (test/jest-commonjs.json). Every entry point's types must resolve, and be the
// real ones: each `@ts-expect-error` below is an error only then (with `any` it is unused, TS2578).

describe('nestjs-crud-api and its subpaths in a CommonJS application type-checked under node10', () => {
  it('nestjs-crud-api: the module and the policy types of the application', () => {
    const typed: PoliciesFor<PrismaService, AppContext> = policies;
    // @ts-expect-error `title` is a string column
    const wrong: PoliciesFor<PrismaService, AppContext> = { Post: { read: { title: 1 } } };
    expect([typeof CrudApiModule.forRoot, typed, wrong.Post?.read]).toEqual(['function', policies, { title: 1 }]);
  });

  it('nestjs-crud-api/client: the typed client of the application', async () => {
    const fetch = async () =>
      new Response(JSON.stringify({ error: { message: 'No.', errorCode: 'rejected-by-policy' } }), { status: 403 });
    const client: RpcClient<PrismaClient> = createRpcClient<PrismaClient>({
      baseUrl: 'http://api.test/api/rpc',
      fetch,
    });
    // @ts-expect-error not a model of the schema (at run time any name is)
    void client.nothing;
    const refused = await client.post.create({ data: { title: 'Anonymous', authorId: 1 } }).catch((error) => error);
    expect(refused).toBeInstanceOf(RpcClientError);
    expect((refused as RpcClientError).errorCode).toBe('rejected-by-policy');
  });

  it('nestjs-crud-api/client/react: the TanStack Query hooks and query keys', () => {
    const client = createRpcClient<PrismaClient>({ baseUrl: 'http://api.test/api/rpc' });
    const { useRpcQuery, useRpcMutation } = createRpcHooks({ modelMeta });
    expect([typeof useRpcQuery, typeof useRpcMutation]).toEqual(['function', 'function']);
    // @ts-expect-error `published` is a boolean column
    rpcQueryKey(client.post.findMany({ where: { published: 'yes' } }));
    expect(rpcQueryKey(client.post.findMany({ where: { published: true } }))).toEqual([
      expect.any(String),
      'post',
      'findMany',
      { args: { where: { published: true } } },
    ]);
  });
});
