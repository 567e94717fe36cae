import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInstance,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsString,
  IsUrl,
  Matches,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

import type { CrudApiLive } from '../changes/live.types.js';
import { LIVE_DEFAULTS } from '../changes/live.types.js';
import type { CrudApiOutbox, WebhookTarget } from '../changes/outbox.types.js';
import { OUTBOX_DEFAULTS } from '../changes/outbox.types.js';
import type { CrudApiHistory } from '../history/history.types.js';
import { defaultActor } from '../history/history-writer.js';
import { defaultCaller } from '../limits/rate-limiter.js';
import type { CrudApiRateLimits, RateLimit } from '../limits/rate-limits.types.js';
import { DEFAULT_POLICY } from '../policies/policy-set.js';
import type { CrudApiReplicas } from '../replicas/replicas.types.js';
import type { PlatformRequest } from '../shared/api-request.js';
import { CONSISTENCY_TOKEN_HEADER } from '../shared/consistency-token.js';
import { COUNT_STRATEGIES, TRANSACTION_ISOLATION_LEVELS } from './crud-api.constants.js';
import type {
  CrudApiCaching,
  CrudApiIdempotency,
  CrudApiLimits,
  CrudApiOptions,
  CrudApiShutdown,
  CrudApiTransactions,
} from './crud-api-options.interface.js';
import { defaultsOf, optional, type OptionTable } from './option-spec.js';

/** `typeof`, not `instanceof Function`: a function from another realm (a test framework's mock) is one too. */
const isFunction = (name: string, shape: string) =>
  ValidateBy({
    name: 'isFunction',
    validator: {
      validate: (value) => typeof value === 'function',
      defaultMessage: () => `${name} must be a function ${shape}`,
    },
  });

const positiveInt = () => optional(IsInt(), Min(1));
const nonNegativeInt = () => optional(IsInt(), Min(0));

/** An HTTP field name (RFC 9110 §5.1: a token). */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const LIMITS = {
  maxIncludeDepth: { rules: positiveInt(), default: 3 },
  maxIncludePaths: { rules: positiveInt(), default: 10 },
  maxFilters: { rules: positiveInt(), default: 20 },
  maxFilterValueLength: { rules: positiveInt(), default: 1000 },
  maxFilterDepth: { rules: positiveInt(), default: 4 },
  maxArgumentDepth: { rules: positiveInt(), default: 24 },
  maxArgumentNodes: { rules: positiveInt(), default: 2000 },
  maxSelectionDepth: { rules: positiveInt(), default: 4 },
  maxJsonDepth: { rules: positiveInt(), default: 32 },
} satisfies OptionTable<CrudApiLimits>;

/** Room for an order and its lines in one request, while bounding how long one request holds its locks. */
const TRANSACTIONS = {
  maxOperations: { rules: positiveInt(), default: 20 },
  timeout: { rules: positiveInt(), default: 5000 },
  maxWait: { rules: positiveInt(), default: 2000 },
  isolationLevel: {
    rules: optional(
      IsIn(TRANSACTION_ISOLATION_LEVELS, {
        message: `isolationLevel must be one of ${TRANSACTION_ISOLATION_LEVELS.join(', ')}`,
      }),
    ),
    documented: "the database's",
  },
} satisfies OptionTable<CrudApiTransactions>;

/** Room for a slow transaction (the default `transactions` bounds add up to 7 s), well within Kubernetes' 30 s. */
const SHUTDOWN = {
  gracePeriod: { rules: nonNegativeInt(), default: 10_000 },
} satisfies OptionTable<CrudApiShutdown>;

const CACHING = {
  cacheControl: {
    rules: optional(
      IsString(),
      Matches(/^[\t\x20-\x7e]*[^\s][\t\x20-\x7e]*$/, { message: 'cacheControl must be a Cache-Control field value' }),
    ),
    default: 'private, no-cache',
  },
  vary: {
    rules: optional(IsArray(), Matches(FIELD_NAME, { each: true, message: 'vary must list header names' })),
    default: ['Authorization'],
  },
  revalidate: { rules: optional(IsIn(['read', 'changes'])), default: 'read' },
  trustFor: { rules: nonNegativeInt(), default: 60_000 },
} satisfies OptionTable<CrudApiCaching>;

/** Passport-style guards put the caller in `request.user`. */
const userScope = (request: PlatformRequest): string => JSON.stringify(request.user ?? null);

const IDEMPOTENCY = {
  model: { rules: [IsString(), IsNotEmpty()], documented: 'required' },
  /** A day of retries. */
  retention: { rules: positiveInt(), default: 86_400_000 },
  scope: {
    rules: optional(isFunction('scope', '(request) => string')),
    default: userScope,
    documented: 'request.user as JSON',
  },
} satisfies OptionTable<CrudApiIdempotency>;

const WEBHOOK = {
  name: { rules: [IsString(), IsNotEmpty()], documented: 'required' },
  url: {
    rules: [
      IsUrl(
        { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
        { message: 'url must be an http(s) URL' },
      ),
    ],
    documented: 'required',
  },
  secret: { rules: [IsString(), IsNotEmpty()], documented: 'required' },
  models: { rules: optional(IsArray(), IsString({ each: true })), documented: 'every model' },
} satisfies OptionTable<WebhookTarget>;

// The worker and the writers live below this folder: the outbox's defaults are theirs.
const OUTBOX = {
  model: { rules: [IsString(), IsNotEmpty()], documented: 'required' },
  webhooks: { rules: optional(IsArray(), ValidateNested({ each: true })), options: WEBHOOK, documented: 'none' },
  worker: { rules: optional(IsBoolean()), default: OUTBOX_DEFAULTS.worker },
  pollInterval: { rules: positiveInt(), default: OUTBOX_DEFAULTS.pollInterval },
  batchSize: { rules: positiveInt(), default: OUTBOX_DEFAULTS.batchSize },
  maxAttempts: { rules: positiveInt(), default: OUTBOX_DEFAULTS.maxAttempts },
  backoffBase: { rules: nonNegativeInt(), default: OUTBOX_DEFAULTS.backoffBase },
  backoffCap: { rules: nonNegativeInt(), default: OUTBOX_DEFAULTS.backoffCap },
  lease: { rules: positiveInt(), default: OUTBOX_DEFAULTS.lease },
  timeout: { rules: positiveInt(), default: OUTBOX_DEFAULTS.timeout },
  retention: { rules: positiveInt(), default: OUTBOX_DEFAULTS.retention },
  onDelivered: { rules: optional(isFunction('onDelivered', '(models) => void')) },
} satisfies OptionTable<CrudApiOutbox>;

const HISTORY = {
  model: { rules: [IsString(), IsNotEmpty()], documented: 'required' },
  actor: {
    rules: optional(isFunction('actor', '(context) => string | number | null')),
    default: defaultActor,
    documented: 'context.user?.id',
  },
  retention: { rules: positiveInt(), documented: 'kept for ever' },
} satisfies OptionTable<CrudApiHistory>;

const RATE_LIMIT = {
  name: {
    rules: [IsString(), Matches(/^[A-Za-z0-9_-]+$/, { message: 'a rate limit name must be letters, digits, _ or -' })],
    documented: 'required',
  },
  limit: { rules: [IsInt(), Min(1)], documented: 'required' },
  window: { rules: [IsInt(), Min(1)], documented: 'required' },
  when: { rules: optional(isFunction('when', '(context) => boolean')), documented: 'every caller' },
  models: { rules: optional(IsArray(), IsString({ each: true })), documented: 'every model' },
  operations: { rules: optional(IsArray(), IsString({ each: true })), documented: 'every operation' },
} satisfies OptionTable<RateLimit>;

const RATE_LIMITS = {
  limits: { rules: [IsArray(), ValidateNested({ each: true })], options: RATE_LIMIT, documented: 'required' },
  caller: {
    rules: optional(isFunction('caller', '(context, request) => string')),
    default: defaultCaller,
    documented: 'user: + context.user.id, else address: + client address',
  },
  store: {
    rules: optional(
      ValidateBy({
        name: 'isRateLimitStore',
        validator: {
          validate: (value) =>
            value === 'memory' ||
            (typeof value === 'object' &&
              value !== null &&
              (typeof (value as { redis?: { evalsha?: unknown } }).redis?.evalsha === 'function' ||
                typeof (value as { model?: unknown }).model === 'string')),
          defaultMessage: () => "store must be 'memory', { redis: <ioredis client> } or { model: '<model name>' }",
        },
      }),
    ),
    default: 'memory',
  },
  onStoreError: {
    rules: optional(IsIn(['open', 'closed'], { message: "onStoreError must be 'open' or 'closed'" })),
    default: 'open',
  },
  storeTimeout: { rules: positiveInt(), default: 1000 },
} satisfies OptionTable<CrudApiRateLimits>;

/** A Prisma client: what `replicas.clients` holds, read and extended by the module. */
const isPrismaClient = ValidateBy(
  {
    name: 'isPrismaClient',
    validator: {
      validate: (value) =>
        typeof (value as { $queryRawUnsafe?: unknown })?.$queryRawUnsafe === 'function' &&
        typeof (value as { $extends?: unknown }).$extends === 'function',
      defaultMessage: () => 'replicas.clients must hold Prisma clients, one per replica server',
    },
  },
  { each: true },
);

const REPLICAS = {
  clients: { rules: [IsArray(), isPrismaClient], documented: 'required' },
  maxLag: { rules: positiveInt(), default: 1000 },
  behind: {
    rules: optional(IsIn(['wait', 'primary'], { message: "behind must be 'wait' or 'primary'" })),
    default: 'wait',
  },
  maxWait: { rules: nonNegativeInt(), default: 200 },
  readTimeout: { rules: positiveInt(), default: 2000 },
  pollInterval: { rules: positiveInt(), default: 250 },
  header: {
    rules: optional(IsString(), Matches(FIELD_NAME, { message: 'replicas.header must be an HTTP field name' })),
    default: CONSISTENCY_TOKEN_HEADER,
  },
  cookie: {
    rules: optional(
      ValidateBy({
        name: 'isCookieName',
        validator: {
          validate: (value) => value === false || (typeof value === 'string' && FIELD_NAME.test(value)),
          defaultMessage: () => 'replicas.cookie must be a cookie name or false',
        },
      }),
    ),
    default: false,
  },
} satisfies OptionTable<CrudApiReplicas>;

// The live queries live below this folder: their defaults are theirs.
const LIVE = {
  debounce: { rules: nonNegativeInt(), default: LIVE_DEFAULTS.debounce },
  heartbeat: { rules: positiveInt(), default: LIVE_DEFAULTS.heartbeat },
  retry: { rules: nonNegativeInt(), default: LIVE_DEFAULTS.retry },
  maxPerConnection: { rules: positiveInt(), default: LIVE_DEFAULTS.maxPerConnection },
  maxPerCaller: { rules: positiveInt(), default: LIVE_DEFAULTS.maxPerCaller },
  caller: {
    rules: optional(isFunction('caller', '(request) => string')),
    default: LIVE_DEFAULTS.caller,
    documented: 'the Authorization header, else the remote address',
  },
  maxRerunsPerSecond: { rules: positiveInt(), default: LIVE_DEFAULTS.maxRerunsPerSecond },
  maxBufferedBytes: { rules: positiveInt(), default: LIVE_DEFAULTS.maxBufferedBytes },
  transport: {
    rules: optional(
      ValidateBy({
        name: 'isChangeTransport',
        validator: {
          validate: (value) =>
            ['start', 'publish', 'close'].every(
              (method) => typeof (value as Record<string, unknown>)?.[method] === 'function',
            ),
          defaultMessage: () => 'transport must be a ChangeTransport { start, publish, close }',
        },
      }),
    ),
    documented: 'this instance only',
  },
} satisfies OptionTable<CrudApiLive>;

/**
 * Every option of `CrudApiOptions` and its sub-options: the start-up validation and the defaults
 * are derived from it, and test/unit/docs-sync.spec.ts holds docs/options.md to it.
 */
export const OPTION_TABLE = {
  // Core: what most applications set.
  endpoint: {
    core: true,
    rules: [IsUrl({ require_tld: false, require_protocol: true }, { message: 'endpoint must be an absolute URL' })],
    documented: 'required',
  },
  prisma: {
    core: true,
    rules: [
      ValidateIf((options: CrudApiOptions) => options.getPrisma === undefined),
      IsDefined({ message: 'prisma is required unless getPrisma is given' }),
      IsObject(),
    ],
    documented: 'required unless getPrisma',
  },
  getPrisma: {
    core: true,
    rules: optional(IsInstance(Function, { message: 'getPrisma must be a function (request) => PrismaClient' })),
  },
  modelMeta: {
    core: true,
    rules: [IsObject({ message: 'modelMeta must be the object written by nestjs-crud-api-generator' })],
    documented: 'required',
  },
  policies: {
    core: true,
    rules: optional(IsObject({ message: 'policies must be an object of rules per model name' })),
    documented: 'none (everything allowed)',
  },
  rules: {
    core: true,
    rules: optional(IsObject({ message: 'rules must be an object of rules per model name' })),
  },
  // Advanced.
  pageSize: {
    rules: optional(
      IsNumber({ allowInfinity: true, allowNaN: false }, { message: 'pageSize must be a number or Infinity' }),
      Min(1),
    ),
    default: 100,
  },
  count: {
    rules: optional(IsIn(COUNT_STRATEGIES, { message: `count must be one of ${COUNT_STRATEGIES.join(', ')}` })),
    default: 'exact',
  },
  idDivider: { rules: optional(IsString(), IsNotEmpty()), default: '_' },
  models: { rules: optional(IsArray(), IsString({ each: true })), documented: 'all' },
  bodyLimit: {
    rules: optional(
      ValidateIf((options: CrudApiOptions) => typeof options.bodyLimit !== 'number'),
      Matches(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, { message: 'bodyLimit must be a byte count or a size like "1mb"' }),
    ),
    default: '1mb',
  },
  operations: { rules: optional(IsObject()), documented: 'all allowed' },
  prismaErrorMap: { rules: optional(IsObject()), documented: 'see Prisma errors' },
  maxTake: { rules: positiveInt(), documented: 'unlimited' },
  limits: { rules: optional(ValidateNested()), options: LIMITS, documented: 'see Limits' },
  onChange: {
    rules: optional(
      ValidateBy({
        name: 'isChangeListeners',
        validator: {
          validate: (value) => [value].flat().every((listener) => typeof listener === 'function'),
          defaultMessage: () => 'onChange must be a function (event) => void or an array of them',
        },
      }),
    ),
  },
  defaultPolicy: {
    rules: optional(IsIn(['allow', 'deny'], { message: 'defaultPolicy must be "allow" or "deny"' })),
    // Applied by the policies (which the OpenAPI documents read too), not when resolving.
    documented: `'${DEFAULT_POLICY}'`,
  },
  context: {
    rules: optional(IsInstance(Function, { message: 'context must be a function (request) => context' })),
    documented: '{ user: request.user }',
  },
  transactions: { rules: optional(ValidateNested()), options: TRANSACTIONS },
  onServerError: { rules: optional(isFunction('onServerError', '(error, info) => void')) },
  shutdown: { rules: [ValidateNested()], options: SHUTDOWN },
  caching: {
    rules: optional(
      ValidateIf((_object, value) => value !== false),
      IsObject({ message: 'caching must be false or { cacheControl?, vary?, revalidate?, trustFor? }' }),
      ValidateNested(),
    ),
    options: CACHING,
  },
  coalesceReads: {
    rules: optional(
      IsIn(['request', 'context', false], { message: "coalesceReads must be 'request', 'context' or false" }),
    ),
    default: 'request',
  },
  idempotency: {
    rules: optional(IsObject({ message: 'idempotency must be { model, retention?, scope? }' }), ValidateNested()),
    options: IDEMPOTENCY,
    documented: 'off',
  },
  live: {
    rules: optional(
      IsObject({ message: 'live must be { debounce?, heartbeat?, retry?, maxPerConnection?, ... }' }),
      ValidateNested(),
    ),
    options: LIVE,
    documented: 'off',
  },
  outbox: {
    rules: optional(IsObject({ message: 'outbox must be { model, webhooks?, ... }' }), ValidateNested()),
    options: OUTBOX,
    documented: 'off',
  },
  history: {
    rules: optional(IsObject({ message: 'history must be { model, actor?, retention? }' }), ValidateNested()),
    options: HISTORY,
    documented: 'off',
  },
  rateLimits: {
    rules: optional(IsObject({ message: 'rateLimits must be { limits, caller?, store?, ... }' }), ValidateNested()),
    options: RATE_LIMITS,
    documented: 'off',
  },
  replicas: {
    rules: optional(IsObject({ message: 'replicas must be { clients, maxLag?, behind?, ... }' }), ValidateNested()),
    options: REPLICAS,
    documented: 'off',
  },
} satisfies OptionTable<CrudApiOptions>;

export const DEFAULT_LIMITS = defaultsOf(LIMITS);
export const DEFAULT_TRANSACTIONS = defaultsOf(TRANSACTIONS);
export const DEFAULT_SHUTDOWN = defaultsOf(SHUTDOWN);
export const DEFAULT_CACHING = defaultsOf(CACHING);
export const DEFAULT_IDEMPOTENCY = defaultsOf(IDEMPOTENCY);
export const DEFAULT_HISTORY = defaultsOf(HISTORY);
export const DEFAULT_RATE_LIMITS = defaultsOf(RATE_LIMITS);
export const DEFAULT_REPLICAS = defaultsOf(REPLICAS);
