import type { RequestDrain } from '../request-drain.js';
import type { Stage } from './exchange.js';

/** Counts the request in flight for the graceful shutdown until every stage after it is done, failed or not. */
export function admit(drain: RequestDrain): Stage {
  return async ({ response }, next) => {
    const admitted = drain.admit(response);
    try {
      return await next();
    } finally {
      drain.release(admitted);
    }
  };
}
