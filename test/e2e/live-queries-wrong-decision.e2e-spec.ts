import { jest } from '@jest/globals';

// A deliberately wrong in-memory decision: no changed row matches any query's filter. The
// convergence check must catch it, or it would not catch a real mistake of `whereMatches` either.
jest.unstable_mockModule('../../lib/prisma/row-filter.js', () => ({ whereMatches: () => false }));

const { expectLiveConvergence, ROW_DECIDED_READS } = await import('../support/live-convergence.js');
const { usePolicyApp } = await import('../support/policy-writes.js');

describe('live queries deciding wrongly from the changed rows (sqlite)', () => {
  const app = usePolicyApp('sqlite', { live: { debounce: 5, maxPerCaller: 100 } });

  it('fail the convergence check', async () => {
    await expect(expectLiveConvergence(app, ROW_DECIDED_READS)).rejects.toThrow('toBe');
  });
});
