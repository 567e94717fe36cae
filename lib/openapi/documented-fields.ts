import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import type { ModelRegistry } from '../metadata/model-registry.js';
import type { CrudApiPolicies, DefaultPolicy } from '../policies/policy.types.js';
import { DEFAULT_POLICY } from '../policies/policy-set.js';
import { attributeFields, relationshipFields } from '../rest/serialize/resource-members.js';

/**
 * The fields of the exposed models that the documents show: every field a client can see, less
 * those an access policy hides from every caller (`fields.read: { f: false }`). A field hidden by a
 * function of the context exists for some callers, so it is documented (every attribute is optional).
 */
export class DocumentedFields {
  constructor(
    readonly registry: ModelRegistry,
    private readonly policies: CrudApiPolicies | undefined,
    private readonly defaultPolicy: DefaultPolicy = DEFAULT_POLICY,
  ) {}

  /**
   * The field as answers give it: under access policies, a foreign key to a model not every caller
   * reads in full answers null when the caller cannot read the related row.
   */
  answered(model: ModelMeta, field: FieldMeta): FieldMeta {
    if (!this.policies || field.isOptional || !field.isForeignKey) return field;
    const mayHide = Object.values(model.fields).some(
      (relation) => relation.relation?.fields.includes(field.name) && !this.readsEveryRow(relation.relation.model),
    );
    return mayHide ? { ...field, isOptional: true } : field;
  }

  private readsEveryRow(model: string): boolean {
    const rule: unknown = this.policies?.[model]?.read;
    return rule === true || (rule === undefined && this.defaultPolicy === 'allow');
  }

  /** Scalar, enum and relation fields (ids included): the RPC interface's view. */
  all(model: ModelMeta): FieldMeta[] {
    return this.registry.fieldsOf(model).filter((field) => this.shown(model, field));
  }

  /** REST attributes (never `id` or `type`). */
  attributes(model: ModelMeta): FieldMeta[] {
    return attributeFields(this.registry, model).filter((field) => this.shown(model, field));
  }

  /** REST relationships. */
  relationships(model: ModelMeta): FieldMeta[] {
    return relationshipFields(this.registry, model).filter((field) => this.shown(model, field));
  }

  related(field: FieldMeta): ModelMeta {
    return this.registry.findByModelName(field.type)!;
  }

  private shown(model: ModelMeta, field: FieldMeta): boolean {
    const rule: unknown = this.policies?.[model.name]?.fields?.read?.[field.name];
    return rule === undefined || rule === true || typeof rule === 'function';
  }
}
