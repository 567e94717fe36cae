import type {
  HistoryOperationName,
  PrismaModelOperationName,
  SoftDeleteOperationName,
} from '../metadata/prisma-operations.js';
import type { DecimalConstructor } from '../rpc/prisma-superjson-types.js';
import type { RpcAsOfReads, RpcHistoryOperations } from './history.types.js';
import type { OfflineMode } from './offline/offline-mode.js';
import type {
  ChangesWrites,
  HidesColumns,
  NoRules,
  ReadableRows,
  RowOperationName,
  RuledOperationName,
  RuledWrites,
  RulesOmit,
} from './rules-data.types.js';

/** What `new Headers(...)` takes: an object, pairs or a Headers. */
export type RpcHeaders = ConstructorParameters<typeof Headers>[0];

/** Every Prisma operation the RPC interface serves (lib/metadata/prisma-operations.ts), as the client offers them. */
export type RpcOperationName = PrismaModelOperationName;

/** The operations of soft-deleted models (`rules: { Post: { softDelete } }`, docs/soft-delete.md). */
export type RpcSoftDeleteOperationName = SoftDeleteOperationName;

/** The operations of models that record their history (`rules: { Post: { history: true } }`, docs/history.md). */
export type RpcHistoryOperationName = HistoryOperationName;

/**
 * `restore` and `hardDelete`, typed as the model's `delete`: a unique `where`, `select`/`include`/
 * `omit`, the row as `delete` answers it. The types cannot know which models the application
 * soft-deletes, so every model has them; the server refuses them on the others.
 */
export type RpcSoftDeleteOperations<Delegate> = Delegate extends { delete: infer Delete }
  ? {
      /**
       * Brings back a deleted row, with the rows its delete cascaded to, and answers it: `404` when
       * no deleted row the `restore` rule permits matches, `409` when a live row took one of its
       * unique values meanwhile.
       */
      restore: Delete;
      /** Removes a row for good instead of marking it deleted, and answers it: `403` unless the `hardDelete` rule permits it. */
      hardDelete: Delete;
    }
  : NoRules;

/** The model properties of a generated Prisma client (`post`, `user`...): not `$`-prefixed, with delegates. */
export type RpcModelName<Client> = {
  [K in keyof Client]: K extends `$${string}` ? never : Client[K] extends { findMany: unknown } ? K : never;
}[keyof Client] &
  string;

/**
 * A model's operations with the generated delegate's own signatures, so arguments, `select`/`include`
 * narrowing and results are exactly Prisma's (operations a provider lacks are absent there too).
 * With the model's rules, the write operations take data as the rules let a client write it. Soft
 * delete's `restore` and `hardDelete` are typed as `delete` (`RpcSoftDeleteOperations`); history's
 * operations and the reads with `asOf` as `RpcHistoryOperations` and `RpcAsOfReads` say.
 */
export type RpcModelClient<Delegate, ModelRules = NoRules> = RpcAsOfReads<Delegate> &
  (ChangesWrites<ModelRules> extends true
    ? Pick<Delegate, Exclude<RpcOperationName, RuledOperationName> & keyof Delegate> & RuledWrites<Delegate, ModelRules>
    : Pick<Delegate, RpcOperationName & keyof Delegate>) &
  RpcSoftDeleteOperations<Delegate> &
  RpcHistoryOperations<Delegate>;

/**
 * A model's operations when the application's rules leave columns out of answers (write-only and
 * internal ones, of any model): every operation that answers rows is typed without them
 * (`ReadableRows`), the others as `RpcModelClient` has them. Such results have no fluent relation
 * methods in their type: use `include` or `select`.
 */
export type RpcReadableModelClient<Delegate, ModelRules, Rules> = RpcAsOfReads<Delegate, RulesOmit<Rules>> &
  Pick<Delegate, Exclude<RpcOperationName, RowOperationName | RuledOperationName> & keyof Delegate> &
  ReadableRows<Delegate, ModelRules, RulesOmit<Rules>> &
  RpcHistoryOperations<Delegate, RulesOmit<Rules>>;

/** The rules of the model behind a client property (`post` → `rules.Post`). */
export type RulesOfModel<Rules, Key extends string> = string extends keyof Rules
  ? NoRules
  : Capitalize<Key> extends keyof Rules
    ? Rules[Capitalize<Key>]
    : NoRules;

/** A batch's results, in order, as Prisma's `$transaction([...])` answers them. */
export type RpcTransactionResult<Calls extends readonly unknown[]> = {
  -readonly [I in keyof Calls]: Awaited<Calls[I]>;
};

/**
 * The RPC client of a generated Prisma client's type, and optionally of the application's rules
 * (`typeof rules`): then create and update data leave out server-set and internal columns and take
 * the virtual fields, and results leave out write-only and internal columns, which the server
 * never sends. Types only: the server applies the rules whatever a client sends.
 */
export type RpcClient<Client, Rules = NoRules> = {
  readonly [K in RpcModelName<Client>]: HidesColumns<Rules> extends true
    ? RpcReadableModelClient<Client[K], RulesOfModel<Rules, K>, Rules>
    : RpcModelClient<Client[K], RulesOfModel<Rules, K>>;
} & {
  /**
   * Runs calls of this client in order in one database transaction (`POST $transaction/sequential`):
   * all succeed, or nothing is written and the failing call's error is thrown.
   */
  $transaction<Calls extends readonly PromiseLike<unknown>[]>(
    calls: [...Calls],
    options?: RpcTransactionOptions,
  ): Promise<RpcTransactionResult<Calls>>;
};

export interface RpcTransactionOptions {
  /** The batch's `Idempotency-Key` (printable ASCII); a random UUID per `$transaction` call without it. */
  idempotencyKey?: string;
}

export interface RpcClientOptions {
  /** The RPC interface's URL, such as `https://api.example.com/api/rpc`. */
  baseUrl: string;
  /** A `fetch` to send requests with (defaults to the global one). */
  fetch?: typeof globalThis.fetch;
  /** Headers of every request, or a function that answers them per request (an access token...). */
  headers?: RpcHeaders | (() => RpcHeaders | Promise<RpcHeaders>);
  /**
   * The class Decimal values are restored into: Prisma's (`Prisma.Decimal` from the generated
   * `browser` entry) or decimal.js's. Without it a Decimal arrives as its string.
   */
  decimal?: DecimalConstructor;
  /**
   * How many read answers the client keeps with their `ETag` to revalidate with `If-None-Match`
   * (default 100, least recently used dropped first): a `304` answers the kept result, decoded
   * afresh. Entries are this client's own, keyed by URL and every request header. `false` or 0: none.
   */
  etagCache?: number | false;
  /**
   * The header of the server's consistency tokens (its `replicas.header`, default
   * `Consistency-Token`): the client sends back the latest one it was answered, so that a server
   * with read replicas never shows it a state older than its own writes.
   */
  consistencyHeader?: string;
  /**
   * Works offline (docs/offline.md), given `offlineFirst({ store, modelMeta })`: every write goes through a durable queue, stored with its
   * `Idempotency-Key` and the version of the row it was made on, and is sent in order when the
   * server can be reached; read answers are kept in the store for `If-None-Match` across reloads.
   */
  offline?: OfflineMode;
}
