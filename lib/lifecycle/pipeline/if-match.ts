import { CrudApiError } from '../../errors/crud-api.error.js';
import { isReadMethod } from '../../shared/api-request.js';
import type { Stage } from './exchange.js';

/**
 * Refuses `If-Match` on a write it does not apply to (a create, a write of many rows, atomic
 * operations, a sequential transaction: the interface's `conditionalWrites` say which do) rather
 * than writing unconditionally: the client asked for a condition it would not get. Reads ignore
 * it, as RFC 9110 lets them.
 */
export const ifMatchApplies: Stage = ({ request, scope, behaviour }, next) => {
  const { operation } = scope;
  if (request.headers['if-match'] === undefined || isReadMethod(request.method) || operation === undefined)
    return next();
  if (behaviour.conditionalWrites.has(operation)) return next();
  throw new CrudApiError(
    'invalid-request',
    'If-Match applies to writes of one resource (REST PATCH, PUT, DELETE, restore and relationship changes; RPC update, upsert, delete, restore, hardDelete), not to this request.',
  );
};
