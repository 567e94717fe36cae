import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import { RpcResultWriters, selectionShape } from './rpc-result-writers.js';

const registry = new ModelRegistry(modelMeta);
const post = registry.findByModelName('Post')!;
const user = registry.findByModelName('User')!;

describe('selectionShape', () => {
  it('writes the select/include/omit tree in order, nested trees and _count included', () => {
    expect(selectionShape(undefined)).toBe('');
    expect(selectionShape({ where: { id: 1 }, take: 2 })).toBe('');
    expect(
      selectionShape({
        where: { id: 1 },
        include: {
          tags: true,
          author: { select: { id: true }, where: { id: 2 } },
          _count: { select: { comments: true } },
        },
        omit: { content: true },
      }),
    ).toBe(
      'include{"tags":true,"author":(select{"id":true,}),"_count":(select{"comments":true,}),}omit{"content":true,}',
    );
  });

  it('tells apart selections that differ in members, values or order', () => {
    const shapes = [
      { include: { author: true, tags: true } },
      { include: { tags: true, author: true } },
      { include: { author: true, tags: false } },
      { select: { author: true, tags: true } },
      { include: { author: { include: { profile: true } }, tags: true } },
    ].map(selectionShape);
    expect(new Set(shapes).size).toBe(shapes.length);
  });
});

describe('RpcResultWriters', () => {
  it('keeps one writer per model and selection shape of model-returning operations', () => {
    const writers = new RpcResultWriters(registry);
    const many = writers.find(post, 'findMany', { include: { author: true }, take: 5 });
    expect(many).toBeDefined();
    expect(writers.find(post, 'findFirst', { include: { author: true }, where: { id: 1 } })).toBe(many);
    expect(writers.find(post, 'findMany', { include: { tags: true } })).not.toBe(many);
    expect(writers.find(user, 'findMany', { include: { author: true } })).not.toBe(many);
    for (const operation of ['count', 'aggregate', 'groupBy', 'createMany', 'updateMany', 'deleteMany'])
      expect(writers.find(post, operation, {})).toBeUndefined();
  });

  it('evicts the oldest writer past its capacity', () => {
    const writers = new RpcResultWriters(registry, 2);
    const first = writers.find(post, 'findMany', {});
    const second = writers.find(post, 'findMany', { include: { tags: true } });
    expect(writers.find(post, 'findMany', {})).toBe(first);
    writers.find(post, 'findMany', { include: { author: true } });
    expect(writers.find(post, 'findMany', { include: { tags: true } })).toBe(second);
    expect(writers.find(post, 'findMany', {})).not.toBe(first);
  });

  it('leaves a very large selection to the generic walk', () => {
    const select = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`field${index}`, true]));
    expect(new RpcResultWriters(registry).find(post, 'findMany', { select })).toBeUndefined();
  });
});
