import type { DatabaseProvider } from '../../fixtures/blog/database/database-url.js';

/**
 * `it` for a behaviour some databases have: the test exists on those only, so a run reports no
 * skipped tests. `why` says, at the call, why the other databases lack it and where their own
 * answer is checked.
 */
export function itOn(provider: DatabaseProvider, providers: readonly DatabaseProvider[], why: string) {
  return (name: string, fn: () => Promise<void>, timeout?: number): void => {
    if (providers.includes(provider)) it(name, fn, timeout);
    else if (!why) throw new Error(`itOn("${name}"): say why the other databases lack it`);
  };
}
