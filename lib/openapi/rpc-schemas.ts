import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import {
  type ArgsGrammarName,
  type PrismaOperation,
  prismaOperation,
  type ResultKind,
} from '../metadata/prisma-operations.js';
import { AGGREGATE_KEYS } from '../rpc/args/aggregates.js';
import { isNumericField, isOrderedType, SCALAR_CODECS } from '../scalars/scalar-codecs.js';
import { AS_OF_PARAMETER } from '../shared/history.constants.js';
import type { DocumentedFields } from './documented-fields.js';
import { type JsonSchema, nullable, ref } from './openapi.types.js';
import { fieldValueSchema, scalarSchema } from './wire-schemas.js';

/** Component names of one model's RPC schemas. */
export const rpcNames = (model: ModelMeta) => ({
  row: `${model.name}Row`,
  where: `${model.name}WhereInput`,
  whereUnique: `${model.name}WhereUniqueInput`,
  select: `${model.name}Select`,
  include: `${model.name}Include`,
  omit: `${model.name}Omit`,
  orderBy: `${model.name}OrderByInput`,
  createData: `${model.name}CreateInput`,
  updateData: `${model.name}UpdateInput`,
  args: (operation: string) => `${model.name}${operation.charAt(0).toUpperCase()}${operation.slice(1)}Args`,
});

const SORT_ORDER: JsonSchema = { enum: ['asc', 'desc'] };
const NESTED_WRITE =
  'A nested write, as Prisma takes it: create, createMany, connect, connectOrCreate, set, disconnect, delete, update, updateMany, deleteMany, upsert.';

const NESTED_UPDATE_ONLY =
  'The server sets this relation: a nested update of the related row (update: data, or { where, data }) only.';

/** The components every RPC document shares. */
export const SHARED_RPC_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  SerializationMeta: {
    type: 'object',
    required: ['serialization'],
    additionalProperties: false,
    description: 'superjson type metadata of the `json` part (Date, BigInt, Decimal, Bytes values...).',
    properties: {
      serialization: {
        type: 'object',
        properties: { values: {}, referentialEqualities: {}, v: { type: 'integer' } },
      },
    },
  },
  SortOrder: SORT_ORDER,
  BatchCount: {
    type: 'object',
    required: ['count'],
    additionalProperties: false,
    properties: { count: { type: 'integer', minimum: 0 } },
  },
};

const booleanOr = (schema: JsonSchema): JsonSchema => ({ anyOf: [{ type: 'boolean' }, schema] });

/** A row of the model in superjson's `json` part: every field optional (select, omit, hidden fields), relations when read. */
function rowSchema(fields: DocumentedFields, model: ModelMeta): JsonSchema {
  const enums = fields.registry.meta.enums;
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields.all(model)) {
    const related = field.relation && ref(rpcNames(fields.related(field)).row);
    properties[field.name] = !related
      ? fieldValueSchema(fields.answered(model, field), enums, 'response')
      : field.isList
        ? { type: 'array', items: related }
        : nullable(related);
  }
  properties._count = {
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Counts of to-many relations, when selected.',
  };
  return { type: 'object', additionalProperties: false, properties };
}

/** The operators of one scalar or enum field's filter (as `where.ts` accepts them). */
function scalarFilter(field: FieldMeta, fields: DocumentedFields): JsonSchema {
  const value = scalarSchema(field, fields.registry.meta.enums, 'request');
  const orNull = field.isOptional ? nullable(value) : value;
  const operators: Record<string, JsonSchema> = {
    equals: orNull,
    in: { type: 'array', items: value },
    notIn: { type: 'array', items: value },
  };
  if (isOrderedType(field)) for (const key of ['lt', 'lte', 'gt', 'gte']) operators[key] = value;
  if (field.kind === 'scalar' && field.type === 'String') {
    for (const key of ['contains', 'startsWith', 'endsWith'])
      operators[key] = { type: 'string', description: 'Matched literally (no wildcards).' };
    operators.mode = { enum: ['default', 'insensitive'], description: 'PostgreSQL: insensitive matching.' };
    operators.search = { type: 'string', description: 'Full-text search (PostgreSQL, MySQL).' };
  }
  operators.not = { anyOf: [orNull, { type: 'object' }] };
  return { anyOf: [orNull, { type: 'object', additionalProperties: false, properties: operators }] };
}

function fieldFilter(field: FieldMeta, fields: DocumentedFields): JsonSchema {
  if (field.relation) {
    const where = ref(rpcNames(fields.related(field)).where);
    if (field.isList)
      return { type: 'object', additionalProperties: false, properties: { some: where, every: where, none: where } };
    const toOne = {
      anyOf: [
        { type: 'object', additionalProperties: false, properties: { is: nullable(where), isNot: nullable(where) } },
        where,
      ],
    };
    return field.isOptional ? nullable(toOne) : toOne;
  }
  if (field.isList) {
    const item = scalarSchema(field, fields.registry.meta.enums, 'request');
    return {
      type: 'object',
      additionalProperties: false,
      properties: {
        has: nullable(item),
        hasEvery: { type: 'array', items: item },
        hasSome: { type: 'array', items: item },
        isEmpty: { type: 'boolean' },
        equals: nullable({ type: 'array', items: item }),
      },
    };
  }
  if (field.type === 'Json')
    return {
      type: 'object',
      description:
        'A Json filter: equals, not, path, string_contains, string_starts_with, string_ends_with, array_contains, array_starts_with, array_ends_with, lt, lte, gt, gte, mode.',
    };
  return scalarFilter(field, fields);
}

function whereSchema(fields: DocumentedFields, model: ModelMeta): JsonSchema {
  const self = ref(rpcNames(model).where);
  const properties: Record<string, JsonSchema> = {
    AND: { anyOf: [self, { type: 'array', items: self }] },
    OR: { type: 'array', items: self },
    NOT: { anyOf: [self, { type: 'array', items: self }] },
  };
  for (const field of fields.all(model)) properties[field.name] = fieldFilter(field, fields);
  return { type: 'object', additionalProperties: false, properties };
}

/** A where that must name a unique selector: unique fields by value, compound selectors (`userId_postId`) as objects. */
function whereUniqueSchema(fields: DocumentedFields, model: ModelMeta, where: JsonSchema): JsonSchema {
  const properties = { ...(where.properties as Record<string, JsonSchema>) };
  const shown = new Set(fields.all(model).map((field) => field.name));
  const selectors: string[] = [];
  for (const constraint of model.uniqueConstraints) {
    if (!constraint.fields.every((name) => shown.has(name))) continue;
    selectors.push(constraint.name);
    if (constraint.fields.length === 1) continue;
    const parts = constraint.fields.map((name) => [
      name,
      scalarSchema(model.fields[name]!, fields.registry.meta.enums, 'request'),
    ]);
    properties[constraint.name] = {
      type: 'object',
      required: constraint.fields,
      additionalProperties: false,
      properties: Object.fromEntries(parts),
    };
  }
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    ...(selectors.length ? { anyOf: selectors.map((name) => ({ required: [name] })) } : {}),
    description: `Names at least one unique selector: ${selectors.join(', ')}.`,
  };
}

/** The arguments of a relation read inside select/include. */
function relationRead(fields: DocumentedFields, field: FieldMeta): JsonSchema {
  const names = rpcNames(fields.related(field));
  const properties: Record<string, JsonSchema> = {
    select: ref(names.select),
    include: ref(names.include),
    omit: ref(names.omit),
  };
  if (field.isList) Object.assign(properties, listReadArgs(fields, fields.related(field)));
  return booleanOr({ type: 'object', additionalProperties: false, properties });
}

/** where/orderBy/cursor/take/skip/distinct of a list read. */
function listReadArgs(fields: DocumentedFields, model: ModelMeta): Record<string, JsonSchema> {
  const names = rpcNames(model);
  return {
    where: ref(names.where),
    orderBy: { anyOf: [ref(names.orderBy), { type: 'array', items: ref(names.orderBy) }] },
    cursor: ref(names.whereUnique),
    take: {
      ...SCALAR_CODECS.Int.schema.request,
      description: 'Rows to read; negative reads backwards from the cursor.',
    },
    skip: { type: 'integer', minimum: 0 },
    distinct: scalarNames(fields, model),
  };
}

function scalarNames(fields: DocumentedFields, model: ModelMeta): JsonSchema {
  const name = {
    enum: fields
      .all(model)
      .filter((field) => !field.relation)
      .map((field) => field.name),
  };
  return { anyOf: [name, { type: 'array', items: name }] };
}

function relationCounts(fields: DocumentedFields, model: ModelMeta): JsonSchema {
  const lists = fields.all(model).filter((field) => field.relation && field.isList);
  const entry = (field: FieldMeta) =>
    booleanOr({
      type: 'object',
      additionalProperties: false,
      properties: { where: ref(rpcNames(fields.related(field)).where) },
    });
  return booleanOr({
    type: 'object',
    additionalProperties: false,
    properties: {
      select: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(lists.map((field) => [field.name, entry(field)])),
      },
    },
  });
}

function selectionSchemas(fields: DocumentedFields, model: ModelMeta): Record<string, JsonSchema> {
  const names = rpcNames(model);
  const all = fields.all(model);
  const relationEntries = all
    .filter((field) => field.relation)
    .map((field) => [field.name, relationRead(fields, field)]);
  const scalarEntries = all.filter((field) => !field.relation).map((field) => [field.name, { type: 'boolean' }]);
  return {
    [names.select]: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ...Object.fromEntries([...scalarEntries, ...relationEntries]),
        _count: relationCounts(fields, model),
      },
    },
    [names.include]: {
      type: 'object',
      additionalProperties: false,
      properties: { ...Object.fromEntries(relationEntries), _count: relationCounts(fields, model) },
    },
    [names.omit]: { type: 'object', additionalProperties: false, properties: Object.fromEntries(scalarEntries) },
  };
}

function orderBySchema(fields: DocumentedFields, model: ModelMeta): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields.all(model)) {
    if (field.relation) {
      properties[field.name] = field.isList
        ? { type: 'object', additionalProperties: false, properties: { _count: SORT_ORDER } }
        : ref(rpcNames(fields.related(field)).orderBy);
    } else if (!field.isList) {
      properties[field.name] = field.isOptional
        ? {
            anyOf: [
              SORT_ORDER,
              {
                type: 'object',
                required: ['sort'],
                additionalProperties: false,
                properties: { sort: SORT_ORDER, nulls: { enum: ['first', 'last'] } },
              },
            ],
          }
        : SORT_ORDER;
    }
  }
  properties._relevance = {
    type: 'object',
    description: 'Full-text relevance (PostgreSQL, MySQL): { fields, search, sort }.',
  };
  return { type: 'object', additionalProperties: false, properties };
}

const ARITHMETIC = ['increment', 'decrement', 'multiply', 'divide'];

function dataSchema(fields: DocumentedFields, model: ModelMeta, kind: 'create' | 'update'): JsonSchema {
  const enums = fields.registry.meta.enums;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of fields.writableFields(model)) {
    if (field.relation) {
      properties[field.name] = { type: 'object', description: NESTED_WRITE };
      continue;
    }
    const value = { ...fieldValueSchema(field, enums, 'request'), ...fields.requestExtras(model, field, kind) };
    if (fields.isVirtual(model, field)) {
      // A value for a hook, never a column: no list or update operators.
      properties[field.name] = value;
      if (kind === 'create' && !field.isOptional) required.push(field.name);
      continue;
    }
    if (kind === 'create') {
      properties[field.name] = field.isList
        ? { anyOf: [value, { type: 'object', additionalProperties: false, properties: { set: value } }] }
        : value;
      continue;
    }
    const operators: Record<string, JsonSchema> = { set: value };
    if (field.isList) operators.push = { anyOf: [value, scalarSchema(field, enums, 'request')] };
    else if (isNumericField(field))
      for (const key of ARITHMETIC) operators[key] = scalarSchema(field, enums, 'request');
    properties[field.name] = { anyOf: [value, { type: 'object', additionalProperties: false, properties: operators }] };
  }
  if (kind === 'update') {
    for (const field of fields.updateOnlyRelations(model)) {
      properties[field.name] = {
        type: 'object',
        additionalProperties: false,
        properties: { update: { type: 'object' } },
        description: NESTED_UPDATE_ONLY,
      };
    }
  }
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    ...(required.length ? { required } : {}),
    description: 'Field values in superjson `json` form (dates as ISO strings, BigInt/Decimal as strings with `meta`).',
  };
}

/** One model's RPC components (argument grammar and result rows). */
export function modelRpcSchemas(fields: DocumentedFields, model: ModelMeta): Record<string, JsonSchema> {
  const names = rpcNames(model);
  const where = whereSchema(fields, model);
  return {
    [names.row]: rowSchema(fields, model),
    [names.where]: where,
    [names.whereUnique]: whereUniqueSchema(fields, model, where),
    ...selectionSchemas(fields, model),
    [names.orderBy]: orderBySchema(fields, model),
    [names.createData]: dataSchema(fields, model, 'create'),
    [names.updateData]: dataSchema(fields, model, 'update'),
  };
}

/** The schema of one top-level argument, by its name in the grammar (`OPERATION_ARGS`). */
export function argumentSchema(
  fields: DocumentedFields,
  model: ModelMeta,
  operation: ArgsGrammarName,
  key: string,
): JsonSchema {
  const names = rpcNames(model);
  // The grammars of one row name it by a unique `where` (a create has none).
  const unique = prismaOperation(operation)?.rows === 'one';
  const aggregate = booleanOr({ type: 'object', description: 'Fields to aggregate: { field: true }.' });
  const many = (schema: JsonSchema) => ({ anyOf: [schema, { type: 'array', items: schema }] });
  const listArgs = listReadArgs(fields, model);
  const byKey: Record<string, JsonSchema> = {
    ...listArgs,
    where: unique ? ref(names.whereUnique) : ref(names.where),
    select:
      operation === 'count'
        ? booleanOr({ type: 'object', description: '{ _all: true, field: true }: counts per field.' })
        : ref(names.select),
    include: ref(names.include),
    omit: ref(names.omit),
    data: operation.startsWith('create')
      ? operation === 'create'
        ? ref(names.createData)
        : many(ref(names.createData))
      : ref(names.updateData),
    create: ref(names.createData),
    update: ref(names.updateData),
    skipDuplicates: { type: 'boolean' },
    limit: { type: 'integer', minimum: 0, description: 'Most rows to change.' },
    by: scalarNames(fields, model),
    having: {
      type: 'object',
      description: 'A where on the groups: field filters and aggregate filters (_count, _avg, _sum, _min, _max).',
    },
    ...Object.fromEntries(AGGREGATE_KEYS.map((aggregateKey) => [aggregateKey, aggregate])),
    [AS_OF_PARAMETER]: {
      ...SCALAR_CODECS.DateTime.schema.request,
      description:
        'Answer the rows as they were at this time (models whose rules record their history; 400 on others, and before the history kept).',
    },
    since: { ...SCALAR_CODECS.DateTime.schema.request, description: 'Versions recorded at or after this time.' },
    until: { ...SCALAR_CODECS.DateTime.schema.request, description: 'Versions recorded at or before this time.' },
    actor: { type: 'string', description: 'Versions recorded for this actor.' },
    order: { enum: ['desc', 'asc'], description: 'Newest first (default) or oldest first.' },
    version: { type: 'integer', minimum: 0, description: 'The version to put the row back to.' },
  };
  if (operation === 'groupBy')
    byKey.orderBy = many({ type: 'object', description: 'Fields and aggregates ({ _count: { field: "asc" } }).' });
  const schema = byKey[key];
  if (!schema) throw new Error(`No OpenAPI schema for the RPC argument ${key} of ${operation}.`);
  return schema;
}

/** What an operation's `data` is, by the result shape of its row in the operation table. */
export function resultSchema(model: ModelMeta, operation: Pick<PrismaOperation, 'result'>): JsonSchema {
  const row = ref(rpcNames(model).row);
  const schemas: Record<ResultKind, () => JsonSchema> = {
    rows: () => ({ type: 'array', items: row }),
    row: () => row,
    'row-or-null': () => nullable(row),
    versions: () => ({ type: 'array', items: versionSchema(row) }),
    batch: () => ref('BatchCount'),
    count: () => ({
      anyOf: [
        { type: 'integer', minimum: 0 },
        { type: 'object', additionalProperties: { type: 'integer' } },
      ],
    }),
    aggregate: () => ({ type: 'object', description: 'The requested aggregates (_count, _avg, _sum, _min, _max).' }),
    groups: () => ({
      type: 'array',
      items: { type: 'object', description: 'The `by` fields and the requested aggregates of one group.' },
    }),
  };
  return schemas[operation.result]();
}

/** One recorded change of a row (`history`), its row in the model's row schema. */
function versionSchema(row: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['version', 'operation', 'at', 'actor', 'requestId', 'changed', 'data'],
    properties: {
      version: {
        type: 'integer',
        description: 'The change’s number: the versions of a row are numbered in their order.',
      },
      operation: { enum: ['create', 'update', 'delete'] },
      at: { ...SCALAR_CODECS.DateTime.schema.response, description: 'When it was recorded, by the database’s clock.' },
      actor: { type: ['string', 'null'] },
      requestId: { type: ['string', 'null'] },
      changed: { type: 'array', items: { type: 'string' }, description: 'The fields the change set or changed.' },
      data: { ...nullable(row), description: 'The row after the change; null for a delete.' },
    },
  };
}
