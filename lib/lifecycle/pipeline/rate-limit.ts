import type { PrismaClientResolver } from '../../data/prisma-client.resolver.js';
import type { RateLimiter } from '../../limits/rate-limiter.js';
import { setResponseHeaders } from '../../shared/api-response.js';
import type { Stage } from './exchange.js';

/**
 * Counts the request against its caller's rate limits (docs/rate-limits.md): what its steps cost,
 * by the interface's reading of them. The limits' headers go on whatever it is answered, a 429
 * `too-many-requests` with `Retry-After` when a limit ran out. Live query streams left before it:
 * they count against `live.maxPerCaller` instead.
 */
export function rateLimit(limiter: RateLimiter, clients: PrismaClientResolver): Stage {
  return async ({ request, raw, response, scope, behaviour }, next) => {
    const context = await clients.contextOf(request);
    const answer = await limiter.take(context, raw, behaviour.steps(request, scope));
    if (!answer) return next();
    setResponseHeaders(response, answer.headers);
    if (answer.refusal) throw answer.refusal;
    return next();
  };
}
