import { badSwitch, switchOn } from '../../data/deleted-rows.js';
import { HARD_DELETE_PARAMETER, WITH_DELETED_PARAMETER } from '../../shared/soft-delete.constants.js';
import type { RawQuery } from './parse-query.js';

/**
 * What a route does, as the soft-delete parameters see it: a read takes `withDeleted`, a `DELETE`
 * of a resource takes `hardDelete` (and `withDeleted` with it, to purge a deleted row), any other
 * write takes neither.
 */
export type RouteKind = 'read' | 'write' | 'delete';

/** The soft-delete parameters of a request, checked for its route. */
export interface SoftDeleteParameters {
  /** `withDeleted=true`: the route runs on the client that also reads the deleted rows the caller may read. */
  withDeleted: boolean;
  /** `hardDelete=true`: `DELETE` removes the row for good. */
  hardDelete: boolean;
}

/**
 * The soft-delete parameters as given: `true` turns one on, any other value is 400, and so is one
 * that the route does not take, which would otherwise change nothing without a word.
 */
export function softDeleteParameters(own: RawQuery['own'], kind: RouteKind): SoftDeleteParameters {
  const withDeleted = switchOn(WITH_DELETED_PARAMETER, own.withDeleted);
  const hardDelete = switchOn(HARD_DELETE_PARAMETER, own.hardDelete);
  if (hardDelete && kind !== 'delete') {
    throw badSwitch(HARD_DELETE_PARAMETER, `"${HARD_DELETE_PARAMETER}" applies to the DELETE of a resource only.`);
  }
  if (withDeleted && kind === 'write')
    throw badSwitch(WITH_DELETED_PARAMETER, `"${WITH_DELETED_PARAMETER}" applies to reads only.`);
  if (withDeleted && kind === 'delete' && !hardDelete) {
    throw badSwitch(
      WITH_DELETED_PARAMETER,
      `"${WITH_DELETED_PARAMETER}" applies to a DELETE with "${HARD_DELETE_PARAMETER}=true" only: a deleted row is deleted already.`,
    );
  }
  return { withDeleted, hardDelete };
}
