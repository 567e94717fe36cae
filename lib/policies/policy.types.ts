import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import type { ModelFieldModes } from '../rules/field-modes.js';
import type { ChangeEvent } from '../rules/rules.types.js';

/**
 * Access-policy rules, written in TypeScript by the application. A rule is a boolean, a Prisma
 * `where` object of the model (rows matching it are permitted) or a function of the request's
 * context returning either.
 */
export type PolicyWhere = Record<string, unknown>;

/** The context rules receive: by default `{ user: request.user }` (option `context`). */
// The application decides what its context holds; rules read it with the types it gave them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PolicyContext = Record<string, any>;

export type PolicyRule<Where = PolicyWhere, Ctx = PolicyContext> = boolean | Where | ((ctx: Ctx) => boolean | Where);

/**
 * Field rules depend on the context only, never on the row: a field is hidden or protected for
 * the whole request, so "a hidden field does not exist" holds for filters and sorts as well.
 */
export type FieldRule<Ctx = PolicyContext> = boolean | ((ctx: Ctx) => boolean);

/**
 * `postUpdate` is the rule a row must satisfy after an update (PostgreSQL's `WITH CHECK`);
 * `restore`, `readDeleted` and `hardDelete` apply to soft-deleted models only.
 */
export type PolicyAction = 'read' | 'create' | 'update' | 'postUpdate' | 'delete' | 'history' | SoftDeleteAction;

/** The actions on soft-deleted rows: denied unless a rule allows them, whatever `defaultPolicy` says. */
export type SoftDeleteAction = 'restore' | 'readDeleted' | 'hardDelete';

export interface ModelPolicy<Where = PolicyWhere, Ctx = PolicyContext> {
  /** Rows the caller may see; rows outside it do not exist for the caller. */
  read?: PolicyRule<Where, Ctx>;
  /** Rows the caller may create: the new row must match (checked inside the write's transaction). */
  create?: PolicyRule<Where, Ctx>;
  /**
   * Rows the caller may change. Like PostgreSQL's row-level security, it filters the rows an update
   * may touch and is checked again on each row after the change, in the same transaction (a row
   * the change moves outside the rule rolls the write back: 403).
   */
  update?: PolicyRule<Where, Ctx>;
  /**
   * What a row must satisfy after an update, when that differs from `update` (for example "an author
   * may publish a draft": `update: { authorId, published: false }`, `postUpdate: { authorId }`).
   * Default: the `update` rule.
   */
  postUpdate?: PolicyRule<Where, Ctx>;
  /** Rows the caller may delete (on a soft-deleted model: mark deleted). */
  delete?: PolicyRule<Where, Ctx>;
  /**
   * Rows whose history (recorded versions) the caller may read, among those it may read: a model
   * whose rules record its history (docs/history.md). Default: every row it may read.
   */
  history?: PolicyRule<Where, Ctx>;
  /** Soft-deleted rows the caller may restore. Default: none. */
  restore?: PolicyRule<Where, Ctx>;
  /** Soft-deleted rows the caller may read when it asks for deleted rows. Default: none. */
  readDeleted?: PolicyRule<Where, Ctx>;
  /** Rows of a soft-deleted model the caller may remove for good (deleted ones too, when it reads them). Default: none. */
  hardDelete?: PolicyRule<Where, Ctx>;
  fields?: {
    /** `false` hides the field: never returned, unusable in where/orderBy/select/... (400). */
    read?: Record<string, FieldRule<Ctx>>;
    /** `false` protects the field: writing it is refused (403). */
    write?: Record<string, FieldRule<Ctx>>;
  };
}

/** Rules per Prisma model name (`Post`). */
// Each model's rules are typed by its own delegate, so the map as a whole cannot name one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CrudApiPolicies<Ctx = PolicyContext> = Record<string, ModelPolicy<any, Ctx>>;

/**
 * Decides actions a model's rules leave out (and models without rules). Default `'deny'`: once an
 * application opts into policies, a model added to the schema later is not exposed by accident.
 */
export type DefaultPolicy = 'allow' | 'deny';

export type WhereOf<Delegate> = Delegate extends { findMany(args?: infer Args): unknown }
  ? NonNullable<Args> extends { where?: infer Where }
    ? Where
    : PolicyWhere
  : PolicyWhere;

/**
 * Policies typed against a generated Prisma client: `where` rules are checked against each
 * model's `WhereInput`. `const policies: PoliciesFor<PrismaClient, { user?: User }> = { Post: {...} }`.
 */
export type PoliciesFor<Client, Ctx = PolicyContext> = {
  [
    Key in keyof Client as Key extends `$${string}` ? never : Key extends string ? Capitalize<Key> : never
  ]?: ModelPolicy<WhereOf<Client[Key]>, Ctx>;
};

/** How long a transaction may wait for a connection and run, in milliseconds (Prisma's defaults: 2000, 5000). */
export interface TransactionBounds {
  maxWait?: number;
  timeout?: number;
}

/** What services that build queries themselves (REST's `select` of every attribute) need to know. */
export interface PolicyInspector {
  /** Fields the caller may not see: leave them out of any `select` built on the caller's behalf. */
  hiddenFields(model: string): ReadonlySet<string>;
  /** Whether the caller may read every row of the model (so a foreign key alone proves the related row readable). */
  readsEveryRow(model: string): boolean;
  /** How clients may use the model's fields, by the write rules (write-only, server-set, internal, virtual). */
  fieldModes(model: string): ModelFieldModes;
  /**
   * Whether the client's writes run the write rules, which report the invalid values (`InvalidValue`)
   * a parser leaves in the data together with the validators' and hooks' issues. Without, the
   * parser refuses them itself.
   */
  readonly reportsInvalidValues?: boolean;
}

/** Called in a transaction once its changes are read, before it commits: its failure rolls the transaction back. */
export type CommitHook = (tx: PrismaClientLike, events: readonly ChangeEvent[]) => Promise<void>;
