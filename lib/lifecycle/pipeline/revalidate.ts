import type { LiveQueries } from '../../changes/live-queries.js';
import type { PrismaClientResolver } from '../../data/prisma-client.resolver.js';
import type { CachingSettings } from './caching-settings.js';
import type { Stage } from './exchange.js';
import { contextKey } from './request-keys.js';

/**
 * A conditional GET under `revalidate: 'changes'`: `304` from the tag remembered for the same
 * request while nothing its read reached has changed since, without running the stages after it;
 * otherwise they run, with the models the read reaches noted, and the tag they answer is remembered.
 */
export function revalidate(
  caching: CachingSettings | undefined,
  live: LiveQueries,
  clients: PrismaClientResolver,
): Stage {
  const known = caching?.known;
  return async (exchange, next) => {
    const { request, scope } = exchange;
    const ifNoneMatch = request.headers['if-none-match'];
    if (!known || ifNoneMatch === undefined || request.method !== 'GET') return next();
    const reads = clients.recordModels(request)!;
    exchange.reads = reads;
    const origin = await clients.shareKeyOf(request);
    const key =
      origin === undefined ? undefined : contextKey(request, scope, origin, caching!.varyNames[scope.interface]);
    const headers = key === undefined ? undefined : known.notModified(key, ifNoneMatch);
    if (headers) return { status: 304, headers: { ...headers } };
    const since = live.now;
    const sent = await next();
    if (key !== undefined && (sent.status === 200 || sent.status === 304)) {
      const { ETag, 'Cache-Control': cacheControl, Vary } = sent.headers!;
      known.remember(key, { ETag: ETag!, 'Cache-Control': cacheControl!, Vary: Vary! }, reads, since);
    }
    return sent;
  };
}
