import type { DataModelMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import { prismaOperation } from '../metadata/prisma-operations.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { validateRules } from '../rules/field-modes.js';
import { reachesRules } from '../rules/reaches-rules.js';
import type { ChangeListener } from '../rules/rules.types.js';
import { AS_OF_PARAMETER } from '../shared/history.constants.js';
import { findPrototypeKey } from '../shared/prototype-keys.js';
import { inChildSpan } from '../telemetry/child-span.js';
import { SPANS } from '../telemetry/telemetry.constants.js';
import { prototypeKey } from './policy.error.js';
import type { CommitHook, PolicyContext, PolicyInspector, TransactionBounds } from './policy.types.js';
import {
  noPoliciesOrCapture,
  type Operation,
  type OperationScope,
  POLICY_OPERATIONS,
  runTransaction,
} from './policy-operations.js';
import { type PolicyConfig, PolicySet, validatePolicies } from './policy-set.js';

export type { PolicyInspector } from './policy.types.js';

/**
 * What a policy client answers for this key: its scope. A property its proxy answers, rather than
 * an entry in a WeakMap, since a client is made per request and short-lived WeakMap keys cost the
 * garbage collector more than the objects themselves.
 */
const SCOPE = Symbol('policyScope');

const scopeOf = (client: object): OperationScope | undefined => (client as { [SCOPE]?: OperationScope })[SCOPE];

/** The policies a client enforces, or undefined for a client without policies. */
export function policiesOf(client: object): PolicyInspector | undefined {
  return scopeOf(client)?.set.inspector;
}

export interface WithPoliciesOptions extends PolicyConfig {
  /** Who is asking, as the rules see it (the module builds it with the `context` option). */
  context: PolicyContext;
  /** Listeners of committed changes (one event per changed row, delivered after the commit). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- listeners typed with the application's context
  onChange?: ChangeListener<any> | ChangeListener<any>[];
  /**
   * Called in each transaction with its changes (one event per changed row) just before it commits;
   * a failure rolls the transaction back. The module's outbox writes its rows here.
   */
  beforeCommit?: CommitHook;
  /**
   * Prisma's interactive transaction options (`{ maxWait, timeout }`) for the transactions the
   * client opens itself: each write and its checks, and `$transaction` calls given no options.
   */
  transactionOptions?: TransactionBounds;
  /** The request the client serves, recorded with the history of its changes. */
  requestId?: string;
}

/**
 * A Prisma client that enforces the policies for one context: the same client shape, every model
 * operation filtered and checked. Hand-written endpoints use it to share the API's rules:
 * `withPolicies(prisma, { policies, modelMeta, context: { user } }).post.findMany()`.
 *
 * It wraps the client rather than using a `$extends` query hook because the checks run further
 * queries (the created row against the create rule, included to-one rows against their read
 * rule) that must run in the caller's interactive transaction, and a query hook has no public
 * way to reach the transaction client. Interactive transactions are supported (nested ones reuse
 * the outer transaction); the array form of `$transaction` is not. Raw queries are not filtered.
 */
export function withPolicies<Client extends object>(client: Client, options: WithPoliciesOptions): Client {
  validateOnce(options);
  const listeners = options.onChange === undefined ? undefined : [options.onChange].flat();
  const scope = {
    client: client as PrismaClientLike,
    set: new PolicySet(options, options.context),
    inTransaction: false,
    transactionOptions: options.transactionOptions,
    beforeCommit: options.beforeCommit,
    requestId: options.requestId,
  };
  return policyClient(listeners && listeners.length > 0 ? { ...scope, listeners } : scope) as Client;
}

/**
 * The same policy client reading deleted rows too: on soft-deleted models, reads also see the
 * deleted rows the `readDeleted` rule permits (writes still touch live rows only). Undefined for a
 * client without soft-deleted models.
 */
export function withDeletedRows<Client extends object>(client: Client): Client | undefined {
  const scope = scopeOf(client);
  if (!scope?.set.softDeletes) return undefined;
  return policyClient({ ...scope, set: scope.set.withDeletedRows() }) as Client;
}

/** Policy sets already checked against their schema: the module wraps a client on every request. */
const validated = new WeakMap<object, DataModelMeta>();

function validateOnce({ policies, rules, modelMeta }: PolicyConfig): void {
  if (policies && validated.get(policies) !== modelMeta) {
    validatePolicies(policies, modelMeta);
    validated.set(policies, modelMeta);
  }
  if (rules && validated.get(rules) !== modelMeta) {
    validateRules(rules, modelMeta.models);
    validated.set(rules, modelMeta);
  }
}

/** Delegate name → model, built once per schema rather than per wrapped client. */
const delegateModels = new WeakMap<DataModelMeta, ReadonlyMap<string, ModelMeta>>();

function modelsByDelegate(modelMeta: DataModelMeta): ReadonlyMap<string, ModelMeta> {
  let models = delegateModels.get(modelMeta);
  if (!models) {
    models = new Map(Object.values(modelMeta.models).map((model) => [toTypeName(model.name), model]));
    delegateModels.set(modelMeta, models);
  }
  return models;
}

function policyClient(scope: OperationScope): PrismaClientLike {
  const { client, set, inTransaction } = scope;
  const models = modelsByDelegate(set.modelMeta);
  const delegates = new Map<string, object>();
  const self: PrismaClientLike = new Proxy(client, {
    get(target, property) {
      if (property === SCOPE) return scope;
      if (typeof property === 'string' && models.has(property)) {
        let delegate = delegates.get(property);
        if (!delegate) {
          delegate = policyDelegate(scope, models.get(property)!, target[property]);
          delegates.set(property, delegate);
        }
        return delegate;
      }
      if (property === '$transaction') return transaction;
      if (property === '$extends')
        return (...args: unknown[]) => policyClient({ ...scope, client: target.$extends(...args) });
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  function transaction(fn: unknown, options?: unknown): Promise<unknown> {
    if (typeof fn !== 'function') {
      return Promise.reject(
        new Error('A policy client supports interactive transactions only: $transaction(async (tx) => ...)'),
      );
    }
    if (inTransaction) return fn(self);
    return runTransaction(
      client,
      (tx, capture) => fn(policyClient({ ...scope, client: tx, inTransaction: true, capture })),
      options ?? scope.transactionOptions,
      scope,
    );
  }
  return self;
}

/**
 * A client with rules only (no policies, no change listeners) leaves an operation to Prisma as it is
 * when its arguments reach no model with rules and no soft-deleted row (not even by a foreign key): a
 * model without rules costs nothing. A read passes through whatever records changes, unless it asks
 * for a past time.
 */
function passesThrough(scope: OperationScope, model: ModelMeta, args: unknown, reads: boolean): boolean {
  const { set } = scope;
  const rules = set.writeRules;
  if (!rules || set.reachesSoftDeleted(model, args)) return false;
  if (
    reads
      ? set.hasPolicies || (args as { [AS_OF_PARAMETER]?: unknown } | undefined)?.[AS_OF_PARAMETER] !== undefined
      : !noPoliciesOrCapture(scope)
  )
    return false;
  return !reachesRules(rules, model, args, (name) => set.model(name));
}

const STATE = Symbol('policyDelegate');

interface DelegateState {
  scope: OperationScope;
  model: ModelMeta;
  base: Record<string, unknown>;
}

/**
 * A model's delegate on a policy client: the model operations of POLICY_OPERATIONS the underlying
 * delegate has (createManyAndReturn is not everywhere). A client is made per request, so the
 * operations live on the prototype, made once, rather than as closures made for every delegate.
 */
class PolicyDelegate {
  // A symbol keeps the wrapper's state out of `Object.keys` and JSON of the delegate.
  readonly [STATE]: DelegateState;

  constructor(state: DelegateState) {
    this[STATE] = state;
  }

  get fields(): unknown {
    return this[STATE].base.fields;
  }
}

/** Defines a model operation on the delegates that `offered` says have it. */
function defineOperation(name: string, operation: Operation, offered: (state: DelegateState) => boolean): void {
  const reads = prismaOperation(name)?.access === 'read';
  const run = async function (this: PolicyDelegate, args?: Record<string, unknown>): Promise<unknown> {
    const { scope, model, base } = this[STATE];
    const prototypePath = findPrototypeKey(args);
    if (prototypePath) throw prototypeKey(prototypePath);
    // A write outside a transaction that reaches no model with history has no change to record.
    const own =
      reads || scope.inTransaction || !scope.set.history || scope.set.reachesHistory(model, args)
        ? scope
        : { ...scope, recordsHistory: false };
    if (passesThrough(own, model, args, reads)) return (base[name] as (args?: object) => Promise<unknown>)(args);
    return inChildSpan(SPANS.policy, () => operation(own, model, args ?? {}), model.name, name);
  };
  Object.defineProperty(PolicyDelegate.prototype, name, {
    get(this: PolicyDelegate) {
      return offered(this[STATE]) ? run.bind(this) : undefined;
    },
  });
}

for (const [name, operation] of Object.entries(POLICY_OPERATIONS)) {
  // Soft-deleted models' and history models' own operations, which Prisma's delegates do not have (they
  // never pass through: a client with soft-deleted models or history is not one of rules alone).
  const row = prismaOperation(name);
  const offered = row?.softDeleteOnly
    ? ({ scope, model }: DelegateState) => scope.set.softDelete(model.name) !== undefined
    : row?.historyOnly
      ? ({ scope, model }: DelegateState) => scope.set.history?.models.has(model.name) === true
      : ({ base }: DelegateState) => typeof base[name] === 'function';
  defineOperation(name, operation, offered);
}

function policyDelegate(scope: OperationScope, model: ModelMeta, base: Record<string, unknown>): object {
  return new PolicyDelegate({ scope, model, base });
}
