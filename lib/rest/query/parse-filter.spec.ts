import { modelMeta as postgresMeta } from '../../../fixtures/generated/postgresql/crud-api/index.js';
import { modelMeta as sqliteMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { ModelRegistry } from '../../metadata/model-registry.js';
import { DEFAULT_LIMITS } from '../../options/option-table.js';
import { VisibleFields } from '../visible-fields.js';
import { FILTER_OPERATORS } from './filter-operators.js';
import { buildFilterWhere } from './parse-filter.js';
import { parseQuery } from './parse-query.js';

const limits = DEFAULT_LIMITS;

function where(meta: typeof sqliteMeta | typeof postgresMeta, search: string) {
  const registry = new ModelRegistry(meta);
  return buildFilterWhere(
    { fields: new VisibleFields(registry), idDivider: '_' },
    registry.findByTypeName('post')!,
    parseQuery(search, limits).filters,
  );
}

describe('buildFilterWhere', () => {
  it('turns equality into equals or in, coerced to the field type', () => {
    expect(where(sqliteMeta, 'filter[rating]=1.5')).toEqual({ rating: { equals: 1.5 } });
    expect(where(sqliteMeta, 'filter[views]=1,2')).toEqual({ views: { in: [1n, 2n] } });
    expect(where(sqliteMeta, 'filter[publishedAt$gte]=2024-01-01T00:00:00Z')).toEqual({
      publishedAt: { gte: new Date('2024-01-01T00:00:00Z') },
    });
  });

  it('combines several values with OR, $not values with AND (notIn), filters on different fields in one object and a field filtered twice with AND', () => {
    expect(where(sqliteMeta, 'filter[title$contains]=a,b')).toEqual({
      OR: [{ title: { contains: 'a' } }, { title: { contains: 'b' } }],
    });
    expect(where(sqliteMeta, 'filter[status$not]=DRAFT,ARCHIVED')).toEqual({
      status: { notIn: ['DRAFT', 'ARCHIVED'] },
    });
    expect(where(sqliteMeta, 'filter[metadata$not]=1,2')).toEqual({
      AND: [{ metadata: { not: 1 } }, { metadata: { not: 2 } }],
    });
    expect(where(sqliteMeta, 'filter[published]=true&filter[content$null]=true')).toEqual({
      published: { equals: true },
      content: null,
    });
    expect(where(sqliteMeta, 'filter[rating$gte]=1&filter[rating$lte]=4')).toEqual({
      AND: [{ rating: { gte: 1 } }, { rating: { lte: 4 } }],
    });
    expect(where(sqliteMeta, 'filter[metadata$not]=1,2&filter[title$contains]=a,b')).toEqual({
      AND: [{ metadata: { not: 1 } }, { metadata: { not: 2 } }],
      OR: [{ title: { contains: 'a' } }, { title: { contains: 'b' } }],
    });
  });

  it('reaches into relations: is for to-one, some for to-many, grouped per relation', () => {
    expect(where(sqliteMeta, 'filter[author][name]=A')).toEqual({ author: { is: { name: { equals: 'A' } } } });
    expect(where(sqliteMeta, 'filter[comments][body]=x&filter[comments][authorId]=1')).toEqual({
      comments: { some: { body: { equals: 'x' }, authorId: { equals: 1 } } },
    });
    expect(where(sqliteMeta, 'filter[tags]=1,2')).toEqual({ tags: { some: { OR: [{ id: 1 }, { id: 2 }] } } });
    expect(where(sqliteMeta, 'filter[likes]=3_4')).toEqual({ likes: { some: { userId: 3, postId: 4 } } });
  });

  it('uses insensitive mode on PostgreSQL, escapes LIKE wildcards there and refuses them on SQLite', () => {
    expect(where(sqliteMeta, 'filter[title$icontains]=a\\b')).toEqual({ title: { contains: 'a\\b' } });
    expect(() => where(sqliteMeta, 'filter[title$icontains]=a_b')).toThrow(
      expect.objectContaining({ code: 'invalid-query-parameter' }),
    );
    expect(where(postgresMeta, 'filter[title$icontains]=a_b')).toEqual({
      title: { contains: 'a\\_b', mode: 'insensitive' },
    });
    expect(where(postgresMeta, 'filter[keywords$hasEvery]=a,b')).toEqual({ keywords: { hasEvery: ['a', 'b'] } });
    expect(where(postgresMeta, 'filter[keywords$isEmpty]=true')).toEqual({ keywords: { isEmpty: true } });
  });

  it.each([
    'filter[nothing]=1',
    'filter[rating$contains]=1',
    'filter[title$has]=a',
    'filter[title$null]=true',
    'filter[content$search]=a',
  ])('rejects %s on SQLite', (search) => {
    expect(() => where(sqliteMeta, search)).toThrow(expect.objectContaining({ code: 'invalid-query-parameter' }));
  });
});

describe('LIKE operators', () => {
  it('escapes backslash, percent and underscore where LIKE has a backslash escape, and refuses wildcards SQLite cannot escape', () => {
    expect(FILTER_OPERATORS.get('$contains')!.condition('50%_\\', { provider: 'postgresql' })).toEqual({
      contains: '50\\%\\_\\\\',
    });
    expect(FILTER_OPERATORS.get('$startsWith')!.condition('a\\b', { provider: 'sqlite' })).toEqual({
      startsWith: 'a\\b',
    });
    expect(() => FILTER_OPERATORS.get('$endsWith')!.condition('50%', { provider: 'sqlite' })).toThrow(
      expect.objectContaining({ code: 'invalid-query-parameter' }),
    );
  });
});
