import fc from 'fast-check';

import { DEFAULT_LIMITS } from '../../options/crud-api.constants.js';
import { isIgnoredParameter, isImplementationSpecific, parseQuery } from './parse-query.js';

const limits = { ...DEFAULT_LIMITS, maxFilters: 3, maxFilterValueLength: 10 };

describe('parseQuery', () => {
  it('splits the families and filter selectors with their operator', () => {
    const query = parseQuery(
      'filter[author][name$startsWith]=Al&filter[id]=1,2&sort=-title&page[limit]=5&include=author&fields[post]=title',
      limits,
    );
    expect(query.filters).toEqual([
      {
        parameter: 'filter[author][name$startsWith]',
        selectors: ['author', 'name'],
        operator: '$startsWith',
        value: 'Al',
      },
      { parameter: 'filter[id]', selectors: ['id'], value: '1,2' },
    ]);
    expect(query).toMatchObject({ sort: '-title', include: 'author', page: { limit: '5' } });
    expect(query.fields).toEqual(new Map([['post', 'title']]));
  });

  it('decodes percent-encoded brackets and values', () => {
    expect(parseQuery('filter%5Btitle%5D=a%2Cb%20c', limits).filters[0]).toMatchObject({
      selectors: ['title'],
      value: 'a,b c',
    });
  });

  it.each([
    ['foo=1', 'foo'],
    ['filter=1', 'filter'],
    ['filter[]=1', 'filter[]'],
    ['sort[a]=1', 'sort[a]'],
    ['page[number]=1', 'page[number]'],
    ['fields=a', 'fields'],
    ['include=a&include=b', 'include'],
    ['filter[a=1', 'filter[a'],
    ['filter[a]=12345678901', 'filter[a]'],
    ['filter[a]=1&filter[b]=1&filter[c]=1&filter[d]=1', 'filter'],
    ['filter[a][b][c][d][e]=1', 'filter[a][b][c][d][e]'],
    ['filter[a][b][c][d][e$gt]=1', 'filter[a][b][c][d][e$gt]'],
    ['constructor=1', 'constructor'],
    ['unknown[x]=1', 'unknown[x]'],
    ['[filter]=1', '[filter]'],
    ['=1', ''],
    ['sort=a&sort=b', 'sort'],
  ])('rejects %s naming %s', (search, parameter) => {
    expect(() => parseQuery(search, limits)).toThrow(
      expect.objectContaining({ code: 'invalid-query-parameter', options: { source: { parameter } } }),
    );
  });

  it.each(['_=1700000000', '__proto__[x]=1', 'Filter[x]=1', 'myParam=1', 'my_param=1', 'x-y=1', 'filter(title)=x'])(
    'ignores the implementation-specific parameter of %s',
    (search) => {
      expect(parseQuery(`${search}&sort=title`, limits)).toMatchObject({ filters: [], sort: 'title', page: {} });
    },
  );

  it('ignores a generated name iff its base has a character outside a-z, and refuses an unknown all-a-z one', () => {
    const name = fc.tuple(
      fc.stringMatching(/^[a-zA-Z0-9_$. -]{0,8}$/),
      fc.constantFrom('', '[x]', '[]', '[a][b]', '['),
    );
    fc.assert(
      fc.property(name, ([base, rest]) => {
        const parameter = `${base}${rest}`;
        if (/^(filter|sort|page|include|fields)$/.test(base)) return;
        const search = new URLSearchParams([[parameter, '1']]).toString();
        if (base !== '' && /[^a-z]/.test(base)) expect(parseQuery(search, limits).filters).toEqual([]);
        else
          expect(() => parseQuery(search, limits)).toThrow(
            expect.objectContaining({ code: 'invalid-query-parameter' }),
          );
        expect(isImplementationSpecific(parameter)).toBe(base !== '' && /[^a-z]/.test(base));
      }),
      { seed: Number(process.env.FUZZ_SEED ?? 20261125), numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
    );
  });

  it("reads the module's own parameters by their exact names, once each", () => {
    expect(parseQuery('withDeleted=true&hardDelete=yes&sort=title', limits)).toMatchObject({
      own: { withDeleted: 'true', hardDelete: 'yes' },
      sort: 'title',
    });
    expect(parseQuery('WithDeleted=true&harddelete_=1', limits).own).toEqual({});
    expect(() => parseQuery('withdeleted=true', limits)).toThrow(
      expect.objectContaining({ options: { source: { parameter: 'withdeleted' } } }),
    );
    expect(() => parseQuery('withDeleted=true&withDeleted=true', limits)).toThrow(
      expect.objectContaining({ code: 'invalid-query-parameter', options: { source: { parameter: 'withDeleted' } } }),
    );
    expect([isIgnoredParameter('withDeleted'), isIgnoredParameter('hardDelete'), isIgnoredParameter('_')]).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('accepts filter selectors up to maxFilterDepth, the operator not counted', () => {
    expect(parseQuery('filter[a][b][c][d$gt]=1', limits).filters[0]).toMatchObject({
      selectors: ['a', 'b', 'c', 'd'],
      operator: '$gt',
    });
  });

  it('quotes at most a prefix of a long parameter name in its message', () => {
    const name = `x${'y'.repeat(5000)}`;
    expect(() => parseQuery(`${name}=1`, limits)).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/^Unknown query parameter "xy{99}…"\.$/) }),
    );
  });
});
