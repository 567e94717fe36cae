import {
  Allow,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsString,
  Matches,
  ValidateBy,
  ValidateNested,
  validateSync,
  type ValidationError,
} from 'class-validator';

import { type CrudApiOutbox, OUTBOX_DEFAULTS, type OutboxSettings } from '../changes/outbox.types.js';
import { outboxModelProblems } from '../changes/outbox-model.js';
import { idempotencyModelProblems } from '../data/idempotency/idempotency-records.js';
import { historyModelProblems } from '../history/history-model.js';
import { historyModels } from '../history/history-writer.js';
import { rateLimitModelProblems } from '../limits/database-store.js';
import type { ResolvedRateLimits } from '../limits/rate-limits.types.js';
import type { DataModelMeta } from '../metadata/model-meta.types.js';
import { prismaOperation } from '../metadata/prisma-operations.js';
import type { CrudApiOpenApiOptions, OpenApiServer } from '../openapi/openapi.types.js';
import type { CrudApiOptions, ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import {
  defaultsOf,
  optional,
  type OptionTable,
  type SomeOptionTable,
  validationCandidate,
  withDefaults,
} from '../options/option-spec.js';
import {
  DEFAULT_CACHING,
  DEFAULT_HISTORY,
  DEFAULT_IDEMPOTENCY,
  DEFAULT_LIMITS,
  DEFAULT_RATE_LIMITS,
  DEFAULT_REPLICAS,
  DEFAULT_SHUTDOWN,
  DEFAULT_TRANSACTIONS,
  OPTION_TABLE,
} from '../options/option-table.js';
import { validatePolicies } from '../policies/policy-set.js';
import { validateRules } from '../rules/field-modes.js';
import { HISTORY_ROUTE } from '../shared/history.constants.js';
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

const TOP_DEFAULTS = defaultsOf(OPTION_TABLE);

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

const OPENAPI_SERVER_OPTIONS = {
  url: { rules: [IsString(), IsNotEmpty()] },
  description: { rules: optional(IsString()) },
} satisfies OptionTable<OpenApiServer>;

// Its defaults are the OpenAPI documents' (`DEFAULT_OPENAPI_OPTIONS`), applied when they are built.
const OPENAPI_OPTIONS = {
  path: {
    rules: optional(Matches(MOUNT_PATH, { message: 'must be a path like "api/docs" (no leading or trailing slash)' })),
  },
  title: { rules: optional(IsString(), IsNotEmpty()) },
  version: { rules: optional(IsString(), IsNotEmpty()) },
  servers: { rules: optional(IsArray(), ValidateNested({ each: true })), options: OPENAPI_SERVER_OPTIONS },
  ui: { rules: optional(IsBoolean()) },
  decorators: {
    rules: optional(
      ValidateBy({
        name: 'isDecoratorList',
        validator: { validate: isDecoratorList, defaultMessage: () => DECORATORS_MESSAGE },
      }),
    ),
  },
  // Checked by `securityProblems`, which names the scheme at fault.
  securitySchemes: { rules: [Allow()] },
  security: { rules: [Allow()] },
} satisfies OptionTable<CrudApiOpenApiOptions>;

/** Every problem class-validator finds in options checked against their table, named by path. */
function tableProblems(table: SomeOptionTable, options: object, parent = ''): string[] {
  return describeProblems(
    validateSync(validationCandidate(table, options), {
      forbidUnknownValues: false,
      whitelist: true,
      forbidNonWhitelisted: true,
    }),
    parent,
  );
}

/** Problems of the `openapi` extra (checked when the module is declared: its path shapes routes). */
export function openApiProblems(openapi: unknown): string[] {
  if (openapi === undefined || typeof openapi === 'boolean') return [];
  if (typeof openapi !== 'object' || openapi === null || Array.isArray(openapi))
    return [
      '"openapi": must be true, false or { path, title, version, servers, ui, decorators, securitySchemes, security }',
    ];
  const { securitySchemes, security } = openapi as { securitySchemes?: unknown; security?: unknown };
  return [...tableProblems(OPENAPI_OPTIONS, openapi, 'openapi.'), ...securityProblems(securitySchemes, security)];
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
  failOnProblems(tableProblems(OPTION_TABLE, options));
  const idempotencyModel = options.idempotency && options.modelMeta.models[options.idempotency.model];
  if (options.idempotency) failOnProblems(idempotencyModelProblems(idempotencyModel, options.idempotency.model));
  const outboxModel = options.outbox && options.modelMeta.models[options.outbox.model];
  if (options.outbox) failOnProblems(outboxProblems(options, outboxModel));
  const historyModel = options.history && options.modelMeta.models[options.history.model];
  failOnProblems(historyProblems(options, historyModel));
  const store = options.rateLimits?.store;
  const limitsModel = typeof store === 'object' && 'model' in store ? options.modelMeta.models[store.model] : undefined;
  if (options.rateLimits) failOnProblems(rateLimitProblems(options, limitsModel));
  if (options.replicas) failOnProblems(replicaProblems(options));
  if (options.caching && options.caching.revalidate === 'changes' && !options.live)
    failOnProblems([
      '"caching.revalidate": \'changes\' needs the `live` option, through which the module hears of commits',
    ]);
  // The keys' and the outbox's models are the module's own: no route, document, option, policy or rule reaches them.
  const modelMeta = [idempotencyModel, outboxModel, historyModel, limitsModel].reduce(
    (meta, owned) => (owned ? withoutModel(meta, owned.name) : meta),
    options.modelMeta,
  );
  failOnProblems(modelNameProblems({ ...options, modelMeta }));
  if (options.policies) validatePolicies(options.policies, modelMeta);
  if (options.rules) validateRules(options.rules, modelMeta.models);
  return {
    ...withDefaults(TOP_DEFAULTS, options),
    ...mount,
    modelMeta,
    limits: withDefaults(DEFAULT_LIMITS, options.limits),
    transactions: withDefaults(DEFAULT_TRANSACTIONS, options.transactions),
    shutdown: withDefaults(DEFAULT_SHUTDOWN, options.shutdown),
    caching: options.caching !== false && withDefaults(DEFAULT_CACHING, options.caching),
    idempotency: idempotencyModel && {
      ...withDefaults(DEFAULT_IDEMPOTENCY, options.idempotency),
      model: idempotencyModel,
    },
    outbox: outboxModel && outboxSettings(options.outbox!, outboxModel),
    history: historyModel && { ...withDefaults(DEFAULT_HISTORY, options.history), model: historyModel },
    replicas: options.replicas && withDefaults(DEFAULT_REPLICAS, options.replicas),
    rateLimits: options.rateLimits && {
      ...(withDefaults(DEFAULT_RATE_LIMITS, options.rateLimits) as Omit<ResolvedRateLimits, 'store'>),
      store: limitsModel
        ? { model: limitsModel }
        : ((store as Exclude<ResolvedRateLimits['store'], { model: unknown }>) ?? 'memory'),
    },
  };
}

/** What is wrong with the `replicas` option beyond its shape: the database, the primary's client. */
function replicaProblems(options: CrudApiOptions): string[] {
  const problems: string[] = [];
  if (options.modelMeta.provider !== 'postgresql')
    problems.push(`"replicas": PostgreSQL's streaming replicas only, not ${options.modelMeta.provider}`);
  if (!options.prisma) problems.push('"replicas": the `prisma` option is the primary\'s client, and is required');
  if (options.replicas!.clients.length === 0) problems.push('"replicas.clients": one client per replica, at least one');
  return problems;
}

/** Words `rateLimits.limits[].operations` takes beside Prisma's operation names. */
const ACCESS_KINDS: ReadonlySet<string> = new Set(['read', 'write']);

/** What is wrong with the `rateLimits` option beyond its shape: names, models and operations, its store's model. */
function rateLimitProblems(options: CrudApiOptions, model: DataModelMeta['models'][string] | undefined): string[] {
  const { limits, store } = options.rateLimits!;
  const storeModel = typeof store === 'object' && 'model' in store ? store.model : undefined;
  const problems = storeModel === undefined ? [] : rateLimitModelProblems(model, storeModel);
  if (storeModel !== undefined && !options.prisma)
    problems.push('"rateLimits.store": the database store needs the `prisma` option (its buckets outlive requests)');
  const seen = new Set<string>();
  for (const limit of limits) {
    if (seen.has(limit.name)) problems.push(`"rateLimits.limits": two limits are named "${limit.name}"`);
    seen.add(limit.name);
    // The buckets keep whole milliseconds: a unit refills in one at the fastest.
    if (limit.limit > limit.window * 1000)
      problems.push(`"rateLimits.limits": limit "${limit.name}" refills more than one unit per millisecond`);
    for (const name of limit.models ?? [])
      if (!Object.hasOwn(options.modelMeta.models, name) || name === storeModel)
        problems.push(`"rateLimits.limits": limit "${limit.name}" names unknown model "${name}"`);
    for (const name of limit.operations ?? [])
      if (!ACCESS_KINDS.has(name) && !prismaOperation(name))
        problems.push(`"rateLimits.limits": limit "${limit.name}" names unknown operation "${name}"`);
  }
  return problems;
}

/**
 * What is wrong with the `history` option and the rules that use it: its model, a model recording
 * its history without the option, and a relation named as the history route.
 */
function historyProblems(options: CrudApiOptions, model: DataModelMeta['models'][string] | undefined): string[] {
  const problems = options.history ? historyModelProblems(model, options.history.model) : [];
  for (const name of historyModels(options.rules)) {
    if (!options.history) problems.push(`"rules": ${name}.history needs the \`history\` option (its model)`);
    const shadowed = options.modelMeta.models[name]?.fields[HISTORY_ROUTE];
    if (shadowed?.kind === 'relation')
      problems.push(`"rules": ${name}.history: its relation "${HISTORY_ROUTE}" has the name of the history route`);
  }
  return problems;
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

function withoutModel(meta: DataModelMeta, name: string): DataModelMeta {
  const { [name]: _removed, ...models } = meta.models;
  return { ...meta, models };
}
