import type { StandardSchemaV1 } from '@standard-schema/spec';

import type { ScalarType } from '../metadata/model-meta.types.js';

/**
 * The application's own rules on writes, per Prisma model: what a client may send (field modes),
 * what the server does with it (hooks), what it must satisfy (validation) and who hears about
 * committed changes (events). Applied by the same client wrapper as the access policies, so every
 * write path (REST, atomic operations, every RPC write, nested writes, hand-written code) obeys them.
 */

// The application decides what its context holds; hooks read it with the types it gave them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RuleContext = Record<string, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRecord = Record<string, any>;

/**
 * How clients may use a column:
 * - `writeOnly`: accepted on writes, never in an answer, unknown to filters, sorts and selections;
 * - `serverSet`: readable, never accepted from a client (a hook fills it, or the `serverSet` default);
 * - `internal`: neither accepted nor shown (a column only hooks write, such as a password hash).
 * `{ serverSet: (context) => value }` is `serverSet` with a value taken from the caller's context,
 * filled on every create that does not get it from a hook or a parent row.
 */
export type FieldMode<Ctx = RuleContext> =
  'writeOnly' | 'serverSet' | 'internal' | { serverSet: (context: Ctx) => unknown };

/** A write-only field that exists only on the wire; a hook turns it into columns and removes it. */
export interface VirtualField {
  /** How REST decodes it and OpenAPI describes it. */
  type: Exclude<ScalarType, 'Bytes' | 'Decimal' | 'BigInt'>;
  /** Whether a create must give it. Default false. */
  required?: boolean;
}

/**
 * A validator of one write's data: any Standard Schema (zod, valibot, arktype...) or a
 * class-validator DTO class. It checks the data after the hooks; its output does not replace the data.
 */
export type RuleSchema = StandardSchemaV1 | (new () => object);

/** What every hook receives. */
export interface HookArgs<Ctx, Client> {
  /** Prisma model name. */
  model: string;
  /** The caller's context (the module's `context` option). */
  context: Ctx;
  /** The client of the write's transaction, without rules or policies. */
  tx: Client;
}

export interface CreateHookArgs<Data, Ctx, Client> extends HookArgs<Ctx, Client> {
  /** The data of this row's create (nested writes included), virtual fields still present. */
  data: Data;
}

export interface UpdateHookArgs<Data, Row, Ctx, Client> extends HookArgs<Ctx, Client> {
  data: Data;
  /** The rows the update targets, as stored (every scalar column). */
  rows: Row[];
}

export interface DeleteHookArgs<Row, Ctx, Client> extends HookArgs<Ctx, Client> {
  rows: Row[];
}

/** A hook returns the data to write (or nothing, having changed `data` in place), or throws `RuleError`. */
export type Hook<Args, Data> = (args: Args) => Data | void | Promise<Data | void>;

// The transaction client is typed by `RulesFor`; untyped rules get any client.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ModelRules<Create = AnyRecord, Update = AnyRecord, Row = AnyRecord, Ctx = RuleContext, Client = any> {
  fields?: Record<string, FieldMode<Ctx>>;
  virtual?: Record<string, VirtualField>;
  beforeCreate?: Hook<CreateHookArgs<Create, Ctx, Client>, Create>;
  beforeUpdate?: Hook<UpdateHookArgs<Update, Row, Ctx, Client>, Update>;
  beforeDelete?: (args: DeleteHookArgs<Row, Ctx, Client>) => void | Promise<void>;
  /** Deletes set a timestamp instead of removing the row (see `SoftDelete`). */
  softDelete?: SoftDelete;
  /**
   * Every committed change of the model's rows is recorded in the `history` option's model, in the
   * write's transaction: its history can be read, the model read as of a past time, and a row put
   * back to a version (docs/history.md).
   */
  history?: boolean;
  validate?: {
    /** The data of a create, after the hooks. */
    create?: RuleSchema;
    /** The data of an update (only the fields it changes), after the hooks. */
    update?: RuleSchema;
  };
}

/**
 * A soft-deleted model: every delete (on either interface, nested ones included) sets `field` to the
 * time of the delete instead of removing the row, and rows whose `field` is set are gone for every
 * read, update and link. The access policies' `restore`, `readDeleted` and `hardDelete` rules say who
 * may bring a row back, see deleted rows, or remove a row for good.
 */
export interface SoftDelete {
  /** A nullable `DateTime` column: null while the row lives, the time of its delete after. */
  field: string;
  /**
   * Relations to rows that depend on this one (their foreign key points here; the related model is
   * soft-deleted too): deleting a row deletes its dependants with the same timestamp, and restoring
   * it restores exactly the dependants deleted with it.
   */
  cascade?: string[];
}

/** Rules per Prisma model name (`User`). */
// Each model's rules are typed by its own delegate, so the map as a whole cannot name one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CrudApiRules<Ctx = RuleContext> = Record<string, ModelRules<any, any, any, Ctx, any>>;

export type ArgOf<Delegate, Operation extends string> =
  Delegate extends Record<Operation, (args: infer Args) => unknown> ? NonNullable<Args> : never;
export type DataOf<Delegate, Operation extends string> =
  ArgOf<Delegate, Operation> extends { data: infer Data } ? Data : AnyRecord;
export type RowOf<Delegate> = Delegate extends { findFirstOrThrow(...args: never[]): PromiseLike<infer Row> }
  ? Row
  : AnyRecord;

/**
 * Rules typed against a generated Prisma client: hooks see each model's create and update inputs
 * and rows. `const rules: RulesFor<PrismaClient, { user?: User }> = { User: {...} }`.
 */
export type RulesFor<Client, Ctx = RuleContext> = {
  [Key in keyof Client as Key extends `$${string}` ? never : Key extends string ? Capitalize<Key> : never]?: ModelRules<
    DataOf<Client[Key], 'create'> & AnyRecord,
    DataOf<Client[Key], 'update'> & AnyRecord,
    RowOf<Client[Key]>,
    Ctx,
    Client
  >;
};

/** What a committed change looks like to listeners: one event per changed row. */
export interface ChangeEvent<Ctx = RuleContext> {
  model: string;
  operation: 'create' | 'update' | 'delete';
  /** The row's primary key (`{ id: 3 }`, every field of a compound key). */
  id: AnyRecord;
  /** The row after the change (absent for a delete). */
  after?: AnyRecord;
  /** The row before the change (updates and deletes). */
  before?: AnyRecord;
  context: Ctx;
}

/** A listener of committed changes: called after the commit, its failures are logged, never answered. */
export type ChangeListener<Ctx = RuleContext> = (event: ChangeEvent<Ctx>) => unknown;
