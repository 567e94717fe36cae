/** Injection token of the validated module options (`ResolvedCrudApiOptions`). */
export const CRUD_API_OPTIONS = Symbol('CRUD_API_OPTIONS');

/** Injection token of the symbol that tells one module instance's routes from another's. */
export const CRUD_API_MOUNT = Symbol('CRUD_API_MOUNT');

/** Injection token of one instance's controllers, each with the mount it serves (`MountedControllers`). */
export const CRUD_API_CONTROLLERS = Symbol('CRUD_API_CONTROLLERS');

export const DEFAULT_REST_PATH = 'api/rest';
export const DEFAULT_RPC_PATH = 'api/rpc';
export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_COUNT = 'exact';
export const DEFAULT_ID_DIVIDER = '_';
export const DEFAULT_BODY_LIMIT = '1mb';
export const DEFAULT_LIMITS = {
  maxIncludeDepth: 3,
  maxIncludePaths: 10,
  maxFilters: 20,
  maxFilterValueLength: 1000,
  maxFilterDepth: 4,
  maxArgumentDepth: 24,
  maxArgumentNodes: 2000,
  maxSelectionDepth: 4,
  maxJsonDepth: 32,
} as const;
/** Room for an order and its lines in one request, while bounding how long one request holds its locks. */
export const DEFAULT_TRANSACTIONS = {
  maxOperations: 20,
  timeout: 5000,
  maxWait: 2000,
} as const;

/** Room for a slow transaction (the default `transactions` bounds add up to 7 s), well within Kubernetes' 30 s. */
export const DEFAULT_SHUTDOWN = { gracePeriod: 10_000 } as const;

export const DEFAULT_CACHING = {
  cacheControl: 'private, no-cache',
  vary: ['Authorization'],
  revalidate: 'read' as const,
  trustFor: 60_000,
};

/** How long a key's answer is kept (`idempotency.retention`): a day of retries. */
export const DEFAULT_IDEMPOTENCY_RETENTION = 86_400_000;

/**
 * How a collection's total is found: `exact` counts the rows (the specification's `meta.total`),
 * `estimated` reads PostgreSQL's planner statistics where that is safe (`estimate-count.ts`),
 * `none` counts nothing (no `meta.total`, no `last` link).
 */
export const COUNT_STRATEGIES = ['exact', 'estimated', 'none'] as const;
