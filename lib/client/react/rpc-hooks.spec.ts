import { QueryClient, QueryClientProvider, type UseMutationResult } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';

import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { createRpcClient } from '../create-rpc-client.js';
import { withDeleted } from '../rpc-promise.js';
import { rpcQueryKey } from './query-key.js';
import { createRpcHooks } from './rpc-hooks.js';

type Model = Record<string, (args?: unknown) => PromiseLike<unknown>>;

/**
 * The `mutateAsync` of a `useRpcMutation` rendered once: TanStack Query's MutationObserver takes
 * the hook's options when it is made, so mutations run without a DOM.
 */
function renderedMutation(
  build: (title: string) => PromiseLike<unknown>,
  retry: number,
  queryClient = new QueryClient(),
): UseMutationResult<unknown, unknown, string>['mutateAsync'] {
  const { useRpcMutation } = createRpcHooks({ modelMeta });
  let mutation: UseMutationResult<unknown, unknown, string> | undefined;
  const Probe = () => {
    mutation = useRpcMutation(build, { retry, retryDelay: 0 });
    return null;
  };
  renderToString(createElement(QueryClientProvider, { client: queryClient }, createElement(Probe)));
  return mutation!.mutateAsync;
}

describe('useRpcMutation', () => {
  it('sends one Idempotency-Key per mutate(), the same on each retry', async () => {
    const keys: (string | null)[] = [];
    let failures = 2;
    const client = createRpcClient<never>({
      baseUrl: 'http://api.test/rpc',
      fetch: async (_input, init) => {
        keys.push(new Headers(init?.headers).get('Idempotency-Key'));
        if (failures-- > 0) return new Response('{"error":{"message":"busy"}}', { status: 503 });
        return new Response(JSON.stringify({ data: { id: keys.length } }), { status: 201 });
      },
    }) as unknown as Record<string, Model>;
    const mutate = renderedMutation((title) => client.post.create({ data: { title, authorId: 1 } }), 2);

    expect(await mutate('first')).toEqual({ id: 3 });
    expect(await mutate('first')).toEqual({ id: 4 });
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^"[0-9a-f-]{36}"$/);
    expect(keys.slice(1, 3)).toEqual([keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('invalidates the queries of the restored model and its relations, with deleted rows or without', async () => {
    const client = createRpcClient<never>({
      baseUrl: 'http://api.test/rpc',
      fetch: async () => new Response(JSON.stringify({ data: { id: 1 } }), { status: 200 }),
    }) as unknown as Record<string, Model>;
    const queryClient = new QueryClient();
    const keys = [
      rpcQueryKey(withDeleted(client.comment.findMany())),
      rpcQueryKey(client.post.count()),
      rpcQueryKey(client.profile.findMany()),
    ];
    for (const key of keys) queryClient.setQueryData(key, []);
    const restore = renderedMutation(() => client.post.restore({ where: { id: 1 } }), 0, queryClient);
    await restore('');
    expect(keys.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([true, true, false]);
  });

  it('invalidates the model’s history and reads as of a past time on restoreVersion, as any update', async () => {
    const client = createRpcClient<never>({
      baseUrl: 'http://api.test/rpc',
      fetch: async () => new Response(JSON.stringify({ data: { id: 1 } }), { status: 200 }),
    }) as unknown as Record<string, Model>;
    const queryClient = new QueryClient();
    const keys = [
      rpcQueryKey(client.post.history({ where: { id: 1 } })),
      rpcQueryKey(client.post.findMany({ asOf: new Date(0) })),
      rpcQueryKey(client.tag.history({ where: { id: 1 } })),
    ];
    for (const key of keys) queryClient.setQueryData(key, []);
    const restore = renderedMutation(
      () => client.post.restoreVersion({ where: { id: 1 }, version: 2 }),
      0,
      queryClient,
    );
    await restore('');
    expect(keys.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([true, true, false]);
  });
});
