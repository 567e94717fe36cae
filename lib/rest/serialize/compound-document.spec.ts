import { describe, expect, it } from '@jest/globals';

import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { ModelRegistry } from '../../metadata/model-registry.js';
import type { IncludeTree } from '../query/parse-include.js';
import { CompoundDocument } from './compound-document.js';

const registry = new ModelRegistry(modelMeta);
const tree = (entries: Record<string, IncludeTree> = {}): IncludeTree => new Map(Object.entries(entries));
const comment = (id: number, more: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  body: `c${id}`,
  createdAt: new Date('2025-01-01T00:00:00Z'),
  postId: 1,
  authorId: null,
  parentId: null,
  ...more,
});

describe('CompoundDocument', () => {
  it('includes each resource once, and a resource its own includes reach again keeps its full linkage', () => {
    const document = new CompoundDocument({ registry, endpoint: 'http://x/api', idDivider: '_', fieldsets: new Map() });
    const include = tree({ comments: tree({ replies: tree({ parent: tree() }) }) });
    const c1 = comment(1);
    const c2 = comment(2, { parentId: 1, parent: c1 });
    c1.replies = [c2];
    const post = { id: 1, title: 't', authorId: 7, comments: [c1] };
    const data = document.primaryResource(modelMeta.models.Post, post, include);
    const included = document.includedResources();

    // comment 1 was first met (and placed) as comment 2's parent, then rendered in full in that place.
    expect(included.map(({ type, id }) => `${type}:${id}`)).toEqual(['comment:1', 'comment:2']);
    expect(included[0]!.relationships.replies!.data).toEqual([{ type: 'comment', id: 2 }]);
    expect(included[1]!.relationships.parent!.data).toEqual({ type: 'comment', id: 1 });
    expect(data.relationships.comments!.data).toEqual([{ type: 'comment', id: 1 }]);
    expect(data.relationships.author!.data).toEqual({ type: 'user', id: 7 });
  });

  it('leaves primary data out of included', () => {
    const document = new CompoundDocument({ registry, endpoint: 'http://x/api', idDivider: '_', fieldsets: new Map() });
    const c1 = comment(1);
    const c2 = comment(2, { parentId: 1, parent: c1 });
    const include = tree({ parent: tree() });
    document.primaryResource(modelMeta.models.Comment, c1, include);
    document.primaryResource(modelMeta.models.Comment, c2, include);
    expect(document.includedResources()).toEqual([]);
  });

  it('gives links only for a to-one whose linkage was not loaded and no local foreign key gives (a read as of a past time)', () => {
    const document = new CompoundDocument({ registry, endpoint: 'http://x/api', idDivider: '_', fieldsets: new Map() });
    const user = { id: 3, email: 'a@x.test', name: 'a' };
    expect(document.primaryResource(modelMeta.models.User, user, tree()).relationships.profile).toEqual({
      links: { self: 'http://x/api/user/3/relationships/profile', related: 'http://x/api/user/3/profile' },
    });
    const loaded = document.primaryResource(modelMeta.models.User, { ...user, profile: null }, tree());
    expect(loaded.relationships.profile!.data).toBeNull();
  });
});
