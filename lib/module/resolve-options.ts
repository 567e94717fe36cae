import {
  Allow,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInstance,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  validateSync,
  type ValidationError,
} from 'class-validator';

import { type CrudApiOutbox, OUTBOX_DEFAULTS, type OutboxSettings } from '../changes/outbox.types.js';
import { outboxModelProblems } from '../changes/outbox-model.js';
import { idempotencyModelProblems } from '../data/idempotency/idempotency-records.js';
import type { DataModelMeta } from '../metadata/model-meta.types.js';
import {
  COUNT_STRATEGIES,
  DEFAULT_BODY_LIMIT,
  DEFAULT_CACHING,
  DEFAULT_COUNT,
  DEFAULT_ID_DIVIDER,
  DEFAULT_IDEMPOTENCY_RETENTION,
  DEFAULT_LIMITS,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SHUTDOWN,
  DEFAULT_TRANSACTIONS,
} from '../options/crud-api.constants.js';
import type { CoalesceReads, CrudApiOptions, ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { validatePolicies } from '../policies/policy-set.js';
import { validateRules } from '../rules/field-modes.js';
import type { PlatformRequest } from '../shared/api-request.js';
import type { CrudApiModuleExtras } from './crud-api-module-options.interface.js';
import { modelNameProblems } from './model-name-problems.js';
import { securityProblems } from './security-problems.js';

/** The mount paths, as `forRoot`/`forRootAsync` resolved them. */
export type CrudApiMount = Required<Pick<CrudApiModuleExtras, 'restPath' | 'rpcPath'>> &
  Pick<CrudApiModuleExtras, 'version'> &
  Pick<ResolvedCrudApiOptions, 'defaultPaths'>;

const MOUNT_PATH = /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;
const EXTRAS_KEYS: ReadonlySet<string> = new Set([
  'restPath',
  'rpcPath',
  'version',
  'restService',
  'rpcService',
  'restDecorators',
  'rpcDecorators',
  'openapi',
]);

class CrudApiLimitsSchema {
  @IsOptional() @IsInt() @Min(1) maxIncludeDepth?: number;
  @IsOptional() @IsInt() @Min(1) maxIncludePaths?: number;
  @IsOptional() @IsInt() @Min(1) maxFilters?: number;
  @IsOptional() @IsInt() @Min(1) maxFilterValueLength?: number;
  @IsOptional() @IsInt() @Min(1) maxFilterDepth?: number;
  @IsOptional() @IsInt() @Min(1) maxArgumentDepth?: number;
  @IsOptional() @IsInt() @Min(1) maxArgumentNodes?: number;
  @IsOptional() @IsInt() @Min(1) maxSelectionDepth?: number;
  @IsOptional() @IsInt() @Min(1) maxJsonDepth?: number;
}

const ISOLATION_LEVELS = ['ReadUncommitted', 'ReadCommitted', 'RepeatableRead', 'Snapshot', 'Serializable'];

class CrudApiTransactionsSchema {
  @IsOptional() @IsInt() @Min(1) maxOperations?: number;
  @IsOptional() @IsInt() @Min(1) timeout?: number;
  @IsOptional() @IsInt() @Min(1) maxWait?: number;
  @IsOptional()
  @IsIn(ISOLATION_LEVELS, { message: `isolationLevel must be one of ${ISOLATION_LEVELS.join(', ')}` })
  isolationLevel?: string;
}

class CrudApiShutdownSchema {
  @IsOptional() @IsInt() @Min(0) gracePeriod?: number;
}

/** An HTTP field name (RFC 9110 §5.1: a token). */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

class CrudApiCachingSchema {
  @IsOptional()
  @IsString()
  @Matches(/^[\t\x20-\x7e]*[^\s][\t\x20-\x7e]*$/, { message: 'cacheControl must be a Cache-Control field value' })
  cacheControl?: string;

  @IsOptional()
  @IsArray()
  @Matches(FIELD_NAME, { each: true, message: 'vary must list header names' })
  vary?: string[];

  @IsOptional() @IsIn(['read', 'changes']) revalidate?: string;
  @IsOptional() @IsInt() @Min(0) trustFor?: number;
}

/** `typeof`, not `instanceof Function`: a function from another realm (a test framework's mock) is one too. */
const isFunction = (name: string, shape: string) =>
  ValidateBy({
    name: 'isFunction',
    validator: {
      validate: (value) => typeof value === 'function',
      defaultMessage: () => `${name} must be a function ${shape}`,
    },
  });

class CrudApiIdempotencySchema {
  @IsString() @IsNotEmpty() model!: string;
  @IsOptional() @IsInt() @Min(1) retention?: number;
  @IsOptional() @isFunction('scope', '(request) => string') scope?: unknown;
}

class WebhookTargetSchema {
  @IsString() @IsNotEmpty() name!: string;
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    { message: 'url must be an http(s) URL' },
  )
  url!: string;
  @IsString() @IsNotEmpty() secret!: string;
  @IsOptional() @IsArray() @IsString({ each: true }) models?: string[];
}

class CrudApiOutboxSchema {
  @IsString() @IsNotEmpty() model!: string;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) webhooks?: WebhookTargetSchema[];
  @IsOptional() @IsBoolean() worker?: boolean;
  @IsOptional() @IsInt() @Min(1) pollInterval?: number;
  @IsOptional() @IsInt() @Min(1) batchSize?: number;
  @IsOptional() @IsInt() @Min(1) maxAttempts?: number;
  @IsOptional() @IsInt() @Min(0) backoffBase?: number;
  @IsOptional() @IsInt() @Min(0) backoffCap?: number;
  @IsOptional() @IsInt() @Min(1) lease?: number;
  @IsOptional() @IsInt() @Min(1) timeout?: number;
  @IsOptional() @IsInt() @Min(1) retention?: number;
  @IsOptional() @isFunction('onDelivered', '(models) => void') onDelivered?: unknown;
}

class CrudApiLiveSchema {
  @IsOptional() @IsInt() @Min(0) debounce?: number;
  @IsOptional() @IsInt() @Min(1) heartbeat?: number;
  @IsOptional() @IsInt() @Min(0) retry?: number;
  @IsOptional() @IsInt() @Min(1) maxPerConnection?: number;
  @IsOptional() @IsInt() @Min(1) maxPerCaller?: number;
  @IsOptional() @isFunction('caller', '(request) => string') caller?: unknown;
  @IsOptional() @IsInt() @Min(1) maxRerunsPerSecond?: number;
  @IsOptional() @IsInt() @Min(1) maxBufferedBytes?: number;
  @IsOptional()
  @ValidateBy({
    name: 'isChangeTransport',
    validator: {
      validate: (value) =>
        ['start', 'publish', 'close'].every(
          (method) => typeof (value as Record<string, unknown>)?.[method] === 'function',
        ),
      defaultMessage: () => 'transport must be a ChangeTransport { start, publish, close }',
    },
  })
  transport?: unknown;
}

/** class-validator schema of `CrudApiModuleOptions`. */
class CrudApiOptionsSchema {
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'endpoint must be an absolute URL' })
  endpoint!: string;

  @IsOptional()
  @IsNumber({ allowInfinity: true, allowNaN: false }, { message: 'pageSize must be a number or Infinity' })
  @Min(1)
  pageSize?: number;

  @IsOptional()
  @IsIn(COUNT_STRATEGIES, { message: `count must be one of ${COUNT_STRATEGIES.join(', ')}` })
  count?: string;

  @IsObject({ message: 'modelMeta must be the object written by nestjs-crud-api-generator' })
  modelMeta!: object;

  @ValidateIf((options: CrudApiOptionsSchema) => options.getPrisma === undefined)
  @IsDefined({ message: 'prisma is required unless getPrisma is given' })
  @IsObject()
  prisma?: object;

  @IsOptional()
  @IsInstance(Function, { message: 'getPrisma must be a function (request) => PrismaClient' })
  getPrisma?: unknown;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  idDivider?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  models?: string[];

  @IsOptional()
  @ValidateIf((options: CrudApiOptionsSchema) => typeof options.bodyLimit !== 'number')
  @Matches(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, { message: 'bodyLimit must be a byte count or a size like "1mb"' })
  bodyLimit?: number | string;

  @IsOptional()
  @IsObject()
  operations?: object;

  @IsOptional()
  @IsObject()
  prismaErrorMap?: object;

  @IsOptional()
  @IsInt()
  @Min(1)
  maxTake?: number;

  @IsOptional()
  @ValidateNested()
  limits?: CrudApiLimitsSchema;

  @IsOptional()
  @IsObject({ message: 'policies must be an object of rules per model name' })
  policies?: object;

  @IsOptional()
  @IsObject({ message: 'rules must be an object of rules per model name' })
  rules?: object;

  @IsOptional()
  @ValidateBy({
    name: 'isChangeListeners',
    validator: {
      validate: (value) => [value].flat().every((listener) => typeof listener === 'function'),
      defaultMessage: () => 'onChange must be a function (event) => void or an array of them',
    },
  })
  onChange?: unknown;

  @IsOptional()
  @IsIn(['allow', 'deny'], { message: 'defaultPolicy must be "allow" or "deny"' })
  defaultPolicy?: string;

  @IsOptional()
  @IsInstance(Function, { message: 'context must be a function (request) => context' })
  context?: unknown;

  @IsOptional()
  @ValidateNested()
  transactions?: CrudApiTransactionsSchema;

  @IsOptional()
  @isFunction('onServerError', '(error, info) => void')
  onServerError?: unknown;
  @ValidateNested()
  shutdown?: CrudApiShutdownSchema;

  @IsOptional()
  @ValidateIf((_object, value) => value !== false)
  @IsObject({ message: 'caching must be false or { cacheControl?, vary?, revalidate?, trustFor? }' })
  @ValidateNested()
  caching?: CrudApiCachingSchema | false;

  @IsOptional()
  @IsIn(['request', 'context', false], { message: "coalesceReads must be 'request', 'context' or false" })
  coalesceReads?: CoalesceReads;

  @IsOptional()
  @IsObject({ message: 'idempotency must be { model, retention?, scope? }' })
  @ValidateNested()
  idempotency?: CrudApiIdempotencySchema;

  @IsOptional()
  @IsObject({ message: 'outbox must be { model, webhooks?, ... }' })
  @ValidateNested()
  outbox?: CrudApiOutboxSchema;

  @IsOptional()
  @IsObject({ message: 'live must be { debounce?, heartbeat?, retry?, maxPerConnection?, ... }' })
  @ValidateNested()
  live?: CrudApiLiveSchema;
}

/** One message per problem, nested options named by their path (`limits.maxFilters`). */
function describeProblems(errors: readonly ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = `${parent}${error.property}`;
    const own = Object.entries(error.constraints ?? {}).map(([rule, message]) =>
      rule !== 'whitelistValidation'
        ? `"${path}": ${message}`
        : EXTRAS_KEYS.has(path)
          ? `"${path}": give it to forRoot/forRootAsync directly, not from the options factory`
          : `"${path}": unknown option`,
    );
    return [...own, ...describeProblems(error.children ?? [], `${path}.`)];
  });
}

/** Problems of the mount paths, checked when the module is declared since they shape its routes. */
export function mountProblems(mount: CrudApiMount): string[] {
  return (['restPath', 'rpcPath'] as const)
    .filter((key) => typeof mount[key] !== 'string' || !MOUNT_PATH.test(mount[key]))
    .map(
      (key) =>
        `"${key}": must be a path like "api/${key === 'restPath' ? 'rest' : 'rpc'}" (no leading or trailing slash)`,
    );
}

/** A list of decorators: functions, as `UseGuards(...)`, `SetMetadata(...)` and `applyDecorators(...)` return. */
function isDecoratorList(value: unknown): boolean {
  return Array.isArray(value) && value.every((decorator) => typeof decorator === 'function');
}

const DECORATORS_MESSAGE = 'must be an array of class decorators (UseGuards(...), SetMetadata(...)...)';

/** Problems of `restDecorators`/`rpcDecorators`, checked when the module is declared: they decorate its controllers. */
export function decoratorProblems(extras: Pick<CrudApiModuleExtras, 'restDecorators' | 'rpcDecorators'>): string[] {
  return (['restDecorators', 'rpcDecorators'] as const)
    .filter((key) => extras[key] !== undefined && !isDecoratorList(extras[key]))
    .map((key) => `"${key}": ${DECORATORS_MESSAGE}`);
}

class OpenApiServerSchema {
  @IsString() @IsNotEmpty() url!: string;
  @IsOptional() @IsString() description?: string;
}

class CrudApiOpenApiSchema {
  @IsOptional()
  @Matches(MOUNT_PATH, { message: 'must be a path like "api/docs" (no leading or trailing slash)' })
  path?: string;
  @IsOptional() @IsString() @IsNotEmpty() title?: string;
  @IsOptional() @IsString() @IsNotEmpty() version?: string;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) servers?: OpenApiServerSchema[];
  @IsOptional() @IsBoolean() ui?: boolean;
  @IsOptional()
  @ValidateBy({
    name: 'isDecoratorList',
    validator: { validate: isDecoratorList, defaultMessage: () => DECORATORS_MESSAGE },
  })
  decorators?: unknown;
  // Checked by `securityProblems`, which names the scheme at fault.
  @Allow() securitySchemes?: unknown;
  @Allow() security?: unknown;
}

/** Problems of the `openapi` extra (checked when the module is declared: its path shapes routes). */
export function openApiProblems(openapi: unknown): string[] {
  if (openapi === undefined || typeof openapi === 'boolean') return [];
  if (typeof openapi !== 'object' || openapi === null || Array.isArray(openapi))
    return [
      '"openapi": must be true, false or { path, title, version, servers, ui, decorators, securitySchemes, security }',
    ];
  const { servers, ...rest } = openapi as { servers?: unknown; securitySchemes?: unknown; security?: unknown };
  const candidate = Object.assign(new CrudApiOpenApiSchema(), rest, {
    servers: Array.isArray(servers)
      ? servers.map((server) => Object.assign(new OpenApiServerSchema(), server))
      : servers,
  });
  return [
    ...describeProblems(
      validateSync(candidate, { forbidUnknownValues: false, whitelist: true, forbidNonWhitelisted: true }),
      'openapi.',
    ),
    ...securityProblems(rest.securitySchemes, rest.security),
  ];
}

/** Throws one start-up error naming every problem, if there is any. */
export function failOnProblems(problems: readonly string[]): void {
  if (problems.length > 0) throw new Error(`CrudApiModule: invalid option ${problems.join(', ')}`);
}

/**
 * Validates the options strictly (unknown keys, and names that are not in the model metadata,
 * fail too) and applies the defaults; throws an error naming every bad option.
 */
export function resolveCrudApiOptions(options: CrudApiOptions, mount: CrudApiMount): ResolvedCrudApiOptions {
  const candidate = Object.assign(new CrudApiOptionsSchema(), options, {
    limits: options.limits && Object.assign(new CrudApiLimitsSchema(), options.limits),
    transactions: options.transactions && Object.assign(new CrudApiTransactionsSchema(), options.transactions),
    shutdown: options.shutdown && Object.assign(new CrudApiShutdownSchema(), options.shutdown),
    caching:
      options.caching && typeof options.caching === 'object'
        ? Object.assign(new CrudApiCachingSchema(), options.caching)
        : options.caching,
    idempotency: options.idempotency && Object.assign(new CrudApiIdempotencySchema(), options.idempotency),
    outbox: options.outbox && outboxCandidate(options.outbox),
    live: options.live && Object.assign(new CrudApiLiveSchema(), options.live),
  });
  failOnProblems(
    describeProblems(
      validateSync(candidate, { forbidUnknownValues: false, whitelist: true, forbidNonWhitelisted: true }),
    ),
  );
  const idempotencyModel = options.idempotency && options.modelMeta.models[options.idempotency.model];
  if (options.idempotency) failOnProblems(idempotencyModelProblems(idempotencyModel, options.idempotency.model));
  const outboxModel = options.outbox && options.modelMeta.models[options.outbox.model];
  if (options.outbox) failOnProblems(outboxProblems(options, outboxModel));
  if (options.caching && options.caching.revalidate === 'changes' && !options.live)
    failOnProblems([
      '"caching.revalidate": \'changes\' needs the `live` option, through which the module hears of commits',
    ]);
  // The keys' and the outbox's models are the module's own: no route, document, option, policy or rule reaches them.
  const modelMeta = [idempotencyModel, outboxModel].reduce(
    (meta, owned) => (owned ? withoutModel(meta, owned.name) : meta),
    options.modelMeta,
  );
  failOnProblems(modelNameProblems({ ...options, modelMeta }));
  if (options.policies) validatePolicies(options.policies, modelMeta);
  if (options.rules) validateRules(options.rules, modelMeta.models);
  return {
    ...options,
    ...mount,
    modelMeta,
    pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
    count: options.count ?? DEFAULT_COUNT,
    idDivider: options.idDivider ?? DEFAULT_ID_DIVIDER,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    transactions: { ...DEFAULT_TRANSACTIONS, ...options.transactions },
    shutdown: { ...DEFAULT_SHUTDOWN, ...options.shutdown },
    caching: options.caching === false ? false : { ...DEFAULT_CACHING, ...options.caching },
    coalesceReads: options.coalesceReads ?? 'request',
    idempotency: idempotencyModel && {
      retention: options.idempotency!.retention ?? DEFAULT_IDEMPOTENCY_RETENTION,
      scope: options.idempotency!.scope ?? userScope,
      model: idempotencyModel,
    },
    outbox: outboxModel && outboxSettings(options.outbox!, outboxModel),
  };
}

function outboxCandidate(outbox: CrudApiOutbox): CrudApiOutboxSchema {
  const { webhooks } = outbox;
  return Object.assign(new CrudApiOutboxSchema(), outbox, {
    webhooks: Array.isArray(webhooks)
      ? webhooks.map((target) => Object.assign(new WebhookTargetSchema(), target))
      : webhooks,
  });
}

/** What is wrong with the `outbox` option beyond its shape: its model, its webhooks' names and models, the client of its worker. */
function outboxProblems(options: CrudApiOptions, model: DataModelMeta['models'][string] | undefined): string[] {
  const outbox = options.outbox!;
  const problems = outboxModelProblems(model, outbox.model);
  const seen = new Set<string>();
  for (const target of outbox.webhooks ?? []) {
    if (seen.has(target.name)) problems.push(`"outbox.webhooks": two webhooks are named "${target.name}"`);
    seen.add(target.name);
    for (const name of target.models ?? [])
      if (!Object.hasOwn(options.modelMeta.models, name) || name === outbox.model)
        problems.push(`"outbox.webhooks": webhook "${target.name}" names unknown model "${name}"`);
  }
  if (!options.prisma && outbox.worker !== false)
    problems.push(
      '"outbox": the delivery worker needs the `prisma` option (it runs outside requests), or `worker: false`',
    );
  return problems;
}

function outboxSettings(outbox: CrudApiOutbox, model: DataModelMeta['models'][string]): OutboxSettings {
  const { model: _name, ...settings } = outbox;
  return { ...OUTBOX_DEFAULTS, ...settings, webhooks: [...(outbox.webhooks ?? [])], model };
}

/** Passport-style guards put the caller in `request.user`. */
const userScope = (request: PlatformRequest): string => JSON.stringify(request.user ?? null);

function withoutModel(meta: DataModelMeta, name: string): DataModelMeta {
  const { [name]: _removed, ...models } = meta.models;
  return { ...meta, models };
}
