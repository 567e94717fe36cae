import { describe, expect, it } from '@jest/globals';

import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { ModelRegistry } from '../../metadata/model-registry.js';
import type { PolicyInspector } from '../../policies/with-policies.js';
import { NO_FIELD_MODES } from '../../rules/field-modes.js';
import type { IncludeTree } from '../query/parse-include.js';
import { buildSelection, scalarSelection } from './build-selection.js';

const registry = new ModelRegistry(modelMeta);
const { Post, User } = modelMeta.models;
const tree = (entries: Record<string, IncludeTree> = {}): IncludeTree => new Map(Object.entries(entries));

describe('buildSelection', () => {
  it('asks Prisma for nothing extra when every field is visible and foreign keys give the linkage', () => {
    expect(buildSelection(registry, Post, tree())).toEqual({});
  });

  it('includes the relations it needs: linkage without a local foreign key, included relationships in id order', () => {
    expect(buildSelection(registry, User, tree())).toEqual({ include: { profile: { select: { id: true } } } });
    expect(buildSelection(registry, Post, tree({ author: tree(), comments: tree() }))).toEqual({
      include: {
        author: { include: { profile: { select: { id: true } } } },
        comments: { orderBy: [{ id: 'asc' }] },
      },
    });
    expect(buildSelection(registry, Post, tree({ comments: tree({ post: tree() }) }))).toEqual({
      include: { comments: { include: { post: true }, orderBy: [{ id: 'asc' }] } },
    });
  });

  it('selects the visible fields when a policy hides some, and loads linkage through the relation when not every row is readable', () => {
    const policies: PolicyInspector = {
      hiddenFields: (model) => new Set(model === 'User' ? ['passwordHash'] : []),
      readsEveryRow: (model) => model !== 'User',
      fieldModes: () => NO_FIELD_MODES,
    };
    const selection = buildSelection(registry, Post, tree({ author: tree() }), policies);
    expect(selection).toEqual({
      include: { author: { select: expect.objectContaining({ email: true, profile: { select: { id: true } } }) } },
    });
    expect((selection as { include: { author: { select: object } } }).include.author.select).not.toHaveProperty(
      'passwordHash',
    );
    expect(buildSelection(registry, Post, tree(), policies)).toEqual({ include: { author: { select: { id: true } } } });
  });
});

describe('scalarSelection', () => {
  it('loads no relation: nothing extra without hidden fields, the visible scalars with some', () => {
    expect(scalarSelection(registry, User)).toEqual({});
    const policies: PolicyInspector = {
      hiddenFields: (model) => new Set(model === 'User' ? ['passwordHash'] : []),
      readsEveryRow: () => false,
      fieldModes: () => NO_FIELD_MODES,
    };
    expect(scalarSelection(registry, Post, policies)).toEqual({});
    expect(scalarSelection(registry, User, policies)).toEqual({
      select: { id: true, email: true, name: true, role: true, createdAt: true },
    });
  });
});
