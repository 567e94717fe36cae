import { CrudApiError } from '../errors/crud-api.error.js';
import { withDeletedRows } from '../policies/with-policies.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { SOFT_DELETE_FLAG, WITH_DELETED_PARAMETER } from '../shared/soft-delete.constants.js';

/** A 400 about the query parameter `parameter`. */
export function badSwitch(parameter: string, message: string): CrudApiError {
  return new CrudApiError('invalid-query-parameter', message, { source: { parameter } });
}

/**
 * Whether a soft-delete switch (`withDeleted`, `hardDelete`) is on: absent it is off, `true` turns
 * it on, and any other value (`yes`, `1`, `false`, a repeated parameter) is 400 rather than a guess.
 */
export function switchOn(parameter: string, value: string | readonly string[] | undefined): boolean {
  if (value === undefined) return false;
  if (value === SOFT_DELETE_FLAG) return true;
  throw badSwitch(parameter, `"${parameter}" takes one value, "${SOFT_DELETE_FLAG}".`);
}

/**
 * Whether a model is soft-deleted for this client: the policy client gives the delegates of
 * soft-deleted models their own operations, `restore` and `hardDelete`.
 */
export function softDeletedOn(client: PrismaClientLike, delegateName: string): boolean {
  return typeof client[delegateName]?.restore === 'function';
}

/**
 * The request's client reading, on soft-deleted models, the deleted rows its `readDeleted` rules
 * permit as well. 400 when no model is soft-deleted: the parameter would silently do nothing.
 */
export function deletedRowsClient(client: PrismaClientLike): PrismaClientLike {
  const reading = withDeletedRows(client);
  if (!reading)
    throw badSwitch(
      WITH_DELETED_PARAMETER,
      `No model is soft-deleted: "${WITH_DELETED_PARAMETER}" has no rows to add.`,
    );
  return reading;
}
