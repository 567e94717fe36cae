import type { DatabaseProvider } from '../../fixtures/blog/database/database-url.js';

/**
 * `it` for a behaviour some databases have: on the others the test is reported as skipped, with
 * the reason in its name, so that no test is silently absent from a database's run.
 */
export function itOn(provider: DatabaseProvider, providers: readonly DatabaseProvider[], reason: string) {
  return (name: string, fn: () => Promise<void>, timeout?: number): void => {
    if (providers.includes(provider)) it(name, fn, timeout);
    else it.skip(`${name} [skipped on ${provider}: ${reason}]`, fn);
  };
}
