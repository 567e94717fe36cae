import { CrudApiError } from '../../filters/crud-api.error.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import { toTypeName } from '../../metadata/model-registry.js';
import { decodeAttribute } from '../attribute-codec.js';
import { formatResourceId, type IdValues, tryParseResourceId } from '../resource-id.js';
import { attributeFields, relationshipFields } from '../serialize/resource-members.js';
import { assertRequiredMembers } from './assert-required-members.js';
import { parseLinkage, type RelatedReference, relationshipData, type WriteScope } from './relationship-data.js';

/** What a create or update document asks for, as Prisma data. */
export interface ResourceWrite {
  data: Record<string, unknown>;
  references: RelatedReference[];
  /** The client-generated id of a create, which must not exist yet. */
  clientId?: IdValues;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function invalid(message: string, pointer: string): CrudApiError {
  return new CrudApiError('invalid-payload', message, { source: { pointer } });
}

/** The request document's `data`, or 400. */
export function documentData(body: unknown): Record<string, unknown> | unknown[] | null {
  if (!isObject(body) || !('data' in body)) throw invalid('The request body must be a JSON:API document with "data".', '');
  return body.data as Record<string, unknown> | unknown[] | null;
}

/** The resource object of a create (`id` undefined) or update (`id` from the URL) request. */
function resourceObject(model: ModelMeta, body: unknown, divider: string, urlId: IdValues | undefined): Record<string, unknown> {
  const data = documentData(body);
  if (!isObject(data)) throw invalid('"data" must be a resource object.', '/data');
  const type = toTypeName(model.name);
  if (typeof data.type !== 'string') throw invalid('"data.type" is required.', '/data/type');
  if (data.type !== type) throw new CrudApiError('conflict', `"data.type" is "${data.type}" but this endpoint is for "${type}".`, { source: { pointer: '/data/type' } });
  if (urlId && data.id !== undefined && String(data.id) !== String(formatResourceId(model, urlId, divider))) {
    throw new CrudApiError('conflict', `"data.id" does not match the id in the URL.`, { source: { pointer: '/data/id' } });
  }
  for (const member of ['attributes', 'relationships'] as const) {
    if (data[member] !== undefined && !isObject(data[member])) throw invalid(`"data.${member}" must be an object.`, `/data/${member}`);
  }
  return data;
}

/** A client-generated id: only for models whose id has no default (403 otherwise). */
function clientId(model: ModelMeta, id: unknown, divider: string): IdValues {
  if (model.idFields.some((name) => model.fields[name]!.hasDefault)) {
    throw new CrudApiError('client-id-not-allowed', `${toTypeName(model.name)} ids are assigned by the server.`, { source: { pointer: '/data/id' } });
  }
  const values = typeof id === 'string' || typeof id === 'number' ? tryParseResourceId(model, id, divider) : undefined;
  if (!values) throw invalid(`"data.id" is not a valid ${toTypeName(model.name)} id.`, '/data/id');
  return values;
}

/**
 * Prisma data of a create (`urlId` undefined) or partial update document: attributes converted by
 * field type, relationships turned into foreign keys or connect/set.
 */
export function parseResourceDocument(scope: WriteScope, model: ModelMeta, body: unknown, urlId?: IdValues): ResourceWrite {
  const { registry, idDivider } = scope;
  const resource = resourceObject(model, body, idDivider, urlId);
  const change = urlId ? 'replace' : 'create';
  const requestedId = !urlId && resource.id !== undefined ? clientId(model, resource.id, idDivider) : undefined;
  const data: Record<string, unknown> = { ...requestedId };
  const attributes = new Map(attributeFields(registry, model).map((field) => [field.name, field]));
  for (const [name, value] of Object.entries((resource.attributes ?? {}) as Record<string, unknown>)) {
    const pointer = `/data/attributes/${name}`;
    const field = attributes.get(name);
    if (!field) throw invalid(`Unknown attribute "${name}".`, pointer);
    data[name] = decodeAttribute(field, value, registry.meta.enums, pointer);
  }
  const relationships = new Map(relationshipFields(registry, model).map((field) => [field.name, field]));
  const references: RelatedReference[] = [];
  for (const [name, value] of Object.entries((resource.relationships ?? {}) as Record<string, unknown>)) {
    const pointer = `/data/relationships/${name}`;
    const field = relationships.get(name);
    if (!field) throw invalid(`Unknown relationship "${name}".`, pointer);
    if (!isObject(value) || !('data' in value)) throw invalid(`Relationship "${name}" needs "data".`, pointer);
    const ids = parseLinkage(scope, field, value.data, `${pointer}/data`);
    if (ids?.length) references.push({ model: registry.findByModelName(field.type)!, ids, pointer: `${pointer}/data` });
    Object.assign(data, relationshipData(scope, field, ids, change, `${pointer}/data`));
  }
  if (change === 'create') assertRequiredMembers(model, data);
  return { data, references, ...(requestedId ? { clientId: requestedId } : {}) };
}
