/** Injection token of the validated module options (`ResolvedCrudApiOptions`). */
export const CRUD_API_OPTIONS = Symbol('CRUD_API_OPTIONS');

/** Injection token of the symbol that tells one module instance's routes from another's. */
export const CRUD_API_MOUNT = Symbol('CRUD_API_MOUNT');

/** Injection token of one instance's controllers, each with the mount it serves (`MountedControllers`). */
export const CRUD_API_CONTROLLERS = Symbol('CRUD_API_CONTROLLERS');

export const DEFAULT_REST_PATH = 'api/rest';
export const DEFAULT_RPC_PATH = 'api/rpc';
/**
 * How a collection's total is found: `exact` counts the rows (the specification's `meta.total`),
 * `estimated` reads PostgreSQL's planner statistics where that is safe (`estimate-count.ts`),
 * `none` counts nothing (no `meta.total`, no `last` link).
 */
export const COUNT_STRATEGIES = ['exact', 'estimated', 'none'] as const;

/** The isolation levels Prisma accepts; which ones work depends on the database (SQLite: Serializable). */
export const TRANSACTION_ISOLATION_LEVELS = [
  'ReadUncommitted',
  'ReadCommitted',
  'RepeatableRead',
  'Snapshot',
  'Serializable',
] as const;
