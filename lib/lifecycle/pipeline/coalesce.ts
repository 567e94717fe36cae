import type { PrismaClientResolver } from '../../data/prisma-client.resolver.js';
import type { CoalesceReads } from '../../options/crud-api-options.interface.js';
import { CoalescedReads } from '../coalesced-reads.js';
import type { CachingSettings } from './caching-settings.js';
import type { Exchange, Stage } from './exchange.js';
import { contextKey, requestKey } from './request-keys.js';

/**
 * Identical GETs that arrive together share one run of the stages after it (`coalesceReads`).
 * None shares a read with a body, a context JSON cannot write, or one whose models the revalidate
 * stage notes (a shared run would note them on another request's client).
 */
export function coalesce(
  mode: CoalesceReads,
  clients: PrismaClientResolver,
  caching: CachingSettings | undefined,
): Stage {
  const coalesced = new CoalescedReads();
  const keyOf = async ({ request, scope }: Exchange): Promise<string | undefined> => {
    const { headers } = request;
    if (headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) !== 0) return undefined;
    const origin = await clients.shareKeyOf(request);
    if (origin === undefined) return undefined;
    return mode === 'context'
      ? contextKey(request, scope, origin, caching?.varyNames[scope.interface])
      : requestKey(request, scope, origin);
  };
  return async (exchange, next) => {
    if (!mode || exchange.request.method !== 'GET' || exchange.reads) return next();
    const key = await keyOf(exchange);
    return key === undefined ? next() : coalesced.run(key, next);
  };
}
