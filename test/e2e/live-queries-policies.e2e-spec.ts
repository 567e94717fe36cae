import { expectLiveConvergence, ROW_DECIDED_READS } from '../support/live-convergence.js';
import { RELATION_HIDDEN_READS, usePolicyApp } from '../support/policy-writes.js';
import { testProviders } from '../support/test-database.js';

/**
 * How a write's changed rows reach live queries, which decide from them in memory: captured for
 * them alone (live queries only), or for an `onChange` listener too.
 */
const CHANGES = [
  ['rows captured for live queries', {}],
  ['rows captured for onChange', { onChange: () => undefined }],
] as const;

describe.each(
  testProviders().flatMap((provider) => CHANGES.map(([name, options]) => [provider, name, options] as const)),
)('live queries under relation-based policies (%s, %s)', (provider, _changes, options) => {
  const app = usePolicyApp(provider, { live: { debounce: 5, maxPerCaller: 100 }, ...options });

  it('sends every subscriber exactly its own answers, whatever is written', async () => {
    await expectLiveConvergence(app, [...RELATION_HIDDEN_READS, ...ROW_DECIDED_READS]);
    // Dozens of generated writes, each awaited by every stream: a bound against a hang, not a timing.
  }, 120_000);
});
