import { fluentArgs, fluentResult } from './fluent-call.js';

describe('fluent calls', () => {
  it('leaves a call without relation methods as it is', () => {
    const args = { where: { id: 1 }, include: { author: true } };
    expect(fluentArgs(args, [])).toBe(args);
    expect(fluentResult({ id: 1 }, [])).toEqual({ id: 1 });
  });

  it('replaces the root selection by the nested select of the path, keeping each step’s own arguments last', () => {
    const steps = [
      { field: 'post' },
      { field: 'author', args: { include: { profile: true } } },
      { field: 'posts', args: { where: { published: true }, select: { id: true } } },
    ];
    expect(fluentArgs({ where: { id: 1 }, include: { likes: true } }, steps)).toEqual({
      where: { id: 1 },
      select: {
        post: { select: { author: { select: { posts: { where: { published: true }, select: { id: true } } } } } },
      },
    });
    expect(fluentArgs(undefined, [{ field: 'author' }])).toEqual({ select: { author: true } });
  });

  it('answers the value at the end of the path, null where a record is missing', () => {
    const steps = [{ field: 'post' }, { field: 'author' }];
    expect(fluentResult({ post: { author: { id: 7 } } }, steps)).toEqual({ id: 7 });
    expect(fluentResult({ post: null }, steps)).toBeNull();
    expect(fluentResult(null, steps)).toBeNull();
    expect(fluentResult({ post: { author: [] } }, steps)).toEqual([]);
  });
});
