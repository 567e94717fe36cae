import { chooseCount, preferredCount } from './count-strategy.js';
import { estimationAllowed } from './estimate-count.js';

describe('preferredCount', () => {
  it.each([
    ['count=none', 'none'],
    ['return=minimal, count=estimated', 'estimated'],
    ['COUNT="exact"; x=1', 'exact'],
    [['handling=lenient', 'count=none'], 'none'],
    ['count=planned', undefined],
    ['count=exact-ish', undefined],
    ['counted=none', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%j asks for %s', (header, strategy) => {
    expect(preferredCount(header)).toBe(strategy);
  });
});

describe('chooseCount', () => {
  it('takes the preference, else the option for offset pages and none for cursor pages', () => {
    expect(chooseCount('count=exact', 'none', true)).toEqual({ strategy: 'exact', preferred: true });
    expect(chooseCount(undefined, 'estimated', false)).toEqual({ strategy: 'estimated', preferred: false });
    expect(chooseCount('count=bogus', 'exact', true)).toEqual({ strategy: 'none', preferred: false });
  });
});

describe('estimationAllowed', () => {
  it('only on PostgreSQL, over a whole table every row of which the caller may see', () => {
    expect(estimationAllowed({ provider: 'postgresql', rowsMayBeHidden: false, filtered: false })).toBe(true);
    expect(estimationAllowed({ provider: 'sqlite', rowsMayBeHidden: false, filtered: false })).toBe(false);
    expect(estimationAllowed({ provider: 'mysql', rowsMayBeHidden: false, filtered: false })).toBe(false);
    expect(estimationAllowed({ provider: 'postgresql', rowsMayBeHidden: true, filtered: false })).toBe(false);
    expect(estimationAllowed({ provider: 'postgresql', rowsMayBeHidden: false, filtered: true })).toBe(false);
  });
});
