import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import type { ModelRegistry } from '../metadata/model-registry.js';
import type { PolicyInspector } from '../policies/with-policies.js';
import {
  type ModelFieldModes,
  NO_FIELD_MODES,
  virtualField,
  type WriteAccess,
  writeAccess,
} from '../rules/field-modes.js';
import { attributeFields, relationshipFields } from './serialize/resource-members.js';

const NONE: ReadonlySet<string> = new Set();

/** A member a write may give, or `'server-set'` for one the server sets (undefined: unknown to the caller). */
export type WritableMember = FieldMeta | 'server-set' | undefined;

/**
 * The fields one caller can name in a request: the exposed ones less those the caller's access
 * policies hide. Parsers look fields up here only, so a hidden field is answered exactly like a
 * field that does not exist and a client cannot tell the two apart. Writes follow the field modes
 * of the rules instead: write-only columns and virtual fields are given, server-set ones refused.
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
    return this.visible(model, this.attributeField(model, name));
  }

  /** A field rendered as a relationship. */
  relationship(model: ModelMeta, name: string): FieldMeta | undefined {
    return this.visible(model, this.relationshipField(model, name));
  }

  /** Whether the caller's writes run the write rules, which report the values of a wrong type with their other issues. */
  get reportsInvalidValues(): boolean {
    return this.policies?.reportsInvalidValues === true;
  }

  /** How the caller may use the model's fields, by the rules. */
  modes(model: ModelMeta): ModelFieldModes {
    return this.policies?.fieldModes(model.name) ?? NO_FIELD_MODES;
  }

  /** How the caller may give a column or relation of the model in a write. */
  writeAccess(model: ModelMeta, name: string): WriteAccess {
    return writeAccess(this.modes(model), this.policies?.hiddenFields(model.name) ?? NONE, name);
  }

  /** An attribute a create or update may give: a writable or write-only column, or a virtual field. */
  writeAttribute(model: ModelMeta, name: string): WritableMember {
    const field = this.attributeField(model, name);
    return field ? this.writable(model, field) : virtualField(this.modes(model), name);
  }

  /** A relationship a create or update may give. */
  writeRelationship(model: ModelMeta, name: string): WritableMember {
    const field = this.relationshipField(model, name);
    return field && this.writable(model, field);
  }

  private attributeField(model: ModelMeta, name: string): FieldMeta | undefined {
    return attributeFields(this.registry, model).find((field) => field.name === name);
  }

  private relationshipField(model: ModelMeta, name: string): FieldMeta | undefined {
    return relationshipFields(this.registry, model).find((field) => field.name === name);
  }

  private writable(model: ModelMeta, field: FieldMeta): WritableMember {
    const access = this.writeAccess(model, field.name);
    return access === 'writable' ? field : access === 'server-set' ? access : undefined;
  }

  private visible(model: ModelMeta, field: FieldMeta | undefined): FieldMeta | undefined {
    return field && this.policies?.hiddenFields(model.name).has(field.name) ? undefined : field;
  }
}
