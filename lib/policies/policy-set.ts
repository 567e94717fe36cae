import { historyModels, type HistorySettings, referentialActions } from '../history/history-writer.js';
import type { DataModelMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { fieldModes, type ModelFieldModes } from '../rules/field-modes.js';
import { reachesRules } from '../rules/reaches-rules.js';
import type { CrudApiRules, SoftDelete } from '../rules/rules.types.js';
import { softDeletedModels } from '../rules/soft-deleted-models.js';
import { type ExistingRows, onlyExistingRelated } from './only-existing-related.js';
import type {
  CrudApiPolicies,
  DefaultPolicy,
  FieldRule,
  PolicyAction,
  PolicyContext,
  PolicyInspector,
  PolicyWhere,
  SoftDeleteAction,
} from './policy.types.js';
import { andWhere, isPlainObject, noRows, type ResolvedRule, ruleWhere } from './rule-where.js';

export const DEFAULT_POLICY: DefaultPolicy = 'deny';

/** Which rows of soft-deleted models a client reads: the live ones, or the deleted ones `readDeleted` permits too. */
export type DeletedRows = 'exclude' | 'include';

const SOFT_DELETE_ACTIONS: ReadonlySet<PolicyAction> = new Set<SoftDeleteAction>([
  'restore',
  'readDeleted',
  'hardDelete',
]);

// The context type is the application's: policies and rules of any context are accepted.
export interface PolicyConfig {
  /** Without policies every row and field is accessible (a client with rules only). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  policies?: CrudApiPolicies<any>;
  /** The application's write rules (field modes, hooks, validation). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  rules?: CrudApiRules<any>;
  /** Default `'deny'` (see `DefaultPolicy`). */
  defaultPolicy?: DefaultPolicy;
  modelMeta: DataModelMeta;
  /** Where the changes of the models whose rules say `history: true` are recorded. */
  history?: HistorySettings;
}

/** Fails fast (at start-up) on rules naming a model or field the schema does not have. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function validatePolicies(policies: CrudApiPolicies<any>, modelMeta: DataModelMeta): void {
  for (const [modelName, policy] of Object.entries(policies)) {
    const model = Object.hasOwn(modelMeta.models, modelName) ? modelMeta.models[modelName] : undefined;
    if (!model) throw new Error(`policies: unknown model "${modelName}" (use the Prisma model name)`);
    for (const kind of ['read', 'write'] as const) {
      for (const field of Object.keys(policy.fields?.[kind] ?? {})) {
        if (!Object.hasOwn(model.fields, field)) throw new Error(`policies: unknown field "${modelName}.${field}"`);
      }
    }
  }
}

/** A rule as a context evaluates it. */
const decide = (rule: unknown, context: PolicyContext): unknown =>
  typeof rule === 'function' ? (rule as (ctx: PolicyContext) => unknown)(context) : rule;

/**
 * Every rule of the policies as `context` evaluates it: two contexts with the same decisions are
 * the same caller to the policies (the rows and fields they permit), whatever else they hold. A
 * rule that throws for the context throws here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function policyDecisions(policies: CrudApiPolicies<any>, context: PolicyContext): unknown[] {
  const decideAll = (rules: Record<string, unknown> = {}) =>
    Object.entries(rules).map(([name, rule]) => [name, decide(rule, context)]);
  return Object.entries(policies).map(([model, { fields, ...actions }]) => [
    model,
    decideAll(actions),
    decideAll(fields?.read),
    decideAll(fields?.write),
  ]);
}

/**
 * The policies evaluated for one context (one request): rules are evaluated lazily, once each.
 * Models without rules, and actions a model's rules leave out, follow `defaultPolicy`.
 */
export class PolicySet {
  private readonly rules = new Map<string, ResolvedRule>();
  private readonly denied = new Set<string>();
  private readonly fieldSets = new Map<string, ReadonlySet<string>>();
  private readonly fallback: boolean;
  private bound?: PolicyInspector;
  private recording?: { settings: HistorySettings; models: ReadonlySet<string> } | null;

  constructor(
    private readonly config: PolicyConfig,
    readonly context: PolicyContext,
    readonly deletedRows: DeletedRows = 'exclude',
  ) {
    this.fallback = !config.policies || (config.defaultPolicy ?? DEFAULT_POLICY) === 'allow';
  }

  /** The same policies and context, reading the deleted rows `readDeleted` permits as well. */
  withDeletedRows(): PolicySet {
    return new PolicySet(this.config, this.context, 'include');
  }

  /** Whether any model of the rules is soft-deleted. */
  get softDeletes(): boolean {
    return softDeletedModels(this.config.rules).size > 0;
  }

  /**
   * Whether an operation's arguments on `model` can involve a soft-deleted model (see `reachesRules`):
   * its rows, or a foreign key naming one, which must name a live row.
   */
  reachesSoftDeleted(model: ModelMeta, args: unknown): boolean {
    const { rules, modelMeta } = this.config;
    if (softDeletedModels(rules).size === 0) return false;
    return reachesRules(softDeleteReach(rules!, modelMeta), model, args, (name) => this.model(name));
  }

  /** The history settings and the models that record theirs, when the client records any. */
  get history(): { settings: HistorySettings; models: ReadonlySet<string> } | undefined {
    // Asked on every write of the client: found once.
    if (this.recording === undefined) {
      const settings = this.config.history;
      const models = historyModels(this.config.rules);
      this.recording = settings && models.size > 0 ? { settings, models } : null;
    }
    return this.recording ?? undefined;
  }

  /** Whether an operation's arguments on `model` can write rows of a model that records its history (see `reachesRules`). */
  reachesHistory(model: ModelMeta, args: unknown): boolean {
    const history = this.history;
    if (!history) return false;
    const modelOf = (name: string) => this.model(name);
    const reach = historyReach(this.config.rules!, history.models, this.config.modelMeta, modelOf);
    return reachesRules(reach, model, args, modelOf);
  }

  /** The model's soft-delete setting, if it is soft-deleted. */
  softDelete(model: string): SoftDelete | undefined {
    return softDeletedModels(this.config.rules).get(model);
  }

  get modelMeta(): DataModelMeta {
    return this.config.modelMeta;
  }

  /** The application's write rules, if it has any. */
  get writeRules(): CrudApiRules | undefined {
    return this.config.rules;
  }

  model(name: string): ModelMeta {
    const model = Object.hasOwn(this.config.modelMeta.models, name) ? this.config.modelMeta.models[name] : undefined;
    if (!model) throw new Error(`Unknown model ${name}`);
    return model;
  }

  /**
   * `true` (every row) or the `where` of the permitted rows; a denial is a `where` no row matches.
   * On a soft-deleted model, reads see live rows only (and the deleted ones `readDeleted` permits,
   * when the client includes them), and updates and deletes touch live rows only.
   */
  rule(model: string, action: PolicyAction): ResolvedRule {
    const key = `${model}.${action}`;
    let rule = this.rules.get(key);
    if (rule === undefined) {
      const value = this.written(model, action);
      rule = value === false ? noRows(this.model(model)) : value;
      if (value === false) this.denied.add(key);
      this.rules.set(key, rule);
    }
    return rule;
  }

  /**
   * The rule without the model's own soft-delete condition: what a foreign key reveals of its related
   * row (see `foreignKeyGuards`) is the policies' concern; a deleted row's key is data. The relations
   * the rule follows reach existing rows only, unless asked for the rule `'as written'` (to compare
   * rules with one another).
   */
  policyRule(model: string, action: PolicyAction, relations: 'existing' | 'as written' = 'existing'): ResolvedRule {
    if (!this.softDeletes) return this.rule(model, action);
    const value = this.evaluated(model, action);
    if (value === false) return noRows(this.model(model));
    if (value === true || relations === 'as written') return value;
    const key = `${model}.${action}.policy`;
    let rule = this.rules.get(key);
    if (rule === undefined) {
      rule = onlyExistingRelated(this.existingRows(action), this.model(model), value);
      this.rules.set(key, rule);
    }
    return rule;
  }

  private evaluated(model: string, action: PolicyAction): boolean | PolicyWhere {
    const policies = this.config.policies ?? {};
    const policy = Object.hasOwn(policies, model) ? policies[model] : undefined;
    const written = action === 'postUpdate' ? (policy?.postUpdate ?? policy?.update) : policy?.[action];
    // A history rule narrows the read rule, which the caller passed already: without one, every row.
    const fallback = SOFT_DELETE_ACTIONS.has(action) ? false : action === 'history' ? true : this.fallback;
    return written === undefined ? fallback : this.evaluate(`${model}.${action}`, written);
  }

  private written(model: string, action: PolicyAction): boolean | PolicyWhere {
    const value = this.evaluated(model, action);
    if (value === false || !this.softDeletes) return value;
    // A deleted row does not exist for a rule either: the relations a rule follows reach existing rows only.
    const rule = value === true ? value : onlyExistingRelated(this.existingRows(action), this.model(model), value);
    if (action !== 'read' && action !== 'update' && action !== 'delete') return rule;
    return andWhere(ruleWhere(rule), this.existing(model, action)) ?? true;
  }

  /**
   * The rows of `model` that exist for a rule of `action`: every row of a model that is not
   * soft-deleted; the live ones, and on a read of deleted rows those `readDeleted` permits too.
   */
  private existing(model: string, action: PolicyAction): ResolvedRule {
    const softDelete = this.softDelete(model);
    if (!softDelete) return true;
    const live = { [softDelete.field]: null };
    if (action !== 'read' || this.deletedRows === 'exclude') return live;
    // readDeleted's own relations reach live rows only (its action is not a read): no cycle.
    const deleted = this.rule(model, 'readDeleted');
    if (deleted === true) return true;
    // (Not `{ OR: [live, {}] }`: Prisma drops the empty member rather than reading it as true.)
    return this.denies(model, 'readDeleted') ? live : { OR: [live, deleted] };
  }

  private existingRows(action: PolicyAction): ExistingRows {
    return { model: (name) => this.model(name), existing: (name) => this.existing(name, action) };
  }

  /** Whether the rule permits no row at all (checked without a query). */
  denies(model: string, action: PolicyAction): boolean {
    this.rule(model, action);
    return this.denied.has(`${model}.${action}`);
  }

  /** Fields the caller may not see: hidden by the policies, or write-only or internal by the rules. */
  hiddenFields(model: string): ReadonlySet<string> {
    return this.deniedFields(model, 'read');
  }

  /** What services ask of these policies, as functions they may pass around alone (made once). */
  get inspector(): PolicyInspector {
    return (this.bound ??= {
      hiddenFields: (model) => this.hiddenFields(model),
      readsEveryRow: (model) => this.rule(model, 'read') === true,
      fieldModes: (model) => this.fieldModes(model),
      reportsInvalidValues: this.config.rules !== undefined,
    });
  }

  /** How clients may use the model's fields, by the rules. */
  fieldModes(model: string): ModelFieldModes {
    return fieldModes(this.config.rules, this.model(model));
  }

  /** Fields the caller may not write. */
  protectedFields(model: string): ReadonlySet<string> {
    return this.deniedFields(model, 'write');
  }

  /** Whether the application gave policies (a client with rules only has none). */
  get hasPolicies(): boolean {
    return this.config.policies !== undefined;
  }

  /** Whether a field write rule explicitly lets the caller write the field (without a rule: no). */
  grantsWrite(model: string, field: string): boolean {
    const rules: Record<string, FieldRule> = this.config.policies?.[model]?.fields?.write ?? {};
    if (!Object.hasOwn(rules, field)) return false;
    const rule = rules[field];
    return decide(rule, this.context) === true;
  }

  private deniedFields(model: string, kind: 'read' | 'write'): ReadonlySet<string> {
    const key = `${model}.${kind}`;
    let fields = this.fieldSets.get(key);
    if (!fields) {
      const rules: Record<string, FieldRule> = this.config.policies?.[model]?.fields?.[kind] ?? {};
      fields = new Set(
        Object.entries(rules)
          .filter(([, rule]) => decide(rule, this.context) !== true)
          .map(([field]) => field),
      );
      if (kind === 'read') for (const field of this.fieldModes(model).unreadable) (fields as Set<string>).add(field);
      this.fieldSets.set(key, fields);
    }
    return fields;
  }

  private evaluate(key: string, written: unknown): boolean | PolicyWhere {
    const value = decide(written, this.context);
    if (typeof value === 'boolean' || isPlainObject(value)) return value;
    throw new Error(`policies: rule ${key} must give a boolean or a where object, got ${typeof value}`);
  }
}

const historyReaches = new WeakMap<object, CrudApiRules>();

/**
 * The models through which a write reaches rows with history, as a rules map for `reachesRules`: the
 * models that record their history, the soft-deleted models whose deletes and restores cascade to
 * them (at any depth), and the models whose deletes the database's referential actions carry to
 * them. Found once per rules object.
 */
function historyReach(
  rules: CrudApiRules,
  models: ReadonlySet<string>,
  modelMeta: DataModelMeta,
  modelOf: (name: string) => ModelMeta,
): CrudApiRules {
  let reach = historyReaches.get(rules);
  if (!reach) {
    const cascades = (name: string, seen = new Set<string>()): boolean => {
      if (models.has(name) || referentialActions(modelMeta.models, models, name).length > 0) return true;
      if (seen.has(name)) return false;
      seen.add(name);
      const model = modelOf(name);
      return (rules[name]?.softDelete?.cascade ?? []).some((field) =>
        cascades(model.fields[field]!.relation!.model, seen),
      );
    };
    reach = Object.fromEntries(
      Object.keys(modelMeta.models)
        .filter((name) => cascades(name))
        .map((name) => [name, rules[name] ?? {}]),
    );
    historyReaches.set(rules, reach);
  }
  return reach;
}

const reaches = new WeakMap<object, CrudApiRules>();

/**
 * The models through which a write reaches soft-deleted rows, as a rules map for `reachesRules`: the
 * soft-deleted models, and those holding a foreign key to one (found once per rules object).
 */
function softDeleteReach(rules: CrudApiRules, modelMeta: DataModelMeta): CrudApiRules {
  let reach = reaches.get(rules);
  if (!reach) {
    const softDeleted = softDeletedModels(rules);
    const holdsKey = (model: ModelMeta) =>
      Object.values(model.fields).some(
        (field) => (field.relation?.fields.length ?? 0) > 0 && softDeleted.has(field.relation!.model),
      );
    const names = Object.values(modelMeta.models)
      .filter((model) => softDeleted.has(model.name) || holdsKey(model))
      .map((model) => model.name);
    reach = Object.fromEntries(names.map((name) => [name, rules[name] ?? {}]));
    reaches.set(rules, reach);
  }
  return reach;
}
