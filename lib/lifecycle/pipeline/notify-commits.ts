import type { LiveQueries } from '../../changes/live-queries.js';
import type { PrismaClientResolver } from '../../data/prisma-client.resolver.js';
import { isReadMethod } from '../../shared/api-request.js';
import type { Stage } from './exchange.js';

/**
 * Tells live queries of a write's commit from the models its queries reach (when no change is
 * captured), also after a failure: an unreadable result, for one, is answered 403 with its write
 * committed.
 */
export function notifyCommits(live: LiveQueries, clients: PrismaClientResolver): Stage {
  return async ({ request }, next) => {
    const reached = live.settings && !isReadMethod(request.method) ? clients.recordModels(request) : undefined;
    try {
      return await next();
    } finally {
      if (reached?.size) live.committed([...reached]);
    }
  };
}
