import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import { applyMaxTake } from './apply-max-take.js';

const registry = new ModelRegistry(modelMeta);
const user = registry.findByTypeName('user')!;

describe('applyMaxTake', () => {
  it('changes nothing without the option', () => {
    const args = { take: 1000, include: { posts: true } };
    expect(applyMaxTake(args, 'default', undefined, user, registry)).toBe(args);
  });

  it('caps take in both directions and fills a missing one where the rule says so', () => {
    expect(applyMaxTake({ take: 500 }, 'default', 10, user, registry)).toEqual({ take: 10 });
    expect(applyMaxTake({ take: -500 }, 'cap', 10, user, registry)).toEqual({ take: -10 });
    expect(applyMaxTake({ take: 3 }, 'cap', 10, user, registry)).toEqual({ take: 3 });
    expect(applyMaxTake(undefined, 'default', 10, user, registry)).toEqual({ take: 10 });
    expect(applyMaxTake({ where: { id: 1 } }, 'cap', 10, user, registry)).toEqual({ where: { id: 1 } });
    expect(applyMaxTake(undefined, undefined, 10, user, registry)).toBeUndefined();
  });

  it('limits to-many relations read through include and select, at every depth', () => {
    const args = {
      include: { posts: { take: 99, include: { comments: true, author: true } }, profile: true, _count: true },
      select: { followers: { select: { id: true } } },
    };
    expect(applyMaxTake(args, undefined, 5, user, registry)).toEqual({
      include: { posts: { take: 5, include: { comments: { take: 5 }, author: true } }, profile: true, _count: true },
      select: { followers: { select: { id: true }, take: 5 } },
    });
  });
});
