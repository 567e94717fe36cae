import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { InvalidValue } from './invalid-value.js';
import { reachesRules } from './reaches-rules.js';
import type { CrudApiRules } from './rules.types.js';

const models = modelMeta.models as unknown as Record<string, ModelMeta>;
const rules: CrudApiRules = { User: { fields: { passwordHash: 'internal' } } };
const reaches = (model: string, args: unknown) => reachesRules(rules, models[model]!, args, (name) => models[name]!);

describe('reachesRules', () => {
  it.each([
    ['the ruled model itself', 'User', {}],
    ['an include', 'Post', { include: { author: true } }],
    ['a relation count', 'Post', { select: { _count: { select: { likes: { where: { user: { is: {} } } } } } } }],
    ['a filter under AND', 'Comment', { where: { AND: [{ post: { author: { is: { name: 'x' } } } }] } }],
    ['a nested write', 'Tag', { data: { posts: { create: { title: 't', author: { connect: { id: 1 } } } } } }],
    // The rules report it: without them it would reach Prisma.
    [
      'a value the parser found invalid',
      'Tag',
      { data: { name: new InvalidValue('expected a string', 'invalid-type') } },
    ],
  ])('finds %s', (_what, model, args) => {
    expect(reaches(model, args)).toBe(true);
  });

  it.each([
    ['plain data', 'Post', { data: { title: 't', authorId: 1 }, select: { id: true, authorId: true } }],
    ['relations to unruled models', 'Comment', { where: { post: { is: { title: 'x' } } }, include: { post: true } }],
    ['a relation left out', 'Post', { include: { author: false } }],
  ])('lets %s pass', (_what, model, args) => {
    expect(reaches(model, args)).toBe(false);
  });
});
