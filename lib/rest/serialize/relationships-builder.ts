import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { IncludeTree } from '../query/parse-include.js';
import { formatIdValue } from '../resource-id.js';
import { defineMember } from './attributes-builder.js';
import { relationshipLinks } from './resource-links.js';

type Row = Record<string, unknown>;

export interface ResourceIdentifier {
  type: string;
  id: string | number;
}

export interface RelationshipObject {
  data?: ResourceIdentifier | ResourceIdentifier[] | null;
  links: { self: string; related: string };
}

/** A relationship, its related model, and the local foreign key that names the related resource, if any. */
export interface RelationshipSlotOf<Shape extends { readonly type: string } = { readonly type: string }> {
  readonly name: string;
  readonly isList: boolean;
  readonly related: ModelMeta;
  readonly foreignKeys?: readonly string[];
  /** The related model's shape, looked up on first use (relations may be cyclic). */
  readonly relatedShape: () => Shape;
}

/** Renders a relationship whose related rows were loaded (included, or linkage read through the relation): `CompoundDocument`. */
export interface RelatedRenderer {
  toOne(self: string, slot: RelationshipSlotOf, row: Row, nested: IncludeTree | undefined): RelationshipObject;
  toMany(
    self: string,
    slot: RelationshipSlotOf,
    rows: Row[] | undefined,
    nested: IncludeTree | undefined,
  ): RelationshipObject;
}

/** A resource's `relationships` member from its row, every relationship rendered. */
export type RelationshipsBuilder = (
  renderer: RelatedRenderer,
  self: string,
  row: Row,
  include: IncludeTree,
) => Record<string, RelationshipObject>;

/** A to-one relationship object for the related resource's id (a foreign key's value, or a formatted id); none when null or undefined. */
export function toOneLinkage(self: string, slot: RelationshipSlotOf, relatedId: unknown): RelationshipObject {
  if (relatedId === null || relatedId === undefined) return { data: null, links: relationshipLinks(self, slot.name) };
  const id = formatIdValue(relatedId);
  return { data: { type: slot.relatedShape().type, id }, links: relationshipLinks(self, slot.name, id) };
}

/** The slot's one foreign key, when linkage can come from it without the relation being loaded. */
function singleForeignKey(slot: RelationshipSlotOf): string | undefined {
  return slot.foreignKeys?.length === 1 ? slot.foreignKeys[0] : undefined;
}

/**
 * The relationships one at a time, keeping only `fieldset`'s members when given. An included
 * relationship outside the fieldset still contributes its resources to `included`.
 */
export function pickRelationships(
  slots: readonly RelationshipSlotOf[],
  renderer: RelatedRenderer,
  self: string,
  row: Row,
  include: IncludeTree,
  fieldset?: ReadonlySet<string>,
): Record<string, RelationshipObject> {
  const relationships: Record<string, RelationshipObject> = {};
  for (const slot of slots) {
    const nested = include.get(slot.name);
    const wanted = !fieldset || fieldset.has(slot.name);
    if (!wanted && !nested) continue;
    const relationship = slot.isList
      ? renderer.toMany(self, slot, row[slot.name] as Row[] | undefined, nested)
      : renderer.toOne(self, slot, row, nested);
    if (wanted) defineMember(relationships, slot.name, relationship);
  }
  return relationships;
}

/**
 * The model's `relationships` as one object literal, compiled once per model, for the same reason
 * as `compileAttributesBuilder`: one hidden class and named loads and stores instead of keyed ones
 * per relationship of every resource. A relationship that is not included renders inline: links
 * only (to-many) or linkage from the foreign key (to-one, when the row did not load the relation);
 * everything else goes to the renderer as in `pickRelationships`. Names are JSON string literals.
 */
export function compileRelationshipsBuilder(slots: readonly RelationshipSlotOf[]): RelationshipsBuilder {
  const members = slots.map((slot, index) => {
    const key = JSON.stringify(slot.name);
    const member = slot.name === '__proto__' ? `[${key}]` : key;
    const nested = `(nested = include.get(${key})) === undefined`;
    if (slot.isList)
      return `${member}: ${nested} ? { links: links(self, ${key}) } : renderer.toMany(self, slots[${index}], row[${key}], nested)`;
    const foreignKey = singleForeignKey(slot);
    if (foreignKey === undefined) return `${member}: renderer.toOne(self, slots[${index}], row, include.get(${key}))`;
    return `${member}: ${nested} && row[${key}] === undefined ? linkage(self, slots[${index}], row[${JSON.stringify(foreignKey)}]) : renderer.toOne(self, slots[${index}], row, nested)`;
  });
  const source = `return function relationships(renderer, self, row, include) {\n  let nested;\n  return {\n    ${members.join(',\n    ')}\n  };\n};`;
  try {
    return new Function('slots', 'linkage', 'links', source)(
      slots,
      toOneLinkage,
      relationshipLinks,
    ) as RelationshipsBuilder;
  } catch {
    return (renderer, self, row, include) => pickRelationships(slots, renderer, self, row, include);
  }
}
