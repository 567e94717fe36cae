import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import type { ModelRegistry } from '../metadata/model-registry.js';
import type { PolicyInspector } from '../policies/with-policies.js';
import { attributeFields, relationshipFields } from './serialize/resource-members.js';

/**
 * The fields one caller can name in a request: the exposed ones less those the caller's access
 * policies hide. Parsers look fields up here only, so a hidden field is answered exactly like a
 * field that does not exist and a client cannot tell the two apart.
 */
export class VisibleFields {
  constructor(
    readonly registry: ModelRegistry,
    private readonly policies?: PolicyInspector,
  ) {}

  /** Any field (scalar or relation) by name: filters, sort and include paths. */
  field(model: ModelMeta, name: string): FieldMeta | undefined {
    return this.visible(model, this.registry.findField(model, name));
  }

  /** A field rendered as an attribute (never `id` or `type`). */
  attribute(model: ModelMeta, name: string): FieldMeta | undefined {
    return this.visible(
      model,
      attributeFields(this.registry, model).find((field) => field.name === name),
    );
  }

  /** A field rendered as a relationship. */
  relationship(model: ModelMeta, name: string): FieldMeta | undefined {
    return this.visible(
      model,
      relationshipFields(this.registry, model).find((field) => field.name === name),
    );
  }

  private visible(model: ModelMeta, field: FieldMeta | undefined): FieldMeta | undefined {
    return field && this.policies?.hiddenFields(model.name).has(field.name) ? undefined : field;
  }
}
