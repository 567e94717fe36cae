import { historyModels } from '../history/history-writer.js';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import type { ModelRegistry } from '../metadata/model-registry.js';
import type { CrudApiPolicies, DefaultPolicy } from '../policies/policy.types.js';
import { DEFAULT_POLICY } from '../policies/policy-set.js';
import { attributeFields, relationshipFields } from '../rest/serialize/resource-members.js';
import { fieldModes, type ModelFieldModes, virtualFieldMeta, writeAccess } from '../rules/field-modes.js';
import type { CrudApiRules } from '../rules/rules.types.js';
import { softDeletedModels } from '../rules/soft-deleted-models.js';
import { jsonSchemaOf } from '../rules/validate-schema.js';
import type { JsonSchema } from './openapi.types.js';

/**
 * The fields of the exposed models that the documents show: every field a client can see, less
 * those an access policy hides from every caller (`fields.read: { f: false }`) and those the rules
 * keep out of answers (write-only, internal). A field hidden by a function of the context exists
 * for some callers, so it is documented (every attribute is optional). Request data follows the
 * field modes: write-only and virtual fields are given, server-set and internal ones are not.
 */
export class DocumentedFields {
  constructor(
    readonly registry: ModelRegistry,
    private readonly policies: CrudApiPolicies | undefined,
    private readonly defaultPolicy: DefaultPolicy = DEFAULT_POLICY,
    private readonly rules?: CrudApiRules,
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

  /** The fields RPC write data may give: writable columns and relations, write-only columns, virtual fields. */
  writableFields(model: ModelMeta): FieldMeta[] {
    return [...this.registry.fieldsOf(model).filter((field) => this.writes(model, field)), ...this.virtual(model)];
  }

  /**
   * Relations an RPC update may give for a nested `update` only: those through a server-set foreign
   * key (the related row changes, the key does not).
   */
  updateOnlyRelations(model: ModelMeta): FieldMeta[] {
    return this.registry
      .fieldsOf(model)
      .filter(
        (field) => field.relation && writeAccess(this.modes(model), this.hidden(model), field.name) === 'server-set',
      );
  }

  /** The attributes a REST create or update may give. */
  writableAttributes(model: ModelMeta): FieldMeta[] {
    return [
      ...attributeFields(this.registry, model).filter((field) => this.writes(model, field)),
      ...this.virtual(model),
    ];
  }

  /** The relationships a REST create or update may give (not those through a server-set foreign key). */
  writableRelationships(model: ModelMeta): FieldMeta[] {
    return relationshipFields(this.registry, model).filter((field) => this.writes(model, field));
  }

  /** Whether the caller may give the field in a write (a relationship route changes it). */
  writes(model: ModelMeta, field: FieldMeta): boolean {
    return writeAccess(this.modes(model), this.hidden(model), field.name) === 'writable';
  }

  /**
   * What a request schema adds to the value schema of a field a write gives: `writeOnly` for the
   * fields answers never show (write-only and virtual ones), and the constraints of the model's
   * validator for this kind of write, where the validator describes itself as JSON Schema.
   */
  requestExtras(model: ModelMeta, field: FieldMeta, kind: 'create' | 'update'): JsonSchema {
    const writeOnly = this.modes(model).unreadable.has(field.name) || this.isVirtual(model, field);
    const validator =
      this.rules && Object.hasOwn(this.rules, model.name) ? this.rules[model.name]!.validate?.[kind] : undefined;
    const constraints = validator && jsonSchemaOf(validator, kind)?.properties[field.name];
    return { ...(writeOnly ? { writeOnly: true } : {}), ...(constraints ? { allOf: [constraints] } : {}) };
  }

  /** Whether the field exists on the wire only (a virtual field of the rules). */
  isVirtual(model: ModelMeta, field: FieldMeta): boolean {
    return this.modes(model).virtual.has(field.name);
  }

  /** Whether the model is soft-deleted (`rules: { Post: { softDelete } }`): deletes mark its rows, which can come back. */
  /** Whether the model's rules record its history (`history: true`). */
  recordsHistory(model: ModelMeta): boolean {
    return historyModels(this.rules).has(model.name);
  }

  softDeleted(model: ModelMeta): boolean {
    return softDeletedModels(this.rules).has(model.name);
  }

  /** Whether the application soft-deletes any model: reads then take `withDeleted`. */
  get softDeletes(): boolean {
    return softDeletedModels(this.rules).size > 0;
  }

  related(field: FieldMeta): ModelMeta {
    return this.registry.findByModelName(field.type)!;
  }

  private modes(model: ModelMeta): ModelFieldModes {
    return fieldModes(this.rules, model);
  }

  private virtual(model: ModelMeta): FieldMeta[] {
    return [...this.modes(model).virtual].map(([name, field]) => virtualFieldMeta(name, field));
  }

  /** Fields hidden from every caller: by a policy's `false`, or by the rules (write-only, internal). */
  private hidden(model: ModelMeta): ReadonlySet<string> {
    const read = this.policies?.[model.name]?.fields?.read ?? {};
    const denied = Object.keys(read).filter((name) => read[name] === false);
    return new Set([...denied, ...this.modes(model).unreadable]);
  }

  private shown(model: ModelMeta, field: FieldMeta): boolean {
    return !this.hidden(model).has(field.name);
  }
}
