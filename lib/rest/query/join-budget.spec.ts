import { DEFAULT_LIMITS } from '../../options/option-table.js';
import { assertJoinBudget, countJoins } from './join-budget.js';
import { parseQuery } from './parse-query.js';

const limits = { ...DEFAULT_LIMITS, maxFilters: 2, maxFilterDepth: 3 };

describe('join budget', () => {
  it('counts the relationships filter selectors and sort paths walk', () => {
    expect(
      countJoins(parseQuery('filter[title]=a&filter[author][posts][title]=b&sort=author.name,-title', DEFAULT_LIMITS)),
    ).toBe(3);
  });

  it('allows maxFilters × (maxFilterDepth − 1) joins and refuses one more, naming sort when it takes part', () => {
    expect(() => assertJoinBudget(parseQuery('filter[a][b][c]=1&sort=x.y,z.w', limits), limits)).not.toThrow();
    const refusal = (parameter: string) =>
      expect.objectContaining({ code: 'invalid-query-parameter', options: { source: { parameter } } });
    expect(() => assertJoinBudget(parseQuery('filter[a][b][c]=1&sort=x.y,z.w,v.u', limits), limits)).toThrow(
      refusal('sort'),
    );
    const tight = { ...limits, maxFilterDepth: 2 };
    expect(() => assertJoinBudget(parseQuery('filter[a][b]=1&filter[c][d]=1', tight), tight)).not.toThrow();
    expect(() =>
      assertJoinBudget(
        {
          filters: parseQuery('filter[a][b]=1&filter[c][d]=1', tight).filters.concat(
            parseQuery('filter[e][f]=1', tight).filters,
          ),
        },
        tight,
      ),
    ).toThrow(refusal('filter'));
  });
});
