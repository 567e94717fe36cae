import { badSwitch, switchOn } from '../data/deleted-rows.js';
import { WITH_DELETED_PARAMETER } from '../shared/soft-delete.constants.js';

/**
 * Whether an RPC call reads the deleted rows the caller may read too: `withDeleted=true` on a call
 * that `takes` it (the reads, `hardDelete`). Any other value, or the parameter on any other call
 * (a write, a sequential transaction), is 400: it would change nothing without a word.
 */
export function readsDeletedRows(
  parameters: Readonly<Record<string, string | string[]>>,
  call: string,
  takes: boolean,
): boolean {
  const on = switchOn(WITH_DELETED_PARAMETER, parameters[WITH_DELETED_PARAMETER]);
  if (on && !takes) throw badSwitch(WITH_DELETED_PARAMETER, `"${WITH_DELETED_PARAMETER}" does not apply to ${call}.`);
  return on;
}
