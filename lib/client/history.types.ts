import type { AsOfOperationName } from '../metadata/prisma-operations.js';
import type { RowVersion } from '../shared/row-version.js';
import type { RpcPromise } from './rpc-promise.js';
import type { ArgsOf, Given, NoRules, ResultOf } from './rules-data.types.js';

// The operations of models that record their history (`rules: { Post: { history: true } }`,
// docs/history.md). As with soft delete, the types cannot know which models do: every model has
// them, and the server refuses them (and `asOf`) on the others.

/** A time of the history: a Date, or its RFC 3339 text with an offset. */
export type RpcInstant = Date | string;

/** `history`'s arguments: one row by a unique `where`, its versions filtered by time and actor, paged. */
export interface RpcHistoryArgs<WhereUnique> {
  where: WhereUnique;
  /** Versions recorded at or after this time. */
  since?: RpcInstant;
  /** Versions recorded at or before this time. */
  until?: RpcInstant;
  actor?: string;
  /** `desc` (newest first) unless given. */
  order?: 'asc' | 'desc';
  skip?: number;
  take?: number;
}

/** `restoreVersion`'s arguments: `update`'s with the version to put back in place of `data`. */
export type RpcRestoreVersionArgs<Delegate> = Omit<ArgsOf<Delegate, 'update'>, 'data'> & { version: number };

/** A read's arguments as of a past time: a read then takes no related rows (`include`), `cursor` or `distinct`. */
export type RpcAsOfArgs<Delegate, Operation extends string> = Omit<
  ArgsOf<Delegate, Operation>,
  'include' | 'cursor' | 'distinct'
> & { asOf: RpcInstant };

/** The model's unique `where` (`PostWhereUniqueInput`). */
type WhereUniqueOf<Delegate> = ArgsOf<Delegate, 'findUnique'> extends { where: infer Where } ? Where : never;

/** The model's row as a read without selection answers it, less the columns `Hidden` (`RulesOmit`) names. */
type RowOf<Delegate, Hidden> = ResultOf<Delegate, NoRules, 'findUniqueOrThrow', Hidden>;

type AsOfRead<Delegate, Operation extends string, Hidden> = <T extends RpcAsOfArgs<Delegate, Operation>>(
  args: Given<T, RpcAsOfArgs<Delegate, Operation>>,
) => RpcPromise<ResultOf<Delegate, T, Operation, Hidden>>;

/**
 * The reads that take `asOf`, as a signature of their own: joined before Prisma's (an overload
 * tried first), a call with `asOf` gets it, any other Prisma's own signature, fluent API included.
 */
export type RpcAsOfReads<Delegate, Hidden = NoRules> = {
  [Operation in AsOfOperationName & keyof Delegate]: AsOfRead<Delegate, Operation, Hidden>;
};

/** `history` and `restoreVersion` of a model, with rows less the columns `Hidden` (`RulesOmit`) names. */
export interface RpcHistoryOperations<Delegate, Hidden = NoRules> {
  /** The row's recorded versions, newest first: `404` when no readable row matches, `403` without the `history` rule. */
  history(args: RpcHistoryArgs<WhereUniqueOf<Delegate>>): RpcPromise<RowVersion<RowOf<Delegate, Hidden>>[]>;
  /** Puts the row back to a version by an update (its rules, `If-Match` and `ETag` too), and answers it as `update` does. */
  restoreVersion<T extends RpcRestoreVersionArgs<Delegate>>(
    args: Given<T, RpcRestoreVersionArgs<Delegate>>,
  ): RpcPromise<ResultOf<Delegate, T, 'update', Hidden>>;
}
