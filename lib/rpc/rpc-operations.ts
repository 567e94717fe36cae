import { type ProviderFeature, RETURNING } from '../prisma/provider-capabilities.js';

/** How a request's `take` is limited by the `maxTake` option. */
export type TakeRule =
  /** Cap an explicit `take`; a missing one means "all rows", so it becomes `maxTake`. */
  | 'default'
  /** Cap an explicit `take` only. */
  | 'cap';

export interface RpcOperation {
  /** HTTP methods the operation answers to. */
  methods: readonly string[];
  /** Status of a successful call. */
  successStatus: number;
  /** The database feature it needs; every provider has it when absent. */
  requires?: ProviderFeature;
  /** Whether the arguments accept a top-level `take`. */
  take?: TakeRule;
  /**
   * Whether the call takes `withDeleted=true`, and then sees the deleted rows the caller may read
   * too: the reads, and `hardDelete` (to purge a deleted row).
   */
  withDeleted?: boolean;
  /** Whether the row it writes is a deleted one (`restore`): its `If-Match` is compared with that row. */
  writesDeletedRow?: boolean;
}

const GET = ['GET'];
const POST = ['POST'];
const PATCH_OR_PUT = ['PATCH', 'PUT'];
const DELETE = ['DELETE'];
const READ: RpcOperation = { methods: GET, successStatus: 200, withDeleted: true };

/**
 * Every operation the RPC interface serves, by Prisma name. Only names in this table reach the
 * Prisma client, so `$queryRaw`, `__proto__` and other client properties are never callable.
 */
export const RPC_OPERATIONS: ReadonlyMap<string, RpcOperation> = new Map<string, RpcOperation>([
  ['findMany', { ...READ, take: 'default' }],
  ['findUnique', READ],
  ['findUniqueOrThrow', READ],
  ['findFirst', { ...READ, take: 'cap' }],
  ['findFirstOrThrow', { ...READ, take: 'cap' }],
  ['count', { ...READ, take: 'cap' }],
  ['aggregate', { ...READ, take: 'cap' }],
  ['groupBy', { ...READ, take: 'cap' }],
  ['create', { methods: POST, successStatus: 201 }],
  ['createMany', { methods: POST, successStatus: 201 }],
  ['createManyAndReturn', { methods: POST, successStatus: 201, requires: RETURNING }],
  ['upsert', { methods: POST, successStatus: 200 }],
  ['update', { methods: PATCH_OR_PUT, successStatus: 200 }],
  ['updateMany', { methods: PATCH_OR_PUT, successStatus: 200 }],
  ['updateManyAndReturn', { methods: PATCH_OR_PUT, successStatus: 200, requires: RETURNING }],
  ['delete', { methods: DELETE, successStatus: 200 }],
  ['deleteMany', { methods: DELETE, successStatus: 200 }],
]);

/**
 * The operations a soft-deleted model (the `rules` option's `softDelete`) has besides Prisma's, as
 * its delegate on the policy client does: on any other model they are unknown operations.
 */
export const SOFT_DELETE_RPC_OPERATIONS: ReadonlyMap<string, RpcOperation> = new Map<string, RpcOperation>([
  ['restore', { methods: POST, successStatus: 200, writesDeletedRow: true }],
  ['hardDelete', { methods: DELETE, successStatus: 200, withDeleted: true }],
]);

/** Whether a name is an operation of either table (whatever model and database it is asked of). */
export function isRpcOperationName(name: string): boolean {
  return RPC_OPERATIONS.has(name) || SOFT_DELETE_RPC_OPERATIONS.has(name);
}

/** The operation behind a URL segment, if it exists on the provider (and on a soft-deleted model, for its own). */
export function findRpcOperation(name: string, provider: string, softDeleted = false): RpcOperation | undefined {
  const operation = RPC_OPERATIONS.get(name) ?? (softDeleted ? SOFT_DELETE_RPC_OPERATIONS.get(name) : undefined);
  if (!operation || (operation.requires && !operation.requires.supports(provider))) return undefined;
  return operation;
}

/** Why `findRpcOperation` found nothing, for the client: an unknown name, or what the database lacks. */
export function missingOperationMessage(name: string, provider: string): string {
  const requires = RPC_OPERATIONS.get(name)?.requires;
  return requires ? requires.refusal(name, provider) : `Unknown operation "${name}".`;
}

/** Whether the arguments of this method travel in the `q` query parameter rather than the body. */
export function readsArgsFromQuery(method: string): boolean {
  return method === 'GET' || method === 'DELETE';
}
