import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { type ModelRegistry, toTypeName } from '../../metadata/model-registry.js';
import { encodeAttribute } from '../attribute-codec.js';
import { JSON_API_VERSION } from '../json-api.constants.js';
import type { Fieldsets } from '../query/parse-fields.js';
import type { IncludeTree } from '../query/parse-include.js';
import { formatResourceId } from '../resource-id.js';
import { relationshipLinks, resourceUrl } from './resource-links.js';
import { attributeFields, foreignKeyForIds, relationshipFields } from './resource-members.js';

type Row = Record<string, unknown>;

export interface ResourceIdentifier {
  type: string;
  id: string | number;
}

export interface RelationshipObject {
  data?: ResourceIdentifier | ResourceIdentifier[] | null;
  links: { self: string; related: string };
}

export interface ResourceObject extends ResourceIdentifier {
  attributes: Record<string, unknown>;
  relationships: Record<string, RelationshipObject>;
  links: { self: string };
}

export interface SerializeContext {
  registry: ModelRegistry;
  endpoint: string;
  idDivider: string;
  fieldsets: Fieldsets;
}

const keyOf = (identifier: ResourceIdentifier) => `${identifier.type}\u0000${identifier.id}`;

/**
 * Turns rows loaded with `buildSelect` into resource objects and collects the included resources
 * of a compound document, each once and never one that is primary data.
 */
export class CompoundDocument {
  private readonly included = new Map<string, ResourceObject>();
  private readonly primary = new Set<string>();

  constructor(private readonly context: SerializeContext) {}

  identifier(model: ModelMeta, row: Row): ResourceIdentifier {
    return { type: toTypeName(model.name), id: formatResourceId(model, row, this.context.idDivider) };
  }

  /** A resource object of primary data. */
  primaryResource(model: ModelMeta, row: Row, include: IncludeTree): ResourceObject {
    const resource = this.resource(model, row, include);
    this.primary.add(keyOf(resource));
    return resource;
  }

  /** `included`, each resource once, primary data left out. */
  includedResources(): ResourceObject[] {
    return [...this.included.entries()].filter(([key]) => !this.primary.has(key)).map(([, resource]) => resource);
  }

  /** The top-level document; `included` is present whenever `include` was requested. */
  document(data: unknown, links: Record<string, unknown>, include: IncludeTree, meta?: Record<string, unknown>): object {
    return {
      jsonapi: { version: JSON_API_VERSION },
      links,
      data,
      ...(meta ? { meta } : {}),
      ...(include.size ? { included: this.includedResources() } : {}),
    };
  }

  private resource(model: ModelMeta, row: Row, include: IncludeTree): ResourceObject {
    const { registry, endpoint, fieldsets } = this.context;
    const { type, id } = this.identifier(model, row);
    const self = resourceUrl(endpoint, type, id);
    const fieldset = fieldsets.get(type);
    const wanted = (name: string) => !fieldset || fieldset.has(name);
    const attributes: Record<string, unknown> = {};
    for (const field of attributeFields(registry, model)) {
      // A field left out of the select (hidden by an access policy) is not rendered.
      if (wanted(field.name) && field.name in row) attributes[field.name] = encodeAttribute(field, row[field.name], registry.meta.enums);
    }
    const relationships: Record<string, RelationshipObject> = {};
    for (const field of relationshipFields(registry, model)) {
      const related = registry.findByModelName(field.type)!;
      const nested = include.get(field.name);
      const relationship = field.isList
        ? this.toMany(self, field.name, related, row[field.name] as Row[] | undefined, nested)
        : this.toOne(self, field.name, related, this.toOneRow(field, row, related), nested);
      if (wanted(field.name)) relationships[field.name] = relationship;
    }
    return { type, id, attributes, relationships, links: { self } };
  }

  /** The related row (or its id fields) of a to-one relationship: loaded, or read from the foreign key. */
  private toOneRow(field: FieldMeta, row: Row, related: ModelMeta): Row | null {
    const loaded = row[field.name];
    if (loaded !== undefined) return loaded as Row | null;
    const keys = foreignKeyForIds(field, related) ?? [];
    const values = keys.map((key) => row[key]);
    if (!keys.length || values.some((value) => value === null || value === undefined)) return null;
    return Object.fromEntries(related.idFields.map((idField, index) => [idField, values[index]]));
  }

  private toOne(self: string, name: string, related: ModelMeta, relatedRow: Row | null, nested: IncludeTree | undefined): RelationshipObject {
    if (!relatedRow) return { data: null, links: relationshipLinks(self, name) };
    const identifier = this.identifier(related, relatedRow);
    if (nested) this.addIncluded(related, relatedRow, nested);
    return { data: identifier, links: relationshipLinks(self, name, identifier.id) };
  }

  private toMany(self: string, name: string, related: ModelMeta, rows: Row[] | undefined, nested: IncludeTree | undefined): RelationshipObject {
    const links = relationshipLinks(self, name);
    if (!nested || !rows) return { links };
    for (const relatedRow of rows) this.addIncluded(related, relatedRow, nested);
    return { data: rows.map((relatedRow) => this.identifier(related, relatedRow)), links };
  }

  /** Adds a resource to `included`; one reached again by another path keeps the linkage both paths loaded. */
  private addIncluded(model: ModelMeta, row: Row, include: IncludeTree): void {
    const resource = this.resource(model, row, include);
    const key = keyOf(resource);
    const existing = this.included.get(key);
    if (!existing) {
      this.included.set(key, resource);
      return;
    }
    for (const [name, relationship] of Object.entries(resource.relationships)) {
      if (relationship.data !== undefined && existing.relationships[name]?.data === undefined) existing.relationships[name] = relationship;
    }
  }
}
