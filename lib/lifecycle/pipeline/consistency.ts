import type { ReplicaSet } from '../../replicas/replica-set.js';
import type { ResolvedReplicas } from '../../replicas/replicas.types.js';
import { tokenHeaders, tokenReader } from '../../replicas/request-token.js';
import { isReadMethod } from '../../shared/api-request.js';
import type { Stage } from './exchange.js';

/**
 * With `replicas` (docs/replicas.md): a read's token tells which replicas may serve it; a write
 * that succeeded answers the primary's position after its commit as its token. Idempotent replays
 * pass here too: their token is as recent as the original's.
 */
export function consistency(replicas: ReplicaSet, settings: ResolvedReplicas): Stage {
  const requestToken = tokenReader(settings);
  return async ({ request }, next) => {
    if (isReadMethod(request.method)) {
      const token = requestToken(request.headers);
      if (token !== undefined) replicas.noteToken(request.raw, token);
      return next();
    }
    const sent = await next();
    if (sent.status >= 400) return sent;
    // The write is done: without the position (the primary just failed) it answers without a token.
    const token = await replicas.writtenPosition().catch(() => undefined);
    return token === undefined ? sent : { ...sent, headers: { ...sent.headers, ...tokenHeaders(token, settings) } };
  };
}
