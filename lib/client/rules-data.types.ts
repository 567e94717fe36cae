import type { Types } from '@prisma/client/runtime/client';

import type {
  DataWriteOperationName,
  PrismaModelOperationName,
  RowResultOperationName,
} from '../metadata/prisma-operations.js';
import type { RpcPromise } from './rpc-promise.js';

// The client reads the application's rules by their type only (`typeof rules`): a rules object
// declared with `satisfies CrudApiRules` keeps the literal modes and types these types need. One
// typed as `CrudApiRules` (names only known at run time) leaves Prisma's inputs as they are.

/** No rules: Prisma's inputs as they are. */
export type NoRules = Record<never, never>;

type Known<T> = string extends keyof T ? NoRules : T;
type FieldsOf<R> = R extends { fields: infer F } ? Known<F> : NoRules;
type VirtualOf<R> = R extends { virtual: infer V } ? Known<V> : NoRules;

/** The columns a client may not give: server-set and internal ones (every mode but `writeOnly`). */
type Unwritable<R> = {
  [K in keyof FieldsOf<R>]: FieldsOf<R>[K] extends 'writeOnly' ? never : K;
}[keyof FieldsOf<R>] &
  string;

/** The columns no answer carries: write-only and internal ones. */
type Unreadable<R> = {
  [K in keyof FieldsOf<R>]: FieldsOf<R>[K] extends 'writeOnly' | 'internal' ? K : never;
}[keyof FieldsOf<R>] &
  string;

/**
 * The rules' unreadable columns as Prisma's global `omit` option (`{ user: { passwordHash: true } }`):
 * results computed with it leave them out of every model's rows, included relations too.
 */
export type RulesOmit<Rules> = string extends keyof Rules
  ? NoRules
  : { omit: { [M in keyof Rules & string as Uncapitalize<M>]: { [K in Unreadable<Rules[M]>]: true } } };

/** Whether the rules leave columns out of answers (write-only or internal ones). */
export type HidesColumns<Rules> = string extends keyof Rules
  ? false
  : [{ [M in keyof Rules]: Unreadable<Rules[M]> }[keyof Rules]] extends [never]
    ? false
    : true;

/** A virtual field's value by its declared type. */
type VirtualValue<F> = F extends { type: infer T }
  ? T extends 'String'
    ? string
    : T extends 'Int' | 'Float'
      ? number
      : T extends 'Boolean'
        ? boolean
        : T extends 'DateTime'
          ? Date | string
          : unknown
  : unknown;

type IsRequired<F, Create extends boolean> = Create extends true
  ? F extends { required: true }
    ? true
    : false
  : false;

/** The virtual fields of a create (required ones required) or an update (all optional). */
type VirtualData<V, Create extends boolean> = {
  [K in keyof V as IsRequired<V[K], Create> extends true ? K : never]: VirtualValue<V[K]>;
} & {
  [K in keyof V as IsRequired<V[K], Create> extends true ? never : K]?: VirtualValue<V[K]>;
};

/**
 * Whether a member of Prisma's data union is the checked form a server-set foreign key rules out:
 * it declares that key `never` (its relation takes the key's place, and the server sets the key).
 */
type DeclaresNever<M, U> = true extends {
  [P in keyof M]-?: P extends U ? ([NonNullable<M[P]>] extends [never] ? true : false) : false;
}[keyof M]
  ? true
  : false;

/** Prisma's data of one row less what the server sets, with the virtual fields. */
type RowData<Data, R, Create extends boolean> = (Data extends unknown
  ? DeclaresNever<Data, Unwritable<R>> extends true
    ? never
    : Omit<Data, Unwritable<R>>
  : never) &
  VirtualData<VirtualOf<R>, Create>;

/** `data` of an operation: one row's, or (createMany) an array of them. */
type RuledData<Data, R, Create extends boolean> = Data extends readonly (infer Row)[]
  ? RowData<Row, R, Create>[]
  : RowData<Data, R, Create>;

/** Whether the rules change what a client may write to the model. */
export type ChangesWrites<R> = [Unwritable<R>] extends [never]
  ? [keyof VirtualOf<R>] extends [never]
    ? false
    : true
  : true;

type Operations<Delegate> = Delegate extends { [K: symbol]: { types: { operations: infer O } } } ? O : never;
/** Prisma's arguments of one of the delegate's operations. */
export type ArgsOf<Delegate, Operation extends string> =
  Operations<Delegate> extends Record<Operation, { args: infer A }> ? A : never;

/** The members of an operation's arguments that are write data (upsert has `create` and `update`). */
type DataMember = 'data' | 'create' | 'update';

/**
 * An operation's arguments with every write data member ruled (`data`, upsert's `create`/`update`),
 * or Prisma's own when the rules change no write of the model.
 */
type RuledArgs<Delegate, Operation extends string, R> = {
  [K in keyof ArgsOf<Delegate, Operation>]: K extends DataMember
    ? ChangesWrites<R> extends false
      ? ArgsOf<Delegate, Operation>[K]
      : RuledData<
          ArgsOf<Delegate, Operation>[K],
          R,
          K extends 'create' ? true : K extends 'update' ? false : Operation extends `create${string}` ? true : false
        >
    : ArgsOf<Delegate, Operation>[K];
};

/**
 * The arguments as given: write data checked against the ruled data itself (so an object literal
 * gets excess property checks), any other member as Prisma's `SelectSubset` takes it (its own type
 * when the arguments have it, so `select` narrows the result; `never` otherwise).
 */
export type Given<T, Shape> = {
  [K in keyof T]: K extends keyof Shape ? (K extends DataMember ? Shape[K] : T[K]) : never;
};

type PayloadOf<Delegate> = Delegate extends { [K: symbol]: { types: { payload: infer P } } } ? P : never;

/** An operation's result as Prisma types it, without the columns `Omit` (`RulesOmit`) names. */
export type ResultOf<Delegate, T, Operation extends string, Omit> =
  PayloadOf<Delegate> extends infer P extends Types.Payload
    ? Types.Result.GetResult<P, T, Operation & Types.Public.Operation, Omit>
    : never;

type RuledOperation<Delegate, Operation extends string, R, Omit = NoRules> = <
  T extends RuledArgs<Delegate, Operation, R>,
>(
  args: Given<T, RuledArgs<Delegate, Operation, R>>,
) => RpcPromise<ResultOf<Delegate, T, Operation, Omit>>;

/** An operation other than a write, with Prisma's arguments (optional where Prisma's are) and its result less `Omit`. */
type ReadableOperation<Delegate, Operation extends string, Omit> = <T extends ArgsOf<Delegate, Operation>>(
  ...args: NoRules extends ArgsOf<Delegate, Operation>
    ? [args?: Given<T, ArgsOf<Delegate, Operation>>]
    : [args: Given<T, ArgsOf<Delegate, Operation>>]
) => RpcPromise<ResultOf<Delegate, T, Operation, Omit>>;

/** The operations that answer rows, which the rules' unreadable columns are left out of. */
export type RowOperationName = Extract<RowResultOperationName, PrismaModelOperationName>;

/** The write operations whose data the rules shape. */
export type RuledOperationName = DataWriteOperationName;

/** The write operations of a model with rules: data without server-set and internal columns, with virtual fields. */
export type RuledWrites<Delegate, R, Omit = NoRules> = {
  [Operation in RuledOperationName & keyof Delegate]: RuledOperation<Delegate, Operation, R, Omit>;
};

/**
 * The operations that answer rows, when the rules leave columns out of answers: their results
 * without those columns (`RulesOmit`), in included relations too; writes as `RuledWrites`.
 * Soft delete's `restore` and `hardDelete` answer as `delete`.
 */
export type ReadableRows<Delegate, R, Omit> = RuledWrites<Delegate, R, Omit> & {
  [Operation in Exclude<RowOperationName, RuledOperationName> & keyof Delegate]: ReadableOperation<
    Delegate,
    Operation,
    Omit
  >;
} & { restore: ReadableOperation<Delegate, 'delete', Omit>; hardDelete: ReadableOperation<Delegate, 'delete', Omit> };
