import type { DataModelMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';

/**
 * Adds to `into` every model that Prisma arguments for `model` reach: the model and each model
 * named through a relation field anywhere in them (`include`, `select`, `_count`, relation filters,
 * `orderBy`, nested writes), at any depth, and the dependents of a model they delete from (nested
 * `delete`, `deleteMany`). Scalar fields' values (a Json filter) are not walked.
 */
export function modelsReached(meta: DataModelMeta, model: ModelMeta, args: unknown, into: Set<string>): void {
  into.add(model.name);
  if (args === null || typeof args !== 'object') return;
  if (Array.isArray(args)) {
    for (const item of args) modelsReached(meta, model, item, into);
    return;
  }
  for (const key of Object.keys(args)) {
    const value = (args as Record<string, unknown>)[key];
    const field = Object.hasOwn(model.fields, key) ? model.fields[key] : undefined;
    if (field === undefined && DELETES.has(key)) for (const other of dependentModels(meta, model.name)) into.add(other);
    if (field === undefined) modelsReached(meta, model, value, into);
    else if (field.kind === 'relation') modelsReached(meta, meta.models[field.type]!, value, into);
  }
}

/** The operations and nested writes that delete rows. */
const DELETES = new Set(['delete', 'deleteMany']);

const delegateModels = new WeakMap<DataModelMeta, Map<string, ModelMeta>>();

/** Each model by the name of its client delegate (`post`, `userProfile`). */
function byDelegate(meta: DataModelMeta): Map<string, ModelMeta> {
  let models = delegateModels.get(meta);
  if (!models) {
    models = new Map(Object.values(meta.models).map((model) => [toTypeName(model.name), model]));
    delegateModels.set(meta, models);
  }
  return models;
}

/** What a recording client tells of each query it sends: the model, the operation and its arguments. */
export type QueryNote = (meta: DataModelMeta, model: ModelMeta, operation: string, args: unknown) => void;

/**
 * The note that adds to `into` every model a query reaches (`modelsReached`), and for a delete
 * the models whose rows its referential actions may change.
 */
export const noteModels =
  (into: Set<string>): QueryNote =>
  (meta, model, operation, args) => {
    modelsReached(meta, model, args, into);
    if (DELETES.has(operation)) for (const other of dependentModels(meta, model.name)) into.add(other);
  };

/**
 * A client that tells `recorder.note` of every query it runs, in interactive transactions too
 * (the note is read at each query: a live query's runs each note in their own footprint);
 * wrapped under the access policies, it sees the queries with the policies' filters applied. Only
 * live queries and revalidation use it: what they read decides which commits concern them.
 */
export function recordingClient(
  client: PrismaClientLike,
  meta: DataModelMeta,
  recorder: { note: QueryNote },
): PrismaClientLike {
  const models = byDelegate(meta);
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      const model = typeof property === 'string' ? models.get(property) : undefined;
      if (model) return recordingDelegate(value, meta, model, recorder);
      if (property === '$transaction') return recordingTransaction(target, meta, recorder);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function recordingDelegate(delegate: any, meta: DataModelMeta, model: ModelMeta, recorder: { note: QueryNote }) {
  return new Proxy(delegate, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (args?: unknown, ...rest: unknown[]) => {
        recorder.note(meta, model, String(property), args);
        return value.call(target, args, ...rest);
      };
    },
  });
}

function recordingTransaction(client: PrismaClientLike, meta: DataModelMeta, recorder: { note: QueryNote }) {
  return (work: ((tx: PrismaClientLike) => Promise<unknown>) | readonly Promise<unknown>[], options?: unknown) =>
    typeof work === 'function'
      ? client.$transaction((tx: PrismaClientLike) => work(recordingClient(tx, meta, recorder)), options)
      : client.$transaction(work, options);
}

const dependents = new WeakMap<DataModelMeta, Map<string, string[]>>();

/**
 * The models whose rows hold a foreign key to `model`: a delete there may change theirs too (the
 * database's referential actions, which no change event reports).
 */
export function dependentModels(meta: DataModelMeta, model: string): string[] {
  let byModel = dependents.get(meta);
  if (!byModel) {
    byModel = new Map();
    dependents.set(meta, byModel);
  }
  let models = byModel.get(model);
  if (!models) {
    models = Object.values(meta.models)
      .filter((other) =>
        Object.values(other.fields).some(
          (field) => field.kind === 'relation' && field.type === model && (field.relation?.fields.length ?? 0) > 0,
        ),
      )
      .map((other) => other.name);
    byModel.set(model, models);
  }
  return models;
}
