/**
 * Every Prisma model operation the module serves, one row each: RPC routing, argument validation,
 * policies, result writers, the OpenAPI document and the client's types derive from this table, so
 * a row handled in one place and not another fails a test (prisma-operations.spec.ts). A plain data
 * module: the browser client bundles it.
 */

/** How a request's `take` is limited by the `maxTake` option. */
export type TakeRule =
  /** Cap an explicit `take`; a missing one means "all rows", so it becomes `maxTake`. */
  | 'default'
  /** Cap an explicit `take` only. */
  | 'cap';

/** What a successful call answers: rows, or `{ count }` of the rows written (`batch`), a count, aggregates, groups. */
export type ResultKind = 'rows' | 'row' | 'row-or-null' | 'batch' | 'count' | 'aggregate' | 'groups' | 'versions';

/**
 * The results that are rows of the model, shaped by `select`, `include` and `omit`: rows, one row,
 * one row or null when none matches.
 */
const ROW_RESULTS = ['rows', 'row', 'row-or-null'] as const satisfies readonly ResultKind[];
type RowResult = (typeof ROW_RESULTS)[number];

export interface PrismaOperation {
  readonly name: string;
  readonly access: 'read' | 'write';
  /** `one`: the row a unique `where` names, or the one row created; `many`: rows a filter matches, or several created. */
  readonly rows: 'one' | 'many';
  /** The operation whose Prisma `*Args` grammar the arguments follow (soft delete's own take `delete`'s). */
  readonly args: string;
  /** HTTP methods the RPC interface serves it with. */
  readonly methods: readonly string[];
  /** Status of a successful call. */
  readonly successStatus: 200 | 201;
  readonly result: ResultKind;
  /** The database feature it needs (lib/prisma/provider-capabilities.ts); every provider has it when absent. */
  readonly requires?: 'returning';
  /** Whether the arguments accept a top-level `take`, and how `maxTake` limits it. */
  readonly take?: TakeRule;
  /**
   * Whether the call takes `withDeleted=true`, and then sees the deleted rows the caller may read
   * too: the reads, and `hardDelete` (to purge a deleted row).
   */
  readonly withDeleted?: true;
  /** Whether `If-Match` applies (a write of one row named by a unique `where`); other writes refuse it. */
  readonly ifMatch?: true;
  /** Whether a successful answer carries the `ETag` a read of the written row would. */
  readonly tagged?: true;
  /** Whether the row it writes is a deleted one (`restore`): its `If-Match` is compared with that row. */
  readonly writesDeletedRow?: true;
  /** An operation of soft-deleted models only (the `rules` option's `softDelete`), as their policy delegate has. */
  readonly softDeleteOnly?: true;
  /** An operation of models that record their history only (the `rules` option's `history`). */
  readonly historyOnly?: true;
  /** Whether a read takes `asOf`, and answers the rows as they were then (models with history). */
  readonly asOf?: true;
}

const GET = ['GET'] as const;
const POST = ['POST'] as const;
const PATCH_OR_PUT = ['PATCH', 'PUT'] as const;
const DELETE = ['DELETE'] as const;
const READ = { access: 'read', methods: GET, successStatus: 200, withDeleted: true } as const;
const CREATE = { access: 'write', methods: POST, successStatus: 201 } as const;
/** A write sent with POST that may create nothing new (an upsert finding its row, a restore). */
const POST_WRITE = { access: 'write', methods: POST, successStatus: 200 } as const;
const UPDATE = { access: 'write', methods: PATCH_OR_PUT, successStatus: 200 } as const;
const REMOVE = { access: 'write', methods: DELETE, successStatus: 200 } as const;

/** The table, `as const` so that the types below name its rows. */
const TABLE = [
  { ...READ, name: 'findMany', rows: 'many', args: 'findMany', result: 'rows', take: 'default', asOf: true },
  { ...READ, name: 'findUnique', rows: 'one', args: 'findUnique', result: 'row-or-null', asOf: true },
  { ...READ, name: 'findUniqueOrThrow', rows: 'one', args: 'findUniqueOrThrow', result: 'row', asOf: true },
  { ...READ, name: 'findFirst', rows: 'many', args: 'findFirst', result: 'row-or-null', take: 'cap', asOf: true },
  {
    ...READ,
    name: 'findFirstOrThrow',
    rows: 'many',
    args: 'findFirstOrThrow',
    result: 'row',
    take: 'cap',
    asOf: true,
  },
  { ...READ, name: 'count', rows: 'many', args: 'count', result: 'count', take: 'cap', asOf: true },
  { ...READ, name: 'aggregate', rows: 'many', args: 'aggregate', result: 'aggregate', take: 'cap' },
  { ...READ, name: 'groupBy', rows: 'many', args: 'groupBy', result: 'groups', take: 'cap' },
  { ...CREATE, name: 'create', rows: 'one', args: 'create', result: 'row', tagged: true },
  { ...CREATE, name: 'createMany', rows: 'many', args: 'createMany', result: 'batch' },
  {
    ...CREATE,
    name: 'createManyAndReturn',
    rows: 'many',
    args: 'createManyAndReturn',
    result: 'rows',
    requires: 'returning',
  },
  { ...POST_WRITE, name: 'upsert', rows: 'one', args: 'upsert', result: 'row', ifMatch: true, tagged: true },
  { ...UPDATE, name: 'update', rows: 'one', args: 'update', result: 'row', ifMatch: true, tagged: true },
  { ...UPDATE, name: 'updateMany', rows: 'many', args: 'updateMany', result: 'batch' },
  {
    ...UPDATE,
    name: 'updateManyAndReturn',
    rows: 'many',
    args: 'updateManyAndReturn',
    result: 'rows',
    requires: 'returning',
  },
  { ...REMOVE, name: 'delete', rows: 'one', args: 'delete', result: 'row', ifMatch: true },
  { ...REMOVE, name: 'deleteMany', rows: 'many', args: 'deleteMany', result: 'batch' },
  {
    ...POST_WRITE,
    name: 'restore',
    rows: 'one',
    args: 'delete',
    result: 'row',
    ifMatch: true,
    tagged: true,
    writesDeletedRow: true,
    softDeleteOnly: true,
  },
  {
    ...REMOVE,
    name: 'hardDelete',
    rows: 'one',
    args: 'delete',
    result: 'row',
    withDeleted: true,
    ifMatch: true,
    softDeleteOnly: true,
  },
  // The recorded versions of one row, newest first (docs/history.md).
  {
    access: 'read',
    methods: GET,
    successStatus: 200,
    name: 'history',
    rows: 'one',
    args: 'history',
    result: 'versions',
    take: 'default',
    historyOnly: true,
  },
  // Puts one row back to a recorded version, by an update.
  {
    ...POST_WRITE,
    name: 'restoreVersion',
    rows: 'one',
    args: 'restoreVersion',
    result: 'row',
    ifMatch: true,
    tagged: true,
    historyOnly: true,
  },
] as const satisfies readonly PrismaOperation[];

type Row = (typeof TABLE)[number];

export type PrismaOperationName = Row['name'];
/** Prisma's own operations, which every model's delegate has. */
export type PrismaModelOperationName = Exclude<Row, { softDeleteOnly: true } | { historyOnly: true }>['name'];
/** The operations soft-deleted models add to Prisma's. */
export type SoftDeleteOperationName = Extract<Row, { softDeleteOnly: true }>['name'];
/** The operations models with history add to Prisma's. */
export type HistoryOperationName = Extract<Row, { historyOnly: true }>['name'];
/** The reads that take `asOf` (models with history). */
export type AsOfOperationName = Extract<Row, { asOf: true }>['name'];
export type ReadOperationName = Extract<Row, { access: 'read' }>['name'];
export type WriteOperationName = Extract<Row, { access: 'write' }>['name'];
/** The writes given data to write: every write but the deletes. */
export type DataWriteOperationName = Exclude<
  WriteOperationName,
  Extract<Row, { args: 'delete' | 'deleteMany' }>['name']
>;
/** The operations whose `*Args` grammar an operation follows. */
export type ArgsGrammarName = Row['args'];
/** The operations answering rows shaped by `select`, `include` and `omit`. */
export type RowResultOperationName = Extract<Row, { result: RowResult }>['name'];

/** A row of the table, with the names its columns hold. */
export type OperationRow = PrismaOperation & { readonly name: PrismaOperationName; readonly args: ArgsGrammarName };

/**
 * Every operation, in the table's order. Only names in it reach the Prisma client, so `$queryRaw`,
 * `__proto__` and other client properties are never callable.
 */
export const PRISMA_OPERATIONS: readonly OperationRow[] = TABLE;

const BY_NAME: ReadonlyMap<string, OperationRow> = new Map(PRISMA_OPERATIONS.map((row) => [row.name, row]));

/** The row of an operation name (whatever model and database it is asked of), if the table has it. */
export function prismaOperation(name: string): OperationRow | undefined {
  return BY_NAME.get(name);
}

/** Whether an operation answers rows of its model (or null), which its selection shapes. */
export function answersRows(operation: PrismaOperation): boolean {
  return (ROW_RESULTS as readonly string[]).includes(operation.result);
}

/** The names of the rows that `test` holds for, in the table's order. */
export function operationNames(test: (operation: OperationRow) => boolean): ReadonlySet<string> {
  return new Set(PRISMA_OPERATIONS.filter(test).map((row) => row.name));
}
