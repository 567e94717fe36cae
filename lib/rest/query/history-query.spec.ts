import { DEFAULT_LIMITS } from '../../options/option-table.js';
import { historyQuery } from './history-query.js';

const options = { limits: DEFAULT_LIMITS, pageSize: 20 };
const refusal = (code: string, parameter: string) =>
  expect.objectContaining({ code, options: { source: { parameter } } });

describe('historyQuery', () => {
  it('defaults to newest first, the first page of the default size', () => {
    expect(historyQuery('', options)).toEqual({
      order: 'desc',
      page: { kind: 'offset', offset: 0, limit: 20 },
      withDeleted: false,
      search: '',
    });
  });

  it('reads the filters, the sort, offset pages and withDeleted', () => {
    const search =
      'filter[since]=2024-01-01T00:00:00Z&filter[until]=2024-02-01T00:00:00%2B01:00&filter[actor]=7&sort=at&page[offset]=4&page[limit]=50&withDeleted=true';
    expect(historyQuery(search, options)).toEqual({
      since: new Date('2024-01-01T00:00:00Z'),
      until: new Date('2024-01-31T23:00:00Z'),
      actor: '7',
      order: 'asc',
      page: { kind: 'offset', offset: 4, limit: 20 },
      withDeleted: true,
      search,
    });
    expect(historyQuery('sort=-at', options).order).toBe('desc');
  });

  it.each([
    ['sort=title', 'sort'],
    ['sort=at,-at', 'sort'],
    ['filter[title]=x', 'filter[title]'],
    ['filter[actor][x]=1', 'filter[actor][x]'],
    ['filter[since$gt]=2024-01-01T00:00:00Z', 'filter[since$gt]'],
    ['filter[since]=today', 'filter[since]'],
    ['filter[actor]=1&filter[actor]=2', 'filter[actor]'],
    ['page[size]=1', 'page[size]'],
    ['page[offset]=-1', 'page[offset]'],
    ['include=author', 'include'],
    ['fields[versions]=at', 'fields[versions]'],
    ['hardDelete=true', 'hardDelete'],
    ['nonsense=1', 'nonsense'],
  ])('refuses %s, naming %s', (search, parameter) => {
    expect(() => historyQuery(search, options)).toThrow(refusal('invalid-query-parameter', parameter));
  });

  it('refuses asOf: versions are not read as of a past time', () => {
    expect(() => historyQuery('asOf=2024-01-01T00:00:00Z', options)).toThrow(refusal('as-of-unsupported', 'asOf'));
  });
});
