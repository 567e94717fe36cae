import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { type ModelRegistry, toTypeName } from '../../metadata/model-registry.js';
import { type AttributeEncoder, attributeEncoder } from '../attribute-codec.js';
import { attributeFields, foreignKeyForIds, relationshipFields } from './resource-members.js';

/** An attribute and how its stored value is written. */
export interface AttributeSlot {
  readonly name: string;
  readonly encode: AttributeEncoder;
}

/** A relationship, its related model, and the local foreign key that names the related resource, if any. */
export interface RelationshipSlot {
  readonly name: string;
  readonly isList: boolean;
  readonly related: ModelMeta;
  readonly foreignKeys?: readonly string[];
  /** The related model's shape, looked up on first use (relations may be cyclic). */
  readonly relatedShape: () => ResourceShape;
}

/**
 * Everything about a model that rendering one of its resource objects needs and that does not
 * depend on the row: worked out once per model, not once per rendered resource.
 */
export interface ResourceShape {
  readonly model: ModelMeta;
  readonly type: string;
  readonly attributes: readonly AttributeSlot[];
  readonly relationships: readonly RelationshipSlot[];
}

const shapes = new WeakMap<ModelRegistry, Map<string, ResourceShape>>();

/** The model's shape in this registry (which decides the exposed relationships), built once. */
export function resourceShape(registry: ModelRegistry, model: ModelMeta): ResourceShape {
  let byModel = shapes.get(registry);
  if (!byModel) shapes.set(registry, (byModel = new Map()));
  let shape = byModel.get(model.name);
  if (!shape) byModel.set(model.name, (shape = buildShape(registry, model)));
  return shape;
}

function buildShape(registry: ModelRegistry, model: ModelMeta): ResourceShape {
  return {
    model,
    type: toTypeName(model.name),
    attributes: attributeFields(registry, model).map((field) => ({ name: field.name, encode: attributeEncoder(field) })),
    relationships: relationshipFields(registry, model).map((field) => relationshipSlot(registry, field)),
  };
}

function relationshipSlot(registry: ModelRegistry, field: FieldMeta): RelationshipSlot {
  const related = registry.findByModelName(field.type)!;
  let relatedShape: ResourceShape | undefined;
  return {
    name: field.name,
    isList: field.isList,
    related,
    foreignKeys: field.isList ? undefined : foreignKeyForIds(field, related),
    relatedShape: () => (relatedShape ??= resourceShape(registry, related)),
  };
}
