import type { CrudApiLive } from '../changes/live.types.js';
import type { CrudApiOutbox, OutboxSettings } from '../changes/outbox.types.js';
import type { ErrorCode } from '../errors/error-codes.js';
import type { CrudApiHistory } from '../history/history.types.js';
import type { HistorySettings } from '../history/history-writer.js';
import type { CrudApiRateLimits, ResolvedRateLimits } from '../limits/rate-limits.types.js';
import type { DataModelMeta, ModelMeta, ModelOperationsOption } from '../metadata/model-meta.types.js';
import type { CrudApiPolicies, DefaultPolicy, PolicyContext } from '../policies/policy.types.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import type { CrudApiReplicas, ResolvedReplicas } from '../replicas/replicas.types.js';
import type { ChangeListener, CrudApiRules } from '../rules/rules.types.js';
import type { PlatformRequest } from '../shared/api-request.js';
import type { RouteVersion } from '../shared/nest-route-paths.js';
import type { ServerErrorListener } from '../telemetry/server-error-report.js';
import type { COUNT_STRATEGIES, TRANSACTION_ISOLATION_LEVELS } from './crud-api.constants.js';

/**
 * The options of one module instance (what `forRootAsync`'s factory returns): the core options
 * first, then the advanced ones. `OPTION_TABLE` states how each is validated and its default.
 */
export interface CrudApiOptions {
  // Core options: what most applications set (docs/options.md#core-options).
  /** Base URL of the REST API, used to build every JSON:API link (`https://api.example.com/api/rest`). */
  endpoint: string;
  /** The Prisma client serving every request (give this or `getPrisma`). */
  prisma?: PrismaClientLike;
  /** The Prisma client for one request, e.g. one extended with the caller's identity; called once per request. */
  getPrisma?: (request: PlatformRequest) => PrismaClientLike | Promise<PrismaClientLike>;
  /** The `modelMeta` export of the module written by `nestjs-crud-api-generator`. */
  modelMeta: DataModelMeta;
  /**
   * Access policies per Prisma model name, enforced on both interfaces (docs/access-control.md).
   * Without this option every row and field is accessible.
   */
  // Any context type: the application's rules are typed with its own.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  policies?: CrudApiPolicies<any>;
  /**
   * The application's write rules per Prisma model name: field modes, hooks, validation
   * (docs/rules.md). Applied on every write path of both interfaces, with the policies.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  rules?: CrudApiRules<any>;

  // Advanced options: each has a default that fits most applications (docs/options.md#advanced-options).
  /**
   * Default and maximum page size of REST collections; `Infinity` disables pagination.
   * @defaultValue 100
   */
  pageSize?: number;
  /**
   * How REST offset pages find `meta.total`: `exact` counts, `estimated` reads PostgreSQL's
   * planner statistics where safe (else exact), `none` omits it. A request's `Prefer: count=…` overrides it.
   * @defaultValue `'exact'`
   */
  count?: CountStrategy;
  /**
   * Separator between the parts of a compound id in REST URLs and documents.
   * @defaultValue `'_'`
   */
  idDivider?: string;
  /**
   * Models exposed on both interfaces, by Prisma name or URL name.
   * @defaultValue all
   */
  models?: string[];
  /**
   * Largest accepted request body, as a byte count or a string such as `'512kb'`.
   * @defaultValue `'1mb'`
   */
  bodyLimit?: number | string;
  /** Per model (Prisma or URL name): make it read-only or drop single Prisma operations (`deleteMany`). */
  operations?: CrudApiOperations;
  /** Prisma error codes mapped to HTTP, merged over the defaults (`DEFAULT_PRISMA_ERROR_MAP`). */
  prismaErrorMap?: Record<string, PrismaErrorMapping>;
  /**
   * Largest RPC `take` (in absolute value); a larger or missing `take` on findMany is capped.
   * @defaultValue unlimited
   */
  maxTake?: number;
  /** Request-shape limits; each answers 400 beyond it. */
  limits?: CrudApiLimits;
  /** Listeners of committed changes: one event per changed row, after the commit (docs/rules.md). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  onChange?: ChangeListener<any> | ChangeListener<any>[];
  /**
   * Decides models and actions without rules when `policies` is given.
   * @defaultValue `'deny'`
   */
  defaultPolicy?: DefaultPolicy;
  /**
   * The context the policies see for one request.
   * @defaultValue `{ user: request.user }`
   */
  context?: (request: PlatformRequest) => PolicyContext | Promise<PolicyContext>;
  /** Multi-operation requests: RPC `$transaction/sequential` and JSON:API Atomic Operations. */
  transactions?: CrudApiTransactions;
  /**
   * Called with every error answered with a 5xx, and the request's id (its `X-Request-Id`), interface,
   * model and operation: report it to Sentry or the like (docs/observability.md). Not awaited; a
   * listener that throws is logged and changes nothing of the answer.
   */
  onServerError?: ServerErrorListener;
  /** Graceful shutdown of the instance's routes when the application closes (docs/operations.md). */
  shutdown?: CrudApiShutdown;
  /**
   * HTTP caching of reads (docs/http.md): a strong `ETag` on every successful GET of both
   * interfaces, `304 Not Modified` for a matching `If-None-Match`, with `Cache-Control` and `Vary`.
   * `false` sends none of them.
   */
  caching?: CrudApiCaching | false;
  /**
   * GETs that arrive together and would get the same answer share a read
   * (docs/http.md#coalesced-reads); each is read after it arrived, as it would be alone. Which
   * GETs are the same: `'request'` the same interface, URL, headers (but those unique
   * to each request, such as `X-Request-Id` and `traceparent`), client address, Prisma client
   * and policy context; `'context'` the same interface, URL, `Accept`, `Content-Type`, `Prefer`,
   * `caching.vary` headers, Prisma client and policy context, whoever sent them. `false`: every
   * GET reads.
   * @defaultValue `'request'`
   */
  coalesceReads?: CoalesceReads;
  /**
   * Live queries (docs/live.md): a GET of either interface sent with `Accept: text/event-stream`
   * streams its answer as Server-Sent Events, and again each time a commit changes it.
   */
  live?: CrudApiLive;
  /**
   * Idempotent retries of writes (docs/http.md): a write sent with an `Idempotency-Key` runs once.
   * Its answer is stored with the key, in the same transaction as the write, in a model of the
   * application's schema, and a retry with the same key and body gets that answer. Off without it.
   */
  idempotency?: CrudApiIdempotency;
  /**
   * Durable delivery of committed changes (docs/live.md): each change is written to an outbox model
   * in the transaction of the write, and delivered at least once to signed webhooks by a worker on
   * each instance. Off without it.
   */
  outbox?: CrudApiOutbox;
  /**
   * History and time travel (docs/history.md): every change of a model whose rules say
   * `history: true` is recorded in this model in the write's transaction; its history is readable,
   * and reads can ask for the rows as they were at a past time. Off without it.
   */
  history?: CrudApiHistory;
  /**
   * Rate limits per caller (docs/rate-limits.md): what each request costs is taken from its
   * caller's buckets, kept in the process, in Redis or in a model of the schema; a request beyond
   * answers 429. Off without it.
   */
  rateLimits?: CrudApiRateLimits;
  /**
   * PostgreSQL streaming replicas (docs/replicas.md): reads of both interfaces go to them, and a
   * caller never reads a state older than its own acknowledged writes, whose answers carry a
   * consistency token. Off without it.
   */
  replicas?: CrudApiReplicas;
}

/** Which GETs share a read (`coalesceReads`). */
export type CoalesceReads = 'request' | 'context' | false;

/** Where and for how long the answers of writes sent with an `Idempotency-Key` are kept (docs/http.md). */
export interface CrudApiIdempotency {
  /**
   * The Prisma model the answers are stored in, with the fields docs/http.md lists. It is the
   * module's own: neither interface exposes it, and policies and rules cannot name it.
   */
  model: string;
  /**
   * How long a key's answer is kept, in milliseconds.
   * @defaultValue 86400000 (24 hours)
   */
  retention?: number;
  /**
   * The caller a key belongs to: the same key from two callers names two requests. By default
   * callers without `request.user` share one scope.
   * @defaultValue `request.user` as JSON (what Passport-style guards set)
   */
  scope?: (request: PlatformRequest) => string | Promise<string>;
}

/** HTTP caching of the instance's GET answers (docs/http.md). */
export interface CrudApiCaching {
  /**
   * `Cache-Control` of successful GET answers (and their 304s). The default says that answers
   * are per caller, and that a cache revalidates (a 304 when unchanged) before reusing one. An
   * application's own `Cache-Control` on the response wins.
   * @defaultValue `'private, no-cache'`
   */
  cacheControl?: string;
  /**
   * Request headers the answers depend on besides `Accept` and `Prefer` (REST), which are always
   * named: the ones the application's authentication or `context` reads.
   * @defaultValue `['Authorization']`
   */
  vary?: string[];
  /**
   * How a conditional GET (`If-None-Match`) is revalidated (docs/http.md#revalidation-from-changes).
   * `'read'`: the read runs and its answer's tag is compared. `'changes'` (needs `live`):
   * the module remembers the tag a revalidated answer had, with the models its read reached, and
   * answers `304` without reading the database while it has heard of no commit to any of them
   * (the commits live queries hear of) and the tag is younger than `trustFor`.
   * @defaultValue `'read'`
   */
  revalidate?: 'read' | 'changes';
  /**
   * With `revalidate: 'changes'`, longest a remembered tag answers without a read, in milliseconds.
   * @defaultValue 60000
   */
  trustFor?: number;
}

/** How the multi-operation requests run; each request is one interactive transaction. */
export interface CrudApiTransactions {
  /**
   * Most operations in one request.
   * @defaultValue 20
   */
  maxOperations?: number;
  /**
   * Longest a transaction may run, in milliseconds, before it is rolled back.
   * @defaultValue 5000 (Prisma's)
   */
  timeout?: number;
  /**
   * Longest wait for a connection to start the transaction, in milliseconds.
   * @defaultValue 2000 (Prisma's)
   */
  maxWait?: number;
  /**
   * Isolation level, as Prisma names it (`Serializable`...).
   * @defaultValue the database's
   */
  isolationLevel?: TransactionIsolationLevel;
}

/** How the instance's routes stop when the application closes (docs/operations.md). */
export interface CrudApiShutdown {
  /**
   * Longest wait, in milliseconds, for the requests in flight on the instance's routes to end
   * before the application's own shutdown hooks run (which may disconnect Prisma).
   * @defaultValue 10000
   */
  gracePeriod?: number;
}

/** One of `TRANSACTION_ISOLATION_LEVELS`. */
export type TransactionIsolationLevel = (typeof TRANSACTION_ISOLATION_LEVELS)[number];

/** A class `forRootAsync({ useClass })` instantiates (or `useExisting` names) to get the options. */
export interface CrudApiOptionsFactory {
  createCrudApiOptions(): CrudApiOptions | Promise<CrudApiOptions>;
}

/** Per model: the Prisma operations clients may run. */
export type CrudApiOperations = Record<string, ModelOperationsOption>;

export interface CrudApiLimits {
  /**
   * Deepest include path (`a.b.c` is 3).
   * @defaultValue 3
   */
  maxIncludeDepth?: number;
  /**
   * Most include paths in one request.
   * @defaultValue 10
   */
  maxIncludePaths?: number;
  /**
   * Most `filter[...]` parameters in one request.
   * @defaultValue 20
   */
  maxFilters?: number;
  /**
   * Longest filter value, in characters.
   * @defaultValue 1000
   */
  maxFilterValueLength?: number;
  /**
   * Longest REST filter selector chain (`filter[author][posts][title]` is 3).
   * @defaultValue 4
   */
  maxFilterDepth?: number;
  /**
   * Deepest nesting of RPC arguments (objects and arrays, Json values included).
   * @defaultValue 24
   */
  maxArgumentDepth?: number;
  /**
   * Most values (object members and array items, counted recursively) in one RPC call's arguments.
   * @defaultValue 2000
   */
  maxArgumentNodes?: number;
  /**
   * Deepest RPC `include`/`select` nesting through relations (`include: { posts: { include: { author: true } } }` is 2).
   * @defaultValue 4
   */
  maxSelectionDepth?: number;
  /**
   * Deepest nesting of a JSON request body on either interface (Json attribute values included).
   * @defaultValue 32
   */
  maxJsonDepth?: number;
}

/** The options of one instance with every default applied, mount paths included. */
export type ResolvedCrudApiOptions = Omit<
  CrudApiOptions,
  'limits' | 'transactions' | 'shutdown' | 'caching' | 'idempotency' | 'outbox' | 'history' | 'rateLimits' | 'replicas'
> &
  Required<Pick<CrudApiOptions, 'pageSize' | 'count' | 'idDivider' | 'bodyLimit' | 'coalesceReads'>> & {
    /** Mount paths of the REST and RPC controllers. */
    restPath: string;
    rpcPath: string;
    /** The version of the instance's routes under Nest's versioning; without it, the `defaultVersion`. */
    version?: RouteVersion;
    /** Which mount paths are the defaults (served without their `api` segment under a global prefix that has one). */
    defaultPaths?: { rest: boolean; rpc: boolean };
    limits: Required<CrudApiLimits>;
    transactions: Required<Omit<CrudApiTransactions, 'isolationLevel'>> & Pick<CrudApiTransactions, 'isolationLevel'>;
    shutdown: Required<CrudApiShutdown>;
    caching: Required<CrudApiCaching> | false;
    /** The model is the schema's (which `modelMeta` no longer lists). */
    idempotency?: Required<Omit<CrudApiIdempotency, 'model'>> & { model: ModelMeta };
    /** The model is the schema's (which `modelMeta` no longer lists). */
    outbox?: OutboxSettings;
    /** The model is the schema's (which `modelMeta` no longer lists). */
    history?: HistorySettings;
    /** A store's model is the schema's (which `modelMeta` no longer lists). */
    rateLimits?: ResolvedRateLimits;
    replicas?: ResolvedReplicas;
  };

/** How a collection's total is found (`count` option, `Prefer: count=…`). */
export type CountStrategy = (typeof COUNT_STRATEGIES)[number];

export interface PrismaErrorMapping {
  status: number;
  code: ErrorCode;
  /**
   * What the client reads. Without it the client gets Prisma's one-line summary of the error
   * (never its call dump), or the code's title when that line could expose internals.
   */
  message?: string;
  /** The row applies only to errors carrying `meta.reason` (access-policy rejections). */
  requiresReason?: boolean;
}
