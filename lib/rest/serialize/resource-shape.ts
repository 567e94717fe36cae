import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { type ModelRegistry, toTypeName } from '../../metadata/model-registry.js';
import { attributeEncoder, encodesVerbatim } from '../attribute-codec.js';
import { type AttributesBuilder, type AttributeSlot, compileAttributesBuilder } from './attributes-builder.js';
import {
  compileRelationshipsBuilder,
  type RelationshipsBuilder,
  type RelationshipSlotOf,
} from './relationships-builder.js';
import { attributeFields, foreignKeyForIds, relationshipFields } from './resource-members.js';

/** A relationship of a model with its related model's shape. */
export type RelationshipSlot = RelationshipSlotOf<ResourceShape>;

/**
 * Everything about a model that rendering one of its resource objects needs and that does not
 * depend on the row: worked out once per model, not once per rendered resource.
 */
export interface ResourceShape {
  readonly model: ModelMeta;
  readonly type: string;
  readonly attributes: readonly AttributeSlot[];
  /** Every attribute of a row at once (no sparse fieldset). */
  readonly allAttributes: AttributesBuilder;
  readonly relationships: readonly RelationshipSlot[];
  /** Every relationship of a row at once (no sparse fieldset). */
  readonly allRelationships: RelationshipsBuilder;
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
  const attributes = attributeFields(registry, model).map((field): AttributeSlot => {
    const encode = attributeEncoder(field);
    return { name: field.name, encode, verbatim: encodesVerbatim(encode) };
  });
  const relationships = relationshipFields(registry, model).map((field) => relationshipSlot(registry, field));
  return {
    model,
    type: toTypeName(model.name),
    attributes,
    allAttributes: compileAttributesBuilder(attributes),
    relationships,
    allRelationships: compileRelationshipsBuilder(relationships),
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
