import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { ModelRegistry } from '../../metadata/model-registry.js';
import { relationshipField, resourceModel, resourceTarget, targetNotFound } from './resource-target.js';

const registry = new ModelRegistry(modelMeta, undefined, { Tag: { readOnly: true } });
const post = registry.findByTypeName('post')!;
const like = registry.findByTypeName('like')!;

const refusal = (code: string, message: string, options: object = {}) =>
  expect.objectContaining({ code, message, options });

describe('resource lookups: a URL names the resource without pointers, an atomic operation with them', () => {
  it('finds the model of a type if the operation is allowed on it', () => {
    expect(resourceModel(registry, 'post', 'create')).toBe(post);
    expect(() => resourceModel(registry, 'nope', 'create')).toThrow(
      refusal('unknown-type', 'Unknown resource type "nope".'),
    );
    expect(() => resourceModel(registry, 'tag', 'create', '/data/type')).toThrow(
      refusal('forbidden', 'The create operation is not allowed on tag.', { source: { pointer: '/data/type' } }),
    );
  });

  it('parses the id of a target, answering 404 for a malformed one', () => {
    expect(resourceTarget(post, '7', '_')).toEqual({ model: post, type: 'post', id: { id: 7 }, rawId: '7' });
    expect(resourceTarget(like, '1_2', '_', '/ref/id')).toEqual({
      model: like,
      type: 'like',
      id: { userId: 1, postId: 2 },
      rawId: '1_2',
      pointer: '/ref/id',
    });
    expect(() => resourceTarget(post, 'x', '_')).toThrow(refusal('not-found', 'No post with id "x".'));
  });

  it('answers a missing target at the pointer its id came from', () => {
    expect(targetNotFound(resourceTarget(post, 9, '_'))).toEqual(refusal('not-found', 'No post with id "9".'));
    expect(targetNotFound(resourceTarget(post, 9, '_', '/ref/id'))).toEqual(
      refusal('not-found', 'No post with id "9".', { source: { pointer: '/ref/id' } }),
    );
  });

  it('finds a relationship by name; the id form is for to-one relationships only', () => {
    expect(relationshipField(registry, post, 'author', { idForm: true }).name).toBe('author');
    expect(() => relationshipField(registry, post, 'tags', { idForm: true })).toThrow(
      refusal('unknown-relationship', 'post has no relationship "tags" with an id form.'),
    );
    expect(() => relationshipField(registry, post, 'nope', { pointer: '/ref/relationship' })).toThrow(
      refusal('unknown-relationship', 'post has no relationship "nope".', {
        source: { pointer: '/ref/relationship' },
      }),
    );
  });
});
