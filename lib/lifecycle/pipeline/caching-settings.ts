import type { LiveQueries } from '../../changes/live-queries.js';
import type { ResolvedCrudApiOptions } from '../../options/crud-api-options.interface.js';
import { mergeVary } from '../../shared/api-response.js';
import type { ApiInterface } from '../../telemetry/request-telemetry.js';
import { KnownTags } from '../known-tags.js';

/** What a cacheable answer carries besides its body (`caching` option). */
export interface CachingSettings {
  cacheControl: string;
  vary: Readonly<Record<ApiInterface, string>>;
  /** With `revalidate: 'changes'`: the tags revalidated. */
  known?: KnownTags;
  /** The request headers each interface's answers vary on, lower-cased. */
  varyNames: Readonly<Record<ApiInterface, readonly string[]>>;
}

/** The settings of the `caching` option, none when it is off. */
export function cachingSettings(
  caching: ResolvedCrudApiOptions['caching'],
  live: LiveQueries,
): CachingSettings | undefined {
  if (!caching) return undefined;
  const vary = mergeVary(caching.vary.join(','));
  // The REST answers depend on Accept (negotiation) and Prefer (counts) as well.
  const both = { rest: mergeVary('Accept, Prefer', vary), rpc: vary };
  return {
    cacheControl: caching.cacheControl,
    vary: both,
    // `Vary: *`: any header may change an answer, no two requests are known to be the same.
    known: caching.revalidate === 'changes' && vary !== '*' ? new KnownTags(live, caching.trustFor) : undefined,
    varyNames: {
      rest: both.rest.toLowerCase().split(', '),
      rpc: both.rpc.toLowerCase().split(', '),
    },
  };
}
