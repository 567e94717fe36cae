import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';
import { JSON_API_VERSION } from '../json-api.constants.js';
import type { Fieldsets } from '../query/parse-fields.js';
import type { IncludeTree } from '../query/parse-include.js';
import { formatIdParts, formatResourceId } from '../resource-id.js';
import { defineMember, pickAttributes } from './attributes-builder.js';
import {
  pickRelationships,
  type RelatedRenderer,
  type RelationshipObject,
  type ResourceIdentifier,
  toOneLinkage,
} from './relationships-builder.js';
import { relationshipLinks, resourceUrl } from './resource-links.js';
import { type RelationshipSlot, type ResourceShape, resourceShape } from './resource-shape.js';

type Row = Record<string, unknown>;

export type { RelationshipObject, ResourceIdentifier } from './relationships-builder.js';

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

/** Resources by type and id: ids of one type are all numbers or all strings, and a number hashes fastest. */
class ResourceIndex<T> {
  private readonly byType = new Map<string, Map<string | number, T>>();

  get(identifier: ResourceIdentifier): T | undefined {
    return this.byType.get(identifier.type)?.get(identifier.id);
  }

  set(identifier: ResourceIdentifier, value: T): void {
    let ids = this.byType.get(identifier.type);
    if (!ids) this.byType.set(identifier.type, (ids = new Map()));
    ids.set(identifier.id, value);
  }
}

/**
 * Turns rows loaded with `buildSelection` into resource objects and collects the included resources
 * of a compound document, each once and never one that is primary data.
 */
export class CompoundDocument implements RelatedRenderer {
  /** Included resources in the order they were met, and the same by identifier. */
  private readonly included: ResourceObject[] = [];
  private readonly includedAt = new ResourceIndex<number>();
  private readonly primary = new ResourceIndex<true>();

  constructor(private readonly context: SerializeContext) {}

  identifier(model: ModelMeta, row: Row): ResourceIdentifier {
    return {
      type: resourceShape(this.context.registry, model).type,
      id: formatResourceId(model, row, this.context.idDivider),
    };
  }

  /** A resource object of primary data. */
  primaryResource(model: ModelMeta, row: Row, include: IncludeTree): ResourceObject {
    const resource = this.resource(resourceShape(this.context.registry, model), row, include);
    // Only `included` is checked against primary data, and without `include` there is none.
    if (include.size) this.primary.set(resource, true);
    return resource;
  }

  /** `included`, each resource once, primary data left out. */
  includedResources(): ResourceObject[] {
    return this.included.filter((resource) => !this.primary.get(resource));
  }

  /** The top-level document; `included` is present whenever `include` was requested. */
  document(
    data: unknown,
    links: Record<string, unknown>,
    include: IncludeTree,
    meta?: Record<string, unknown>,
  ): object {
    return {
      jsonapi: { version: JSON_API_VERSION },
      links,
      data,
      ...(meta ? { meta } : {}),
      ...(include.size ? { included: this.includedResources() } : {}),
    };
  }

  private resource(shape: ResourceShape, row: Row, include: IncludeTree): ResourceObject {
    const { endpoint, fieldsets, idDivider } = this.context;
    const id = formatResourceId(shape.model, row, idDivider);
    const self = resourceUrl(endpoint, shape.type, id);
    const fieldset = fieldsets.get(shape.type);
    // A field left out of the select (hidden by an access policy) is not rendered.
    const attributes = fieldset ? pickAttributes(shape.attributes, row, fieldset) : shape.allAttributes(row);
    const relationships = fieldset
      ? pickRelationships(shape.relationships, this, self, row, include, fieldset)
      : shape.allRelationships(this, self, row, include);
    return { type: shape.type, id, attributes, relationships, links: { self } };
  }

  /** A to-one relationship: linkage from the loaded related row, or else from this row's foreign key. */
  toOne(self: string, slot: RelationshipSlot, row: Row, nested: IncludeTree | undefined): RelationshipObject {
    const loaded = row[slot.name] as Row | null | undefined;
    // Not loaded and no foreign key here (a read as of a past time): links only, no linkage to guess.
    if (loaded === undefined && !slot.foreignKeys) return { links: relationshipLinks(self, slot.name) };
    if (!loaded) return toOneLinkage(self, slot, loaded === undefined ? this.foreignKeyId(slot, row) : null);
    if (nested) this.addIncluded(slot.relatedShape(), loaded, nested);
    return toOneLinkage(self, slot, formatResourceId(slot.related, loaded, this.context.idDivider));
  }

  /** The related resource's id from this row's foreign key: a single field's value as stored, null where a part is missing. */
  private foreignKeyId(slot: RelationshipSlot, row: Row): unknown {
    const keys = slot.foreignKeys;
    // The common case, once per to-one relationship of every resource: no arrays.
    if (keys?.length === 1) return row[keys[0]!];
    const values = keys?.map((key) => row[key]);
    if (!values || values.some((value) => value === null || value === undefined)) return null;
    return formatIdParts(values, this.context.idDivider);
  }

  /** A to-many relationship: links, and the linkage of the loaded rows when included. */
  toMany(
    self: string,
    slot: RelationshipSlot,
    rows: Row[] | undefined,
    nested: IncludeTree | undefined,
  ): RelationshipObject {
    const links = relationshipLinks(self, slot.name);
    if (!nested || !rows) return { links };
    const shape = slot.relatedShape();
    return { data: rows.map((relatedRow) => this.addIncluded(shape, relatedRow, nested)), links };
  }

  /**
   * Adds a resource to `included` and returns its identifier. A resource reached again (a tag of
   * many posts) is rendered again only when it has includes of its own, whose linkage is merged.
   */
  private addIncluded(shape: ResourceShape, row: Row, include: IncludeTree): ResourceIdentifier {
    const identifier = { type: shape.type, id: formatResourceId(shape.model, row, this.context.idDivider) };
    const position = this.includedAt.get(identifier);
    if (position === undefined) {
      const resource = this.resource(shape, row, include);
      // Its own includes may have reached it again (a cycle): then this fuller rendering takes that place.
      const reached = this.includedAt.get(identifier);
      if (reached === undefined) this.includedAt.set(identifier, this.included.push(resource) - 1);
      else this.included[reached] = resource;
    } else if (include.size) {
      const existing = this.included[position]!;
      for (const [name, relationship] of Object.entries(this.resource(shape, row, include).relationships)) {
        if (relationship.data !== undefined && existing.relationships[name]?.data === undefined)
          defineMember(existing.relationships, name, relationship);
      }
    }
    return identifier;
  }
}
