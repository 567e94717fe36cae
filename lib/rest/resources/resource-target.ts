import { CrudApiError, type CrudApiErrorOptions } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { type ModelRegistry, toTypeName } from '../../metadata/model-registry.js';
import type { PrismaOperationName } from '../../metadata/prisma-operations.js';
import { type IdValues, parseResourceId } from '../resource-id.js';
import { relationshipFields } from '../serialize/resource-members.js';

/** The resource a write or read is about: its model and id, as the request named them. */
export interface ResourceTarget {
  model: ModelMeta;
  /** The resource type (`post`). */
  type: string;
  id: IdValues;
  /** The id as the request gave it, for messages. */
  rawId: string | number;
  /** Where the request gave the id (an atomic operation's `/ref/id`); none for an id in the URL. */
  pointer?: string;
}

/** The `source` of an error about a member at `pointer`, if there is one. */
const at = (pointer: string | undefined): CrudApiErrorOptions => (pointer === undefined ? {} : { source: { pointer } });

/** 403 when the `operations` option refuses `operation` on the model. */
export function assertOperationAllowed(
  registry: ModelRegistry,
  model: ModelMeta,
  operation: PrismaOperationName,
  pointer?: string,
): void {
  if (!registry.allowsOperation(model, operation)) {
    throw new CrudApiError(
      'forbidden',
      `The ${operation} operation is not allowed on ${toTypeName(model.name)}.`,
      at(pointer),
    );
  }
}

/** The exposed model of a resource type (404 otherwise), if `operation` is allowed on it (403 otherwise). */
export function resourceModel(
  registry: ModelRegistry,
  type: string,
  operation: PrismaOperationName,
  pointer?: string,
): ModelMeta {
  const model = registry.findByTypeName(type);
  if (!model) throw new CrudApiError('unknown-type', `Unknown resource type ${quoteInput(type)}.`, at(pointer));
  assertOperationAllowed(registry, model, operation, pointer);
  return model;
}

/** The resource of `model` with this id; a malformed id names no resource (404). */
export function resourceTarget(
  model: ModelMeta,
  rawId: string | number,
  idDivider: string,
  pointer?: string,
): ResourceTarget {
  const type = toTypeName(model.name);
  const id = parseResourceId(model, type, rawId, idDivider);
  return { model, type, id, rawId, ...(pointer === undefined ? {} : { pointer }) };
}

/** 404 for a target that does not exist (or that the caller's policies do not let it see). */
export function targetNotFound(target: ResourceTarget): CrudApiError {
  return new CrudApiError('not-found', `No ${target.type} with id ${quoteInput(target.rawId)}.`, at(target.pointer));
}

/**
 * A relationship of the model by name, 404 when there is none; `idForm` (a URL ending in the
 * related id) exists for to-one relationships only.
 */
export function relationshipField(
  registry: ModelRegistry,
  model: ModelMeta,
  name: string,
  { idForm = false, pointer }: { idForm?: boolean; pointer?: string } = {},
): FieldMeta {
  const field = relationshipFields(registry, model).find((candidate) => candidate.name === name);
  if (!field || (idForm && field.isList)) {
    throw new CrudApiError(
      'unknown-relationship',
      `${toTypeName(model.name)} has no relationship ${quoteInput(name)}${idForm ? ' with an id form' : ''}.`,
      at(pointer),
    );
  }
  return field;
}
