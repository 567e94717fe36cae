// The public surface, checked against etc/*.api.md (`npm run api:check`). Two audiences: applications
// (options, functions, errors) and subclasses of the services (the section "For subclasses" at the end).
// Everything else is internal and may change.

/** The module: `CrudApiModule.forRoot(options)` or `CrudApiModule.forRootAsync({ useFactory | useClass | useExisting })`. */
export { CrudApiModule } from './crud-api.module.js';
/** `CrudApiModule`'s base class, which carries `forRoot` and `forRootAsync` (a type only). */
export type { ConfigurableCrudApiModule } from './module/crud-api.module-definition.js';

export type {
  /** The options of one instance, as `forRootAsync`'s factory returns them. */
  CrudApiOptions,
  /** The class `forRootAsync({ useClass })` instantiates. */
  CrudApiOptionsFactory,
  /** The `limits` option. */
  CrudApiLimits,
  /** The `operations` option. */
  CrudApiOperations,
  /** The `prismaErrorMap` option's entries, and the default map's. */
  PrismaErrorMapping,
  /** The `shutdown` option. */
  CrudApiShutdown,
  /** The `coalesceReads` option. */
  CoalesceReads,
  /** The `caching` option. */
  CrudApiCaching,
  /** The `idempotency` option. */
  CrudApiIdempotency,
  /** The `transactions` option. */
  CrudApiTransactions,
  /** The `count` option: how list answers count their rows. */
  CountStrategy,
  /** The `transactions.isolationLevel` option. */
  TransactionIsolationLevel,
} from './options/crud-api-options.interface.js';
/** The values of the `count` and `transactions.isolationLevel` options. */
export { COUNT_STRATEGIES, TRANSACTION_ISOLATION_LEVELS } from './options/crud-api.constants.js';
export type {
  /** What `forRoot` takes: the options plus the extras. */
  CrudApiModuleOptions,
  /** What `forRootAsync` takes: `useFactory`/`useClass`/`useExisting`, `imports`, `inject`, plus the extras. */
  CrudApiModuleAsyncOptions,
  /** Mount paths and service classes: given to `forRoot`/`forRootAsync` directly, never by a factory. */
  CrudApiModuleExtras,
} from './module/crud-api-module-options.interface.js';
/** The `version` of a mount (extras `rest`/`rpc`/`openapi`), as Nest's controllers take it. */
export type { RouteVersion } from './shared/nest-route-paths.js';
/** One model's entry of the `operations` option. */
export type { ModelOperationsOption } from './metadata/model-meta.types.js';
/** The `onServerError` option: unexpected (5xx) errors with their request id, for Sentry and the like. */
export type { ServerErrorInfo, ServerErrorListener } from './telemetry/server-error-report.js';
/** The interface that answered a request: `'rest'` or `'rpc'`. */
export type { ApiInterface } from './telemetry/request-telemetry.js';
/** The platform's request (Express or Fastify) handed to `getPrisma` and `context`. */
export type { PlatformRequest } from './shared/api-request.js';

/** The `live` option. */
export type { CrudApiLive } from './changes/live.types.js';
/** Live queries of an instance: `committed(models)` after the application's own writes (docs/live.md). */
export { LiveQueries } from './changes/live-queries.js';
/** What the module needs of a Prisma client. */
export type { PrismaClientLike } from './prisma/prisma-client-like.js';
/** SQLite: wait for another connection's lock without blocking the process (docs/databases.md). */
export {
  type AsyncBusyTimeoutOptions,
  /** What `withAsyncBusyTimeout` wraps: a Prisma SQLite driver adapter factory. */
  type SqlDriverAdapterFactory,
  withAsyncBusyTimeout,
} from './prisma/async-busy-timeout.js';
/** The shape of the `modelMeta` export written by `nestjs-crud-api-generator`. */
export type {
  DataModelMeta,
  FieldMeta,
  ModelMeta,
  /** A relation field's target and keys. */
  RelationMeta,
  /** A scalar field's Prisma type. */
  ScalarType,
  /** A `@@unique`/`@@id` constraint's fields. */
  UniqueConstraintMeta,
} from './metadata/model-meta.types.js';

/** The health of one instance, as a `@nestjs/terminus` indicator: database reachable, not shutting down. */
export {
  CrudApiHealth,
  type CrudApiHealthCheckOptions,
  type CrudApiHealthReason,
  type CrudApiHealthResult,
  type CrudApiReplicaHealth,
} from './lifecycle/crud-api-health.service.js';

/** The error the APIs and `withPolicies` raise: a catalogue code, a status and a client-safe message. */
export { CrudApiError, type CrudApiErrorOptions, type ErrorSource } from './errors/crud-api.error.js';
/** `CrudApiError`'s base class: Nest's `HttpException` (a type only). */
export type { HttpExceptionBase } from './errors/crud-api.error.js';
/** The catalogue of error codes with their status and title. */
export { ERROR_CODES, type ErrorCode } from './errors/error-codes.js';
/** The default Prisma-error-code mapping that the `prismaErrorMap` option extends. */
export { DEFAULT_PRISMA_ERROR_MAP } from './filters/prisma-error-map.js';

/** Access policies and write rules on any Prisma client, e.g. in hand-written endpoints. */
export { withDeletedRows, withPolicies, type WithPoliciesOptions } from './policies/with-policies.js';
/** The policies and rules part of `WithPoliciesOptions`. */
export type { PolicyConfig } from './policies/policy-set.js';
/** The `reason` values of policy rejections. */
export { POLICY_REASONS } from './policies/policy.error.js';
export type {
  /** Work on a transaction's changes before it commits (`withPolicies`' `beforeCommit`). */
  CommitHook,
  CrudApiPolicies,
  DefaultPolicy,
  FieldRule,
  ModelPolicy,
  PoliciesFor,
  PolicyAction,
  PolicyContext,
  PolicyRule,
  PolicyWhere,
  SoftDeleteAction,
  TransactionBounds,
  /** A Prisma delegate's `where` input: what `PoliciesFor` policies answer. */
  WhereOf,
} from './policies/policy.types.js';

/** Durable delivery of committed changes to webhooks (the `outbox` option, docs/live.md). */
export type { CrudApiOutbox, WebhookTarget } from './changes/outbox.types.js';
export { type WebhookVerification, verifyWebhookSignature } from './changes/webhook-signature.js';

/** History and time travel (the `history` option, docs/history.md), and one version of a row as `history` answers it. */
export type { CrudApiHistory } from './history/history.types.js';
export type { RowVersion } from './shared/row-version.js';

/** Rate limits per caller (the `rateLimits` option, docs/rate-limits.md). */
export type { CrudApiRateLimits, RateLimit } from './limits/rate-limits.types.js';
/** Read replicas with read-your-writes (the `replicas` option, docs/replicas.md). */
export type { CrudApiReplicas } from './replicas/replicas.types.js';

/** Teaches a client's superjson instance the RPC interface's Prisma types (Decimal, bytes). */
export { registerPrismaTypes, type DecimalConstructor } from './rpc/rpc-superjson.js';

/** OpenAPI 3.1 documents of an instance (`openapi` extra): inject `CrudApiOpenApi`, merge into another document. */
export { CrudApiOpenApi } from './openapi/crud-api-openapi.service.js';
export { mergeOpenApiDocuments, type OpenApiInterface } from './openapi/openapi-documents.js';
export type {
  CrudApiOpenApiOptions,
  OpenApiDocument,
  OpenApiOAuthFlow,
  OpenApiSecurityRequirement,
  OpenApiSecurityScheme,
  OpenApiServer,
  /** A JSON Schema of an OpenAPI document's components. */
  JsonSchema,
} from './openapi/openapi.types.js';

/** The application's write rules (the `rules` option): field modes, hooks, validation, change events. */
export { RuleError, type RuleIssue } from './rules/rule.error.js';
export type {
  /** A record of any fields: the data and rows of untyped rules. */
  AnyRecord,
  ChangeEvent,
  ChangeListener,
  CreateHookArgs,
  CrudApiRules,
  DeleteHookArgs,
  FieldMode,
  HookArgs,
  ModelRules,
  RuleContext,
  RuleSchema,
  RulesFor,
  SoftDelete,
  UpdateHookArgs,
  VirtualField,
  /** A Prisma delegate's argument of one operation. */
  ArgOf,
  /** A Prisma delegate's `data` input of one operation: what `RulesFor` hooks receive. */
  DataOf,
  /** A `before*` hook: answers the data to write, or changes it in place. */
  Hook,
  /** A Prisma delegate's row: what `RulesFor` hooks and events see. */
  RowOf,
} from './rules/rules.types.js';
/** One problem of a write's data, listed by `validation-failed` errors. */
export type { ValidationIssue } from './errors/crud-api.error.js';

/** Change notices between application instances, for live queries across instances (docs/live.md). */
export type { ChangeNotice, ChangeTransport } from './changes/change-transport.js';
export type {
  /** The options every change transport takes. */
  ChangeTransportOptionsBase,
  ChangeTransportReconnect,
  PostgresChangeTransportOptions,
  RedisChangeTransportOptions,
} from './changes/change-transport.types.js';
export { postgresChangeTransport } from './changes/postgres-change-transport.js';
export { redisChangeTransport } from './changes/redis-change-transport.js';

// For subclasses: what a `restService`/`rpcService` extra's class overrides, receives and injects.

/** Injection token of one instance's `ResolvedCrudApiOptions`, for service subclasses. */
export { CRUD_API_OPTIONS } from './options/crud-api.constants.js';
/** The options of one instance with every default applied (injected as `CRUD_API_OPTIONS`). */
export type { ResolvedCrudApiOptions } from './options/crud-api-options.interface.js';
/** Its `outbox`: the `outbox` option with every default applied. */
export type { OutboxSettings } from './changes/outbox.types.js';
/** Its `history`: the `history` option with its model resolved. */
export type { HistorySettings } from './history/history-writer.js';
/** The REST operations: subclass it and pass the subclass as the `restService` extra. */
export { type DeleteMode, RestService, type RelationshipChange } from './rest/rest.service.js';
/** What `RestService`'s resource operations (`createResource`...) take: override them to extend every REST write path. */
export type { ResourceContext } from './rest/resources/resource-context.js';
export type { ResourceTarget } from './rest/resources/resource-target.js';
export type { Selection } from './rest/serialize/build-selection.js';
export type { ResourceWrite } from './rest/write/parse-resource-document.js';
export type {
  /** What a relationship write does to the linkage (`RelationshipWrite['change']`). */
  LinkageChange,
  /** Related resources a write names: `ResourceWrite['references']`. */
  RelatedReference,
  RelationshipWrite,
  /** `ResourceContext['scope']`: the caller's limits on what a write may name. */
  WriteScope,
} from './rest/write/relationship-data.js';
/** A resource's id, by id field. */
export type { IdValues } from './rest/resource-id.js';
/** A row as Prisma answers it (what `createResource` and `updateResource` resolve to). */
export type { Row } from './rest/resources/model-delegate.js';
/** The RPC operations: subclass it and pass the subclass as the `rpcService` extra. */
export { RpcService } from './rpc/rpc.service.js';
/** What `RpcService`'s protected helpers (`prepareCall`, `prepareStep`...) take and answer. */
export type { RpcArgs } from './rpc/parse-rpc-args.js';
export type { ArgsOrigin } from './rpc/args/args.error.js';
export type { TransactionStep } from './rpc/transaction/parse-transaction-body.js';
export type { PrismaOperation, ResultKind, TakeRule } from './metadata/prisma-operations.js';
/** What the services receive: the request described independently of the platform. */
export type { ApiRequest } from './shared/api-request.js';
/** What the services return: `{ status, headers, body }`. */
export type { ApiResponse } from './shared/api-response.js';
/** The exposed models of one instance (a dependency of the services). */
export { ModelRegistry } from './metadata/model-registry.js';
/** The Prisma client of each request (a dependency of the services). */
export { PrismaClientResolver } from './data/prisma-client.resolver.js';
