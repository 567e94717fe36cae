import { idSelect } from '../metadata/id-select.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { applyDeleteRules, modelRules, type RuleRun } from '../rules/apply-write-rules.js';
import type { SoftDelete } from '../rules/rules.types.js';
import type { ChangeCapture } from './change-capture.js';
import type { PolicyWhere } from './policy.types.js';
import type { PolicySet } from './policy-set.js';
import { anyOfIds } from './rule-where.js';

type Row = Record<string, any>;

/** What marking rows deleted (or restoring them) needs: the transaction, the schema, who hears of it. */
export interface SoftDeleteScope {
  tx: PrismaClientLike;
  set: PolicySet;
  run?: RuleRun;
  capture?: ChangeCapture;
}

const delegate = (tx: PrismaClientLike, model: ModelMeta) => tx[toTypeName(model.name)];

/** The soft-delete setting of a model known to be soft-deleted. */
function settingOf(set: PolicySet, model: ModelMeta): SoftDelete {
  const softDelete = set.softDelete(model.name);
  if (!softDelete) throw new Error(`${model.name} is not soft-deleted`);
  return softDelete;
}

/** Whether the dependants of a cascade must be read in full: a delete hook or a change listener sees them. */
const readsWholeRows = (scope: SoftDeleteScope, model: ModelMeta): boolean =>
  scope.capture !== undefined || modelRules(scope.set.writeRules, model.name)?.beforeDelete !== undefined;

/**
 * Marks `rows` (as stored, or by key) deleted at `at`, then their live dependants along the model's
 * cascades with the same time, depth first. Hooks and listeners of the rows themselves are the
 * caller's; those of the dependants run here, as for any delete.
 */
export async function markDeleted(scope: SoftDeleteScope, model: ModelMeta, rows: Row[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await delegate(scope.tx, model).updateMany({ where: anyOfIds(model, rows), data: deletedAt(scope.set, model, at) });
  await markDependants(scope, model, rows, at);
}

/** The data of an update that marks rows of a soft-deleted model deleted at `at`. */
export const deletedAt = (set: PolicySet, model: ModelMeta, at: Date): Row => ({ [settingOf(set, model).field]: at });

/** Marks the live dependants of `rows` (along the model's cascades, at any depth) deleted at `at`. */
export async function markDependants(scope: SoftDeleteScope, model: ModelMeta, rows: Row[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  for (const name of settingOf(scope.set, model).cascade ?? []) {
    const target = scope.set.model(model.fields[name]!.relation!.model);
    const live = { [settingOf(scope.set, target).field]: null };
    const where = { AND: [dependantsOf(scope.set, model, name, rows), live] };
    const dependants: Row[] = await delegate(scope.tx, target).findMany(
      readsWholeRows(scope, target) ? { where } : { where, select: idSelect(target) },
    );
    if (scope.run) await applyDeleteRules(scope.run, target, [], async () => dependants);
    scope.capture?.changing(target, 'delete', dependants);
    await markDeleted(scope, target, dependants, at);
  }
}

/**
 * Brings back `rows`, deleted at `at`, and exactly the dependants deleted with them (same time),
 * along the model's cascades. The listeners hear of an update of each row.
 */
export async function restoreDeleted(scope: SoftDeleteScope, model: ModelMeta, rows: Row[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  const { field, cascade = [] } = settingOf(scope.set, model);
  await delegate(scope.tx, model).updateMany({ where: anyOfIds(model, rows), data: { [field]: null } });
  for (const name of cascade) {
    const target = scope.set.model(model.fields[name]!.relation!.model);
    const deletedWith = { [settingOf(scope.set, target).field]: at };
    const where = { AND: [dependantsOf(scope.set, model, name, rows), deletedWith] };
    const dependants: Row[] = await delegate(scope.tx, target).findMany(
      scope.capture ? { where } : { where, select: idSelect(target) },
    );
    scope.capture?.changing(target, 'update', dependants);
    await restoreDeleted(scope, target, dependants, at);
  }
}

/**
 * Rows of the relation's model whose foreign key points to one of `rows`: by the key's values when
 * it references the primary key (the rows carry it), through the relation otherwise.
 */
function dependantsOf(set: PolicySet, model: ModelMeta, relationName: string, rows: Row[]): PolicyWhere {
  const relation = model.fields[relationName]!.relation!;
  const target = set.model(relation.model);
  const back = target.fields[relation.oppositeField!]!;
  const { fields: keys, references } = back.relation!;
  if (!references.every((reference) => model.idFields.includes(reference)))
    return { [back.name]: { is: anyOfIds(model, rows) } };
  if (keys.length === 1) return { [keys[0]!]: { in: rows.map((row) => row[references[0]!]) } };
  return { OR: rows.map((row) => Object.fromEntries(keys.map((key, index) => [key, row[references[index]!]]))) };
}
