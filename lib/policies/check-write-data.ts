import { toTypeName } from '../metadata/model-registry.js';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { expandUnique } from './plan-read.js';
import { policyViolation } from './policy.errors.js';
import type { PolicySet } from './policy-set.js';
import type { PolicyAction } from './policy.types.js';
import { fieldOf, transformWhere } from './transform-where.js';
import { idSelect } from '../metadata/id-select.js';
import { andUniqueWhere, andWhere, idWhere, isPlainObject, type ResolvedRule } from './where.utils.js';

/** A write in progress: the transaction client and the caller's policies. */
export interface WriteScope {
  tx: PrismaClientLike;
  set: PolicySet;
}

type Data = Record<string, any>;
type NestedHandler = (scope: WriteScope, relation: RelationWrite, value: unknown) => Promise<unknown>;

interface RelationWrite {
  parent: ModelMeta;
  field: FieldMeta;
  target: ModelMeta;
  /** The foreign key lives on the related rows: linking or unlinking them changes them. */
  changesTarget: boolean;
}

const many = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const mapMany = async (value: unknown, fn: (item: any) => Promise<unknown>): Promise<unknown> =>
  Array.isArray(value) ? Promise.all(value.map(fn)) : fn(value);

/**
 * The `data` of a create or update, checked against the rules of every model it touches and
 * rewritten so that it cannot reach rows the caller may not read: protected fields are refused,
 * nested creates need the target's create rule, linked/changed/deleted related rows must satisfy
 * the target's rules. A nested operation the engine cannot check is refused (403).
 */
export async function checkWriteData(scope: WriteScope, model: ModelMeta, data: unknown): Promise<unknown> {
  if (!isPlainObject(data)) return data;
  const protectedFields = scope.set.protectedFields(model.name);
  const out: Data = {};
  for (const [key, value] of Object.entries(data)) {
    const field = fieldOf(model, key);
    if (field && (protectedFields.has(key) || field.relation?.fields.some((fk) => protectedFields.has(fk)))) {
      throw policyViolation(`The access policy does not let you write ${model.name}.${key}`);
    }
    if (!field?.relation || !isPlainObject(value)) {
      out[key] = value;
      continue;
    }
    const relation = relationWrite(scope.set, model, field);
    const nested: Data = {};
    for (const [op, opValue] of Object.entries(value)) {
      const handler = Object.hasOwn(NESTED_WRITES, op) ? NESTED_WRITES[op] : undefined;
      if (!handler) throw policyViolation(`The nested "${op}" on ${model.name}.${key} cannot be checked against the access policy`);
      nested[op] = await handler(scope, relation, opValue);
    }
    out[key] = nested;
  }
  return out;
}

function relationWrite(set: PolicySet, parent: ModelMeta, field: FieldMeta): RelationWrite {
  const target = set.model(field.relation!.model);
  const opposite = field.relation!.oppositeField ? fieldOf(target, field.relation!.oppositeField) : undefined;
  return { parent, field, target, changesTarget: (opposite?.relation?.fields.length ?? 0) > 0 };
}

const readRule = (scope: WriteScope, relation: RelationWrite): ResolvedRule => scope.set.rule(relation.target.name, 'read');

function requireUnconditional(scope: WriteScope, relation: RelationWrite, action: PolicyAction, op: string): void {
  if (scope.set.rule(relation.target.name, action) === true) return;
  const what = `${relation.parent.name}.${relation.field.name}`;
  throw policyViolation(
    scope.set.denies(relation.target.name, action)
      ? `The access policy does not let you ${action} ${relation.target.name} rows (nested "${op}" on ${what})`
      : `The nested "${op}" on ${what} cannot be checked against the conditional ${action} rule of ${relation.target.name}`,
  );
}

/**
 * A related row named by a unique selector: invisible rows are left to Prisma's "not found"
 * (the read rule joins the selector); a visible row outside `action`'s rule is refused.
 */
async function selectVisible(scope: WriteScope, relation: RelationWrite, unique: unknown, action?: PolicyAction): Promise<unknown> {
  if (!isPlainObject(unique)) return unique;
  const { set, tx } = scope;
  const target = relation.target;
  const where = transformWhere(set, target, unique);
  const read = readRule(scope, relation);
  const rule = action ? set.rule(target.name, action) : true;
  if (rule !== true) {
    const row = await tx[toTypeName(target.name)].findFirst({ where: andWhere(expandUnique(target, where), read), select: idSelect(target) });
    const permitted =
      row && !set.denies(target.name, action!) && (await tx[toTypeName(target.name)].findFirst({ where: { AND: [idWhere(target, row), rule] }, select: idSelect(target) }));
    if (row && !permitted) throw policyViolation(`The access policy does not let you ${action} this ${target.name}`);
  }
  return andUniqueWhere(where, read);
}

/** A filter over related rows restricted to those the caller may read and `action` on. */
function restrictMany(scope: WriteScope, relation: RelationWrite, where: unknown, action: PolicyAction): unknown {
  const own = transformWhere(scope.set, relation.target, where === true ? undefined : where);
  const restricted = andWhere(andWhere(own, readRule(scope, relation)), scope.set.rule(relation.target.name, action));
  return restricted ?? (where === true ? true : {});
}

const createData = (scope: WriteScope, relation: RelationWrite, value: unknown, op: string) => {
  requireUnconditional(scope, relation, 'create', op);
  return mapMany(value, (item) => checkWriteData(scope, relation.target, item));
};

/** Whether a nested to-one `update` value is the `{ where?, data }` form (rather than the data itself). */
const isWhereDataForm = (relation: RelationWrite, value: unknown): value is Data =>
  isPlainObject(value) && 'data' in value && !fieldOf(relation.target, 'data');

const NESTED_WRITES: Record<string, NestedHandler> = {
  create: (scope, relation, value) => createData(scope, relation, value, 'create'),
  createMany: async (scope, relation, value) => {
    if (!isPlainObject(value)) return value;
    return { ...value, data: await createData(scope, relation, value.data, 'createMany') };
  },
  connectOrCreate: (scope, relation, value) =>
    mapMany(value, async (item: Data) => ({
      ...item,
      where: await selectVisible(scope, relation, item.where, relation.changesTarget ? 'update' : undefined),
      create: await createData(scope, relation, item.create, 'connectOrCreate'),
    })),
  connect: (scope, relation, value) =>
    mapMany(value, (item) => selectVisible(scope, relation, item, relation.changesTarget ? 'update' : undefined)),
  set: (scope, relation, value) => {
    // `set` also unlinks every current related row, which the caller may not even see.
    if (relation.changesTarget) requireUnconditional(scope, relation, 'update', 'set');
    return mapMany(value, (item) => selectVisible(scope, relation, item));
  },
  disconnect: async (scope, relation, value) => {
    if (!relation.field.isList) {
      if (relation.changesTarget) requireUnconditional(scope, relation, 'update', 'disconnect');
      return value;
    }
    return mapMany(value, (item) => selectVisible(scope, relation, item, relation.changesTarget ? 'update' : undefined));
  },
  update: (scope, relation, value) => {
    if (!relation.field.isList) {
      // To-one: the related row is whatever is linked; restrict it with a `where` (Prisma answers "not found").
      const { where, data } = isWhereDataForm(relation, value) ? value : { where: undefined, data: value };
      return (async () => ({ where: restrictMany(scope, relation, where, 'update'), data: await checkWriteData(scope, relation.target, data) }))();
    }
    return mapMany(value, async (item: Data) => ({
      where: await selectVisible(scope, relation, item.where, 'update'),
      data: await checkWriteData(scope, relation.target, item.data),
    }));
  },
  updateMany: (scope, relation, value) =>
    mapMany(value, async (item: Data) => ({
      where: restrictMany(scope, relation, item.where, 'update'),
      data: await checkWriteData(scope, relation.target, item.data),
    })),
  upsert: (scope, relation, value) =>
    mapMany(value, async (item: Data) => {
      requireUnconditional(scope, relation, 'update', 'upsert');
      const checked: Data = {
        ...item,
        create: await createData(scope, relation, item.create, 'upsert'),
        update: await checkWriteData(scope, relation.target, item.update),
      };
      if (item.where !== undefined) {
        checked.where = relation.field.isList ? await selectVisible(scope, relation, item.where) : restrictMany(scope, relation, item.where, 'update');
      }
      return checked;
    }),
  delete: (scope, relation, value) => {
    if (!relation.field.isList) return Promise.resolve(restrictMany(scope, relation, value, 'delete'));
    return mapMany(value, (item) => selectVisible(scope, relation, item, 'delete'));
  },
  deleteMany: (scope, relation, value) => Promise.resolve(many(value).map((item) => restrictMany(scope, relation, item, 'delete'))),
};
