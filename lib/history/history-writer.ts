import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import type { ChangeEvent, CrudApiRules, RuleContext } from '../rules/rules.types.js';
import type { CrudApiHistory } from './history.types.js';
import { plainRow, rowKey } from './stored-row.js';

type Row = Record<string, unknown>;

/** The `history` option as the policy clients use it: its model resolved. */
export interface HistorySettings extends Omit<CrudApiHistory, 'model'> {
  model: ModelMeta;
}

/** The actor when the option names none: the id of the context's user, if it has one. */
export const defaultActor = (context: RuleContext): string | number | bigint | null | undefined => context.user?.id;

const NONE: ReadonlySet<string> = new Set();
const modelsOf = new WeakMap<CrudApiRules, ReadonlySet<string>>();

/** The models whose rules ask for their history (`rules[Model].history: true`), found once per rules object. */
export function historyModels(rules: CrudApiRules | undefined): ReadonlySet<string> {
  if (!rules) return NONE;
  let models = modelsOf.get(rules);
  if (!models) {
    models = new Set(Object.entries(rules).flatMap(([name, rule]) => (rule.history === true ? [name] : [])));
    modelsOf.set(rules, models);
  }
  return models;
}

/** Referential actions by which the database changes rows referencing a deleted row. */
const DATABASE_ACTIONS: ReadonlySet<string> = new Set(['Cascade', 'SetNull', 'SetDefault']);

/** A relation through which the database changes rows of `source` when a row it references is deleted. */
export interface ReferentialAction {
  source: ModelMeta;
  /** The relation field of `source` holding the foreign key. */
  field: string;
  cascades: boolean;
}

const actionsOf = new WeakMap<object, Map<string, ReferentialAction[]>>();

/**
 * The relations whose rows the database changes when a row of `model` is deleted, among those that
 * lead to a model with history (the model itself, or by further cascades). Found once per schema
 * and set of models.
 */
export function referentialActions(
  models: Readonly<Record<string, ModelMeta>>,
  recorded: ReadonlySet<string>,
  model: string,
): readonly ReferentialAction[] {
  let byModel = actionsOf.get(recorded);
  if (!byModel) {
    byModel = new Map();
    actionsOf.set(recorded, byModel);
  }
  const found = byModel.get(model);
  if (found) return found;
  const all = (target: string): ReferentialAction[] =>
    Object.values(models).flatMap((source) =>
      Object.values(source.fields).flatMap((field) => {
        const relation = field.relation;
        if (
          relation?.model !== target ||
          relation.fields.length === 0 ||
          !DATABASE_ACTIONS.has(relation.onDelete ?? '')
        )
          return [];
        return [{ source, field: field.name, cascades: relation.onDelete === 'Cascade' }];
      }),
    );
  const leads = (action: ReferentialAction, seen: Set<string>): boolean =>
    recorded.has(action.source.name) ||
    (action.cascades &&
      !seen.has(action.source.name) &&
      all(action.source.name).some((next) => leads(next, new Set([...seen, action.source.name]))));
  const actions = all(model).filter((action) => leads(action, new Set([model])));
  byModel.set(model, actions);
  return actions;
}

/** The fields a change set or changed: all of the row's for a create or a delete. */
function changedFields(after: Row | undefined, before: Row | undefined): string[] {
  if (!after || !before) return Object.keys(after ?? before ?? {});
  return Object.keys(after).filter((name) => JSON.stringify(after[name]) !== JSON.stringify(before[name]));
}

/** Who made the change, as the history keeps it: text, or null. */
function actorOf(settings: HistorySettings, context: RuleContext): string | null {
  const actor = (settings.actor ?? defaultActor)(context);
  return actor === undefined || actor === null ? null : String(actor);
}

/**
 * The history rows of a transaction's changes, one per changed row of a model with history. Its
 * time is left to the database (the model's `at` default), so every instance records on one clock.
 */
export function historyRows(
  settings: HistorySettings,
  models: ReadonlySet<string>,
  events: readonly ChangeEvent[],
  requestId: string | undefined,
): Row[] {
  return events
    .filter((event) => models.has(event.model))
    .map((event) => {
      const after = event.after && plainRow(event.after);
      const before = event.before && plainRow(event.before);
      return {
        model: event.model,
        rowKey: rowKey(event.id),
        operation: event.operation,
        // An absent optional Json column is SQL NULL; Prisma refuses a plain null there.
        ...(after ? { data: after } : {}),
        ...(before ? { before } : {}),
        changed: changedFields(after, before),
        actor: actorOf(settings, event.context),
        requestId: requestId ?? null,
      };
    });
}

/** Writes the rows in the transaction, in one statement: they commit with the changes or not at all. */
export async function recordHistory(tx: PrismaClientLike, settings: HistorySettings, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  await tx[toTypeName(settings.model.name)].createMany({ data: rows });
}

/** How often an instance deletes the changes past the history's retention. */
const PURGE_INTERVAL_MS = 60_000;
const nextPurge = new WeakMap<HistorySettings, number>();

/**
 * Deletes the changes recorded before the retention, at most once a minute per instance, after a
 * write and outside it: a failure is retried a minute later and never fails the write.
 */
export function purgeExpired(client: PrismaClientLike, settings: HistorySettings, now = Date.now()): void {
  if (settings.retention === undefined || (nextPurge.get(settings) ?? 0) > now) return;
  nextPurge.set(settings, now + PURGE_INTERVAL_MS);
  const before = new Date(now - settings.retention);
  void Promise.resolve()
    .then(() => client[toTypeName(settings.model.name)].deleteMany({ where: { at: { lt: before } } }))
    .catch(() => undefined);
}
