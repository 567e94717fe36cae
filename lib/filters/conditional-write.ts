import { transactionBounds } from '../data/run-in-transaction.js';
import { CrudApiError } from '../errors/crud-api.error.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { isResultNotReadable } from '../policies/policy.error.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { type ApiRequest } from '../shared/api-request.js';
import { bodyText } from '../shared/api-response.js';
import { entityTag, ifMatchHolds } from '../shared/http-caching.js';
import { isWriteConflict } from './prisma-error-map.js';

/** The answer to a conditional write whose representation is no longer the one the client holds. */
export function preconditionFailed(): CrudApiError {
  return new CrudApiError(
    'precondition-failed',
    'The resource changed since the entity tag in If-Match was read: read it again, then retry.',
  );
}

/**
 * Runs a write under the request's `If-Match` (RFC 9110 §13.1.1), on `client`: without the header,
 * as it is. With it, in one Serializable transaction that first reads the representation the tag was
 * taken from (`current`, the body a GET answers) and answers 412 `precondition-failed` unless it
 * still has a listed tag, then writes. Serializable makes two writers holding the same tag conflict:
 * the database lets one commit and fails the other, which is answered 412 as well, since the
 * representation it checked has changed.
 *
 * `current` resolves to `undefined` when the caller reads no representation of the resource, which
 * no tag matches, `*` neither (§13.1.1). The condition counts only for an answer that would succeed
 * without it (§13.2.1), so the write runs: its failure (a missing row's 404) is the answer; if it
 * succeeds (an upsert creates the row, a restore brings back a row the caller could not read
 * deleted), it is undone and answered 412.
 */
export async function conditionalWrite<T>(
  req: ApiRequest,
  client: PrismaClientLike,
  transactions: ResolvedCrudApiOptions['transactions'],
  current: (tx: PrismaClientLike) => Promise<unknown>,
  write: (tx: PrismaClientLike) => Promise<T>,
): Promise<T> {
  const condition = req.headers['if-match'];
  if (condition === undefined) return write(client);
  try {
    return await client.$transaction(
      async (tx: PrismaClientLike) => {
        const body = await current(tx);
        if (body === undefined) return failWithoutRepresentation(write(tx));
        if (!ifMatchHolds(condition, entityTag(bodyText(body) ?? ''))) throw preconditionFailed();
        return write(tx);
      },
      { ...transactionBounds(transactions), isolationLevel: 'Serializable' },
    );
  } catch (error) {
    throw isWriteConflict(error) ? preconditionFailed() : error;
  }
}

/**
 * A conditional write of a resource with no representation: its own failure, or 412 once it has
 * succeeded, which rolls it back. A result the caller may not read means it succeeded: the policy
 * client would commit it.
 */
async function failWithoutRepresentation(written: Promise<unknown>): Promise<never> {
  try {
    await written;
  } catch (error) {
    if (!isResultNotReadable(error)) throw error;
  }
  throw preconditionFailed();
}
