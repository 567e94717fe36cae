import fc from 'fast-check';

import { DEFAULT_LIMITS } from '../../options/option-table.js';
import { readParameterName } from './parameter-name.js';
import { parseQuery } from './parse-query.js';

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
    ['__proto__[x]=1', '__proto__[x]'],
    ['filterisbn]=x', 'filterisbn]'],
    ['filter]title[=x', 'filter]title['],
    ['filter%00[title]=x', 'filter\u0000[title]'],
    ['filter(title)=x', 'filter(title)'],
    ['withDeleted[x]=true', 'withDeleted[x]'],
  ])('rejects %s naming %s', (search, parameter) => {
    expect(() => parseQuery(search, limits)).toThrow(
      expect.objectContaining({ code: 'invalid-query-parameter', options: { source: { parameter } } }),
    );
  });

  it.each(['_=1700000000', 'Filter[x]=1', 'myParam=1', 'my_param=1', 'x-y=1', 'cacheBust[]=1'])(
    'ignores the implementation-specific parameter of %s',
    (search) => {
      expect(parseQuery(`${search}&sort=title`, limits)).toMatchObject({ filters: [], sort: 'title', page: {} });
    },
  );

  it('refuses exactly the names readParameterName refuses, and ignores the ones it ignores', () => {
    const name = fc.tuple(
      fc.stringMatching(/^[a-zA-Z0-9_$. -]{0,8}$/),
      fc.constantFrom('', '[x]', '[]', '[a][b]', '[', ']', '[_x]'),
    );
    fc.assert(
      fc.property(name, ([base, rest]) => {
        const parameter = `${base}${rest}`;
        const read = readParameterName(parameter);
        fc.pre(read?.kind !== 'family');
        const search = new URLSearchParams([[parameter, 'true']]).toString();
        if (read === undefined)
          expect(() => parseQuery(search, limits)).toThrow(
            expect.objectContaining({ code: 'invalid-query-parameter', options: { source: { parameter } } }),
          );
        else
          expect({ ...parseQuery(search, limits), search: '' }).toEqual({
            ...parseQuery('', limits),
            own: read.kind === 'own' ? { [read.name]: 'true' } : {},
          });
      }),
      { seed: Number(process.env.FUZZ_SEED ?? 20261125), numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
    );
  });

  it("reads the module's own parameters by their exact names, once each", () => {
    expect(parseQuery('withDeleted=true&hardDelete=yes&sort=title', limits)).toMatchObject({
      own: { withDeleted: 'true', hardDelete: 'yes' },
      sort: 'title',
    });
    expect(parseQuery('WithDeleted=true&hardDelete-x=1', limits).own).toEqual({});
    expect(() => parseQuery('withdeleted=true', limits)).toThrow(
      expect.objectContaining({ options: { source: { parameter: 'withdeleted' } } }),
    );
    expect(() => parseQuery('withDeleted=true&withDeleted=true', limits)).toThrow(
      expect.objectContaining({ code: 'invalid-query-parameter', options: { source: { parameter: 'withDeleted' } } }),
    );
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
