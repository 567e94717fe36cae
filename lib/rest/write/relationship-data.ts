import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { toTypeName } from '../../metadata/model-registry.js';
import { type IdValues, tryParseResourceId, uniqueWhere } from '../resource-id.js';
import { foreignKeyForIds } from '../serialize/resource-members.js';
import type { VisibleFields } from '../visible-fields.js';
import { DOCUMENT_MEMBERS, isObject, serverSetMember } from './document-members.js';

export interface WriteScope {
  /**
   * The fields the caller can name: a hidden one is an unknown attribute.
   * @internal The module's parsers read it; subclasses pass the scope on as they got it.
   */
  fields: VisibleFields;
  idDivider: string;
  /** `limits.maxJsonDepth`. */
  maxJsonDepth: number;
}

/** Related resources a write refers to; they must exist (404 otherwise). */
export interface RelatedReference {
  model: ModelMeta;
  ids: IdValues[];
  pointer: string;
}

/** How relationship linkage changes the stored relation. */
export type LinkageChange = 'create' | 'replace' | 'add' | 'remove';

/** What a relationship route or operation does to the linkage: add members, replace it, remove members. */
export type RelationshipChange = Exclude<LinkageChange, 'create'>;

/** One relationship's linkage in a request, parsed: what it asks for, as Prisma data. */
export interface RelationshipWrite<Change extends LinkageChange = RelationshipChange> {
  field: FieldMeta;
  change: Change;
  /** The related resources' ids; `null` empties a to-one relationship. */
  ids: IdValues[] | null;
  /** Prisma (unchecked) data of the change. */
  data: Record<string, unknown>;
  /** The related resources named, which must exist (404 otherwise). */
  references: RelatedReference[];
}

function invalid(message: string, pointer: string): CrudApiError {
  return new CrudApiError('invalid-payload', message, { source: { pointer } });
}

/** One resource identifier `{ type, id }` of the related model; a malformed id names no resource (404). */
function parseIdentifier(related: ModelMeta, value: unknown, divider: string, pointer: string): IdValues {
  const type = toTypeName(related.name);
  if (
    !isObject(value) ||
    typeof value.type !== 'string' ||
    (typeof value.id !== 'string' && typeof value.id !== 'number')
  ) {
    throw invalid('A resource identifier needs "type" and "id".', pointer);
  }
  const unknown = Object.keys(value).find((member) => !DOCUMENT_MEMBERS.identifier.has(member));
  if (unknown !== undefined) {
    throw invalid(
      `A resource identifier may not have the member ${quoteInput(unknown)}; allowed: type, id, lid, meta.`,
      pointer,
    );
  }
  if (value.type !== type)
    throw invalid(
      `Expected a resource identifier of type "${type}", got ${quoteInput(value.type)}.`,
      `${pointer}/type`,
    );
  const ids = tryParseResourceId(related, value.id, divider);
  if (!ids)
    throw new CrudApiError('not-found', `No ${type} with id ${quoteInput(value.id)}.`, {
      source: { pointer: `${pointer}/id` },
    });
  return ids;
}

/**
 * The linkage of a relationship object's `data`: the identifiers of a to-many relationship, or one
 * identifier or `null` for a to-one.
 */
export function parseLinkage(scope: WriteScope, field: FieldMeta, data: unknown, pointer: string): IdValues[] | null {
  const related = scope.fields.registry.findByModelName(field.type)!;
  if (field.isList) {
    if (!Array.isArray(data))
      throw invalid(`"${field.name}" is to-many: data must be an array of resource identifiers.`, pointer);
    return data.map((item, index) => parseIdentifier(related, item, scope.idDivider, `${pointer}/${index}`));
  }
  if (data === null) return null;
  if (Array.isArray(data))
    throw invalid(`"${field.name}" is to-one: data must be a resource identifier or null.`, pointer);
  return [parseIdentifier(related, data, scope.idDivider, pointer)];
}

/**
 * Prisma (unchecked) data for a relationship change. A to-one relationship whose foreign key is on
 * this side writes the key fields, so the data never mixes scalar keys with `connect`.
 */
export function relationshipData(
  scope: WriteScope,
  field: FieldMeta,
  ids: IdValues[] | null,
  change: LinkageChange,
  pointer: string,
): Record<string, unknown> {
  const related = scope.fields.registry.findByModelName(field.type)!;
  const selectors = (ids ?? []).map((values) => uniqueWhere(related, values));
  if (field.isList) {
    const operation = { create: 'connect', replace: 'set', add: 'connect', remove: 'disconnect' }[change];
    return { [field.name]: { [operation]: selectors } };
  }
  const keys = foreignKeyForIds(field, related);
  if (keys) {
    if (!ids && !field.isOptional) throw invalid(`"${field.name}" is required and cannot be null.`, pointer);
    return Object.fromEntries(keys.map((key, index) => [key, ids ? ids[0]![related.idFields[index]!] : null]));
  }
  if (ids) return { [field.name]: { connect: selectors[0] } };
  if (change === 'create') return {};
  const opposite = related.fields[field.relation?.oppositeField ?? ''];
  if (opposite && !opposite.isOptional) {
    throw invalid(
      `"${field.name}" cannot be emptied: every ${toTypeName(related.name)} needs its "${opposite.name}".`,
      pointer,
    );
  }
  return { [field.name]: { disconnect: true } };
}

/**
 * The relationship a relationship route or operation changes, unless the server sets it (its
 * foreign key is server-set): 400, at `pointer` where the request names it.
 */
export function writableRelationship(
  scope: WriteScope,
  model: ModelMeta,
  field: FieldMeta,
  pointer?: string,
): FieldMeta {
  if (scope.fields.writeAccess(model, field.name) === 'server-set')
    throw serverSetMember('Relationship', field.name, pointer);
  return field;
}

/** A relationship's linkage (`data` of a relationship object, at `pointer`) parsed into a change of it. */
export function parseRelationshipWrite<Change extends LinkageChange>(
  scope: WriteScope,
  field: FieldMeta,
  change: Change,
  linkage: unknown,
  pointer: string,
): RelationshipWrite<Change> {
  const ids = parseLinkage(scope, field, linkage, pointer);
  const data = relationshipData(scope, field, ids, change, pointer);
  const related = scope.fields.registry.findByModelName(field.type)!;
  return { field, change, ids, data, references: ids?.length ? [{ model: related, ids, pointer }] : [] };
}
