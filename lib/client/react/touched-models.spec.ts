import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { createRpcClient } from '../create-rpc-client.js';
import { modelsByClientName } from '../model-names.js';
import { withDeleted } from '../rpc-promise.js';
import { queryKeyOfCall, readRpcQueryKey, rpcQueryKey } from './query-key.js';
import { modelsInArgs, mutatedModels } from './touched-models.js';

const sorted = (models: Set<string>) => [...models].sort();

describe('models a call reaches', () => {
  it('maps client names to Prisma names', () => {
    expect(modelsByClientName(modelMeta).get('post')).toBe('Post');
  });

  it('follows nested writes at any depth, through create, upsert and connectOrCreate wrappers', () => {
    const args = {
      data: {
        title: 't',
        author: {
          connectOrCreate: { where: { id: 1 }, create: { email: 'e', name: 'n', profile: { create: { bio: 'b' } } } },
        },
        tags: { connect: [{ id: 1 }] },
      },
    };
    expect(sorted(mutatedModels(modelMeta, 'Post', 'create', args))).toEqual(['Post', 'Profile', 'Tag', 'User']);
    expect(sorted(mutatedModels(modelMeta, 'User', 'update', { where: { id: 1 }, data: { name: 'x' } }))).toEqual([
      'User',
    ]);
    expect(sorted(mutatedModels(modelMeta, 'Post', 'createMany', { data: [{ title: 'a', authorId: 1 }] }))).toEqual([
      'Post',
    ]);
  });

  it('counts the models holding a foreign key to a deleted model as changed', () => {
    expect(sorted(mutatedModels(modelMeta, 'Post', 'delete', { where: { id: 1 } }))).toEqual([
      'Comment',
      'Like',
      'Post',
      'Tag',
      'User',
    ]);
  });

  it('counts the related models as changed by a restore or a hard delete too', () => {
    const deleted = sorted(mutatedModels(modelMeta, 'Post', 'delete', { where: { id: 1 } }));
    for (const operation of ['restore', 'hardDelete'])
      expect(sorted(mutatedModels(modelMeta, 'Post', operation, { where: { id: 1 } }))).toEqual(deleted);
    expect(sorted(mutatedModels(modelMeta, 'Post', 'update', { where: { id: 1 }, data: {} }))).toEqual(['Post']);
  });

  it('reads the models of include, select and relation filters of a query', () => {
    expect(
      sorted(
        modelsInArgs(modelMeta, 'Post', {
          where: { author: { is: { name: 'a' } } },
          include: { comments: { select: { author: true } } },
        }),
      ),
    ).toEqual(['Comment', 'Post', 'User']);
    expect(sorted(modelsInArgs(modelMeta, 'Tag', undefined))).toEqual(['Tag']);
    // A Json value shaped like a relation may name a model more, never fewer.
    expect(modelsInArgs(modelMeta, 'Post', { data: { metadata: { title: 'x' } } }).has('Post')).toBe(true);
  });
});

describe('query keys', () => {
  const client = createRpcClient<never>({ baseUrl: 'http://unused' }) as unknown as Record<
    string,
    Record<string, (args?: unknown) => PromiseLike<unknown>>
  >;

  it('are equal for equal calls, with special values in superjson form', () => {
    const at = new Date(0);
    const key = rpcQueryKey(client.post.findMany({ where: { createdAt: at, views: 1n } }));
    expect(key).toEqual(rpcQueryKey(client.post.findMany({ where: { createdAt: new Date(0), views: 1n } })));
    expect(key).toEqual([
      'nestjs-crud-api',
      'post',
      'findMany',
      {
        args: { where: { createdAt: at.toISOString(), views: '1' } },
        meta: { v: 1, values: { 'where.createdAt': ['Date'], 'where.views': ['bigint'] } },
      },
    ]);
    expect(JSON.parse(JSON.stringify(key))).toEqual(key);
    expect(readRpcQueryKey(key)).toEqual({
      model: 'post',
      args: { where: { createdAt: at.toISOString(), views: '1' } },
    });
    expect(readRpcQueryKey(['other', 'post'])).toBeUndefined();
  });

  it('tell fluent calls from the same call without the relation method', () => {
    const root = client.post.findUnique({ where: { id: 1 } }) as PromiseLike<unknown> &
      Record<string, (args?: unknown) => PromiseLike<unknown>>;
    expect(rpcQueryKey(root.author())).toEqual([
      'nestjs-crud-api',
      'post',
      'findUnique',
      { args: { where: { id: 1 }, select: { author: true } }, fluent: ['author'] },
    ]);
    expect(queryKeyOfCall({ model: 'post', operation: 'count', fluent: [] })).toEqual([
      'nestjs-crud-api',
      'post',
      'count',
      {},
    ]);
  });

  it('tell a read with deleted rows from the same read without', () => {
    const args = { where: { id: 1 } };
    expect(rpcQueryKey(withDeleted(client.post.findMany(args)))).toEqual([
      'nestjs-crud-api',
      'post',
      'findMany',
      { args, withDeleted: true },
    ]);
    expect(rpcQueryKey(client.post.findMany(args))).toEqual(['nestjs-crud-api', 'post', 'findMany', { args }]);
    expect(readRpcQueryKey(rpcQueryKey(withDeleted(client.post.findMany(args))))).toEqual({ model: 'post', args });
  });

  it('are only made of calls of a client', () => {
    expect(() => rpcQueryKey(Promise.resolve([]))).toThrow(TypeError);
  });
});
