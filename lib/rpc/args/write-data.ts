import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { InvalidValue } from '../../rules/invalid-value.js';
import { isNumericField } from '../../scalars/scalar-codecs.js';
import { argKeys, type ArgPath } from './arg-path.js';
import { ArgsError } from './args.error.js';
import {
  type ArgsContext,
  fail,
  isRecord,
  mapMembers,
  objectOf,
  oneOrMany,
  relatedModel,
  type Rule,
  UNKNOWN,
  type Value,
  type WriteField,
  writeField,
} from './args-context.js';
import { fieldValue, storedValue } from './field-values.js';
import { boolean } from './paging.js';
import { whereInput, whereUniqueInput } from './where.js';

/**
 * Which fields a data object may set. Prisma's checked (relation) and unchecked (foreign key)
 * inputs are accepted together; Prisma itself refuses a mixture. A nested write leaves out the
 * relation it came through (`without`), and `createMany`/`updateMany` take scalars only.
 */
interface DataShape {
  readonly model: ModelMeta;
  readonly scalarsOnly: boolean;
  readonly without: ReadonlySet<string>;
}

const NO_FIELDS: ReadonlySet<string> = new Set();

/** The related model's shape when written through `field`: without the way back and its foreign key. */
function nestedShape(ctx: ArgsContext, field: FieldMeta, scalarsOnly = false): DataShape {
  const model = relatedModel(ctx, field);
  const back = field.relation!.oppositeField;
  const backField = back ? model.fields[back] : undefined;
  const without = new Set([...(back ? [back] : []), ...(backField?.relation?.fields ?? [])]);
  return { model, scalarsOnly, without };
}

/**
 * A field the data may set (refused at `path` when the server sets it), or undefined for an unknown
 * key. `updatesOnly` says the member only updates the related row, which a relation through a
 * server-set foreign key allows: it leaves the key alone.
 */
function shapeField(
  ctx: ArgsContext,
  shape: DataShape,
  key: string,
  path: ArgPath,
  updatesOnly = false,
): WriteField | undefined {
  if (shape.without.has(key)) return undefined;
  const found = writeField(ctx, shape.model, key);
  if (!found || (shape.scalarsOnly && found.field.relation)) return undefined;
  if (found.mode === 'server-set' && !(updatesOnly && found.field.relation))
    fail(ctx, path, `"${key}" is set by the server and cannot be given`);
  return found;
}

/** Whether a relation member of an update's data only updates the related row (`author: { update }`). */
const updatesOnly = (member: Value): boolean =>
  isRecord(member) && Object.entries(member).every(([op, value]) => op === 'update' || value === undefined);

const unique =
  (model: ModelMeta): Rule =>
  (ctx, value, path) =>
    whereUniqueInput(ctx, model, value, path);
const uniques = (model: ModelMeta): Rule => oneOrMany(unique(model));
const scalarWhere =
  (model: ModelMeta): Rule =>
  (ctx, value, path) =>
    whereInput(ctx, model, value, path, 'scalar');
const createOf =
  (shape: DataShape): Rule =>
  (ctx, value, path) =>
    createData(ctx, shape, value, path);
const updateOf =
  (shape: DataShape): Rule =>
  (ctx, value, path) =>
    updateData(ctx, shape, value, path);

/** A scalar list's value on create: the array, or `{ set: array }`. */
function listOnCreate(ctx: ArgsContext, field: FieldMeta, value: Value, path: ArgPath): Value {
  if (!isRecord(value)) return storedValue(ctx, field, value, path);
  return objectOf({ set: (c, v, p) => storedValue(c, field, v, p) })(ctx, value, path);
}

/** The members of `create` on a relation (`posts: { create, connect, ... }`) for one relation kind. */
function nestedCreateRules(ctx: ArgsContext, field: FieldMeta): Record<string, Rule> {
  const shape = nestedShape(ctx, field);
  const target = shape.model;
  const connectOrCreate = objectOf({ where: unique(target), create: createOf(shape) });
  if (!field.isList) return { create: createOf(shape), connectOrCreate, connect: unique(target) };
  const createMany = objectOf({ data: oneOrMany(createOf(nestedShape(ctx, field, true))), skipDuplicates: boolean });
  return {
    create: oneOrMany(createOf(shape)),
    connectOrCreate: oneOrMany(connectOrCreate),
    createMany,
    connect: uniques(target),
  };
}

/** The members of `update` on a relation: nested create rules plus the update-only operations. */
function nestedUpdateRules(ctx: ArgsContext, field: FieldMeta): Record<string, Rule> {
  const shape = nestedShape(ctx, field);
  const target = shape.model;
  const create = nestedCreateRules(ctx, field);
  if (field.isList) {
    const scalars = nestedShape(ctx, field, true);
    return {
      ...create,
      upsert: oneOrMany(objectOf({ where: unique(target), update: updateOf(shape), create: createOf(shape) })),
      set: uniques(target),
      disconnect: uniques(target),
      delete: uniques(target),
      update: oneOrMany(objectOf({ where: unique(target), data: updateOf(shape) })),
      updateMany: oneOrMany(objectOf({ where: scalarWhere(target), data: updateOf(scalars) })),
      deleteMany: oneOrMany(scalarWhere(target)),
    };
  }
  const whereOrTrue: Rule = (c, v, p) => (typeof v === 'boolean' ? v : whereInput(c, target, v, p));
  const wrappedUpdate = objectOf({ where: (c, v, p) => whereInput(c, target, v, p), data: updateOf(shape) });
  return {
    ...create,
    upsert: objectOf({
      where: (c, v, p) => whereInput(c, target, v, p),
      update: updateOf(shape),
      create: createOf(shape),
    }),
    // `update: data` or `update: { where, data }`.
    update: (c, v, p) =>
      isRecord(v) && 'data' in v && Object.keys(v).every((k) => k === 'data' || k === 'where')
        ? wrappedUpdate(c, v, p)
        : updateOf(shape)(c, v, p),
    ...(field.isOptional ? { disconnect: whereOrTrue, delete: whereOrTrue } : {}),
  };
}

/**
 * A scalar member's checked value or, when it does not fit its field, an `InvalidValue` (at the
 * problem's place within the member) that the write rules report with every other issue of the write.
 */
function valueOrInvalid(field: FieldMeta, path: ArgPath, check: () => Value): Value {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error;
    const at = argKeys(error.path).slice(argKeys(path).length);
    return new InvalidValue(error.problem, field.kind === 'enum' ? 'invalid-enum' : 'invalid-type', { at });
  }
}

/** A `data` object of create, createMany (scalars only) and nested creates. */
export function createData(ctx: ArgsContext, shape: DataShape, value: Value, path: ArgPath | undefined): Value {
  return mapMembers(
    ctx,
    value,
    path,
    (key, member, memberPath) => {
      const found = shapeField(ctx, shape, key, memberPath);
      if (!found) return UNKNOWN;
      const { field } = found;
      if (field.relation) return objectOf(nestedCreateRules(ctx, field))(ctx, member, memberPath);
      return valueOrInvalid(field, memberPath, () =>
        field.isList ? listOnCreate(ctx, field, member, memberPath) : storedValue(ctx, field, member, memberPath),
      );
    },
    'a data object',
  );
}

const ARITHMETIC = ['increment', 'decrement', 'multiply', 'divide'];

/** The operators of a scalar field's update (`{ increment: 1 }`, `{ set: x }`, `{ push: x }`). */
function scalarUpdateRules(field: FieldMeta): Record<string, Rule> {
  const set: Rule = (c, v, p) => storedValue(c, field, v, p);
  if (field.isList) {
    const item = { ...field, isList: false, isOptional: false };
    return { set, push: oneOrMany((c, v, p) => fieldValue(c, item, v, p)) };
  }
  const arithmetic: Rule = (c, v, p) => fieldValue(c, field, v, p);
  return isNumericField(field) ? { set, ...Object.fromEntries(ARITHMETIC.map((op) => [op, arithmetic])) } : { set };
}

/** A `data` object of update, updateMany (scalars only), upsert and nested updates. */
export function updateData(ctx: ArgsContext, shape: DataShape, value: Value, path: ArgPath | undefined): Value {
  return mapMembers(
    ctx,
    value,
    path,
    (key, member, memberPath) => {
      const found = shapeField(ctx, shape, key, memberPath, updatesOnly(member));
      if (!found) return UNKNOWN;
      const { field } = found;
      if (field.relation) return objectOf(nestedUpdateRules(ctx, field))(ctx, member, memberPath);
      // A Json value may itself be an object; other scalars use an object for operators only, which
      // a virtual field (a value for a hook, never a column) does not take.
      return valueOrInvalid(field, memberPath, () =>
        field.type === 'Json' || found.mode === 'virtual' || !isRecord(member)
          ? storedValue(ctx, field, member, memberPath)
          : objectOf(scalarUpdateRules(field))(ctx, member, memberPath),
      );
    },
    'a data object',
  );
}

/** The shape of a top-level `data`. */
export function topLevelShape(model: ModelMeta, scalarsOnly: boolean): DataShape {
  return { model, scalarsOnly, without: NO_FIELDS };
}
