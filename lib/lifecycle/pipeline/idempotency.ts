import type { IdempotentRequests } from '../../data/idempotency/idempotent-requests.js';
import type { Stage } from './exchange.js';

/** A write sent with an `Idempotency-Key`: the stored answer of a retry, or the stages after it run once and stored. */
export function idempotency(requests: IdempotentRequests): Stage {
  return ({ request }, next) => {
    const key = requests.keyOf(request);
    return key === undefined ? next() : requests.run(request, key, next);
  };
}
