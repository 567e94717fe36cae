import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { toTypeName } from '../../metadata/model-registry.js';
import { InvalidValue, throwInvalidValues } from '../../rules/invalid-value.js';
import { assertJsonDepth } from '../../shared/json-depth.js';
import { jsonPointer } from '../../shared/json-pointer.js';
import { findPrototypeKey } from '../../shared/prototype-keys.js';
import { attributeValue } from '../attribute-codec.js';
import { formatResourceId, type IdValues, tryParseResourceId } from '../resource-id.js';
import { assertDocumentObject, invalidMember, serverSetMember } from './document-members.js';
import { parseRelationshipWrite, type RelatedReference, type WriteScope } from './relationship-data.js';

/** What a create or update document asks for, as Prisma data. */
export interface ResourceWrite {
  data: Record<string, unknown>;
  references: RelatedReference[];
  /** The client-generated id of a create, which must not exist yet. */
  clientId?: IdValues;
}

/**
 * The request document's `data`, or 400: the body is checked whole first (depth, prototype keys)
 * so nothing below, nor Prisma, sees a body nested too deep or a key that could reach a prototype.
 */
export function documentData(
  scope: Pick<WriteScope, 'maxJsonDepth'>,
  body: unknown,
): Record<string, unknown> | unknown[] | null {
  assertJsonDepth(body, scope.maxJsonDepth);
  const prototypePath = findPrototypeKey(body);
  if (prototypePath)
    throw invalidMember(`The key ${quoteInput(prototypePath.at(-1))} is not allowed in a request body.`, prototypePath);
  assertDocumentObject(body, 'document', 'The request body', []);
  if (!('data' in body)) throw invalidMember('The request body must be a JSON:API document with "data".', []);
  if (body.included !== undefined) {
    if (!Array.isArray(body.included))
      throw invalidMember('"included" must be an array of resource objects.', ['included']);
    body.included.forEach((resource, index) =>
      assertDocumentObject(resource, 'resource', 'An included resource', ['included', index]),
    );
  }
  return body.data as Record<string, unknown> | unknown[] | null;
}

/** The resource object of a create (`id` undefined) or update (`id` from the URL) request. */
function resourceObject(
  scope: WriteScope,
  model: ModelMeta,
  body: unknown,
  urlId: IdValues | undefined,
): Record<string, unknown> {
  const data = documentData(scope, body);
  assertDocumentObject(data, 'resource', '"data"', ['data']);
  const type = toTypeName(model.name);
  if (typeof data.type !== 'string')
    throw invalidMember('"data.type" is required and must be a string.', ['data', 'type']);
  if (data.type !== type) {
    throw new CrudApiError('conflict', `"data.type" is ${quoteInput(data.type)} but this endpoint is for "${type}".`, {
      source: { pointer: '/data/type' },
    });
  }
  if (data.id !== undefined && typeof data.id !== 'string' && typeof data.id !== 'number') {
    throw invalidMember('"data.id" must be a string.', ['data', 'id']);
  }
  if (urlId && data.id !== undefined && String(data.id) !== String(formatResourceId(model, urlId, scope.idDivider))) {
    throw new CrudApiError('conflict', `"data.id" does not match the id in the URL.`, {
      source: { pointer: '/data/id' },
    });
  }
  return data;
}

/** A client-generated id: only for models whose id has no default (403 otherwise). */
function clientId(model: ModelMeta, id: string | number, divider: string): IdValues {
  if (model.idFields.some((name) => model.fields[name]!.hasDefault)) {
    throw new CrudApiError('client-id-not-allowed', `${toTypeName(model.name)} ids are assigned by the server.`, {
      source: { pointer: '/data/id' },
    });
  }
  const values = tryParseResourceId(model, id, divider);
  if (!values) throw invalidMember(`"data.id" is not a valid ${toTypeName(model.name)} id.`, ['data', 'id']);
  return values;
}

/**
 * Prisma data of a create (`urlId` undefined) or partial update document: attributes converted by
 * field type (virtual fields by their declared type), relationships turned into foreign keys or
 * connect/set. Server-set members are refused, write-only ones accepted (docs/rest.md). Member names reach the data
 * only as the schema spells them (looked up, never copied from the body). Whether a create has
 * every required member is checked by the create itself (`RestService.createResource`), after an
 * extension had the chance to fill one.
 */
export function parseResourceDocument(
  scope: WriteScope,
  model: ModelMeta,
  body: unknown,
  urlId?: IdValues,
): ResourceWrite {
  const { fields, idDivider } = scope;
  const resource = resourceObject(scope, model, body, urlId);
  const change = urlId ? 'replace' : 'create';
  const requestedId =
    !urlId && resource.id !== undefined ? clientId(model, resource.id as string | number, idDivider) : undefined;
  const data: Record<string, unknown> = { ...requestedId };
  // Kept apart so that a relationship's foreign key cannot replace an invalid attribute of the same column.
  const invalid: Record<string, InvalidValue> = {};
  for (const [name, value] of Object.entries((resource.attributes ?? {}) as Record<string, unknown>)) {
    const path = ['data', 'attributes', name];
    const field = fields.writeAttribute(model, name);
    if (field === 'server-set') throw serverSetMember('Attribute', name, jsonPointer(path));
    if (!field) throw invalidMember(`Unknown attribute ${quoteInput(name)}.`, path);
    const decoded = attributeData(field, value, fields.registry.meta.enums, jsonPointer(path));
    if (decoded instanceof InvalidValue) invalid[field.name] = decoded;
    else data[field.name] = decoded;
  }
  const references: RelatedReference[] = [];
  for (const [name, value] of Object.entries((resource.relationships ?? {}) as Record<string, unknown>)) {
    const path = ['data', 'relationships', name];
    const field = fields.writeRelationship(model, name);
    if (field === 'server-set') throw serverSetMember('Relationship', name, jsonPointer(path));
    if (!field) throw invalidMember(`Unknown relationship ${quoteInput(name)}.`, path);
    assertDocumentObject(value, 'relationship', `Relationship "${field.name}"`, path);
    if (!('data' in value)) throw invalidMember(`Relationship "${field.name}" needs "data".`, path);
    const linkage = parseRelationshipWrite(scope, field, change, value.data, jsonPointer([...path, 'data']));
    references.push(...linkage.references);
    Object.assign(data, linkage.data);
  }
  // Without write rules nothing else could report them with other issues: refused here, all at once.
  Object.assign(data, invalid);
  if (!fields.reportsInvalidValues) throwInvalidValues(data, ['data']);
  return { data, references, ...(requestedId ? { clientId: requestedId } : {}) };
}

/**
 * An attribute's Prisma value or, when it does not fit its field, an `InvalidValue` that the write
 * rules report with every other issue of the write.
 */
function attributeData(
  field: FieldMeta,
  value: unknown,
  enums: Readonly<Record<string, readonly string[]>>,
  pointer: string,
): unknown {
  const decoded = attributeValue(field, value, enums);
  if (!('problem' in decoded)) return decoded.value;
  return new InvalidValue(decoded.problem, field.kind === 'enum' ? 'invalid-enum' : 'invalid-type', { pointer });
}
