import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { ModelRegistry } from '../../metadata/model-registry.js';
import type { RowVersion } from '../../shared/row-version.js';
import { resourceShape } from './resource-shape.js';
import { versionResource, versionsDocument } from './version-resources.js';

const shape = resourceShape(new ModelRegistry(modelMeta), modelMeta.models.Post);
const version = (data: RowVersion['data']): RowVersion => ({
  version: 12,
  operation: data ? 'update' : 'delete',
  at: new Date('2024-03-01T10:00:00.5Z'),
  actor: '7',
  requestId: null,
  changed: ['title'],
  data,
});

describe('versionResource', () => {
  it('writes the row as the type writes its attributes, without what the row lacks or REST does not render', () => {
    const row = { id: 3, title: 't', views: 5n, createdAt: new Date('2024-01-01T00:00:00Z'), other: 1 };
    expect(versionResource(shape, version(row), 'http://x/post/3')).toEqual({
      type: 'versions',
      id: '12',
      attributes: {
        operation: 'update',
        at: '2024-03-01T10:00:00.500Z',
        actor: '7',
        requestId: null,
        changed: ['title'],
        data: { title: 't', views: '5', createdAt: '2024-01-01T00:00:00.000Z' },
      },
      links: { related: 'http://x/post/3' },
    });
    expect(versionResource(shape, version({ title: 'only' }), 'r').attributes.data).toEqual({ title: 'only' });
  });

  it('has null data for a delete', () => {
    expect(versionResource(shape, version(null), 'r').attributes.data).toBeNull();
  });
});

describe('versionsDocument', () => {
  it('is a collection document linked to the resource', () => {
    const links = { self: 's', related: 'r', first: 'f', prev: null, next: null };
    expect(versionsDocument(shape, [version(null)], links)).toEqual({
      jsonapi: { version: '1.1' },
      links,
      data: [versionResource(shape, version(null), 'r')],
    });
  });
});
