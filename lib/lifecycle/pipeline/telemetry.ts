import { beginRequest, finishRequest, keepCallForFilter, runInRequest } from '../../telemetry/request-telemetry.js';
import type { Stage } from './exchange.js';

/**
 * Begins the request (its id, its span) and ends it with the status the stages after it
 * answered; a failure is ended by the interface's filter, which finds the call kept for it.
 */
export const telemetry: Stage = async (exchange, next) => {
  const call = beginRequest(exchange.raw, exchange.scope);
  exchange.call = call;
  exchange.request.id = call.id;
  try {
    const sent = await next();
    finishRequest(call, sent.status);
    return sent;
  } catch (error) {
    keepCallForFilter(exchange.raw, call);
    throw error;
  }
};

/** Runs the stages after it with the request's span active, so the module's and Prisma's spans nest under it. */
export const inRequestSpan: Stage = (exchange, next) => runInRequest(exchange.call!, next);
