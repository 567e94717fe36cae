import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import { INTEGER_PATTERN } from '../scalars/scalar-codecs.js';
import type { DocumentedFields } from './documented-fields.js';
import { type JsonSchema, nullable, ref } from './openapi.types.js';
import { fieldValueSchema } from './wire-schemas.js';

/** Component names of one model's REST schemas. */
export const restNames = (model: ModelMeta) => ({
  resource: `${model.name}Resource`,
  attributes: `${model.name}Attributes`,
  relationships: `${model.name}Relationships`,
  identifier: `${model.name}Identifier`,
  createDocument: `${model.name}CreateDocument`,
  updateDocument: `${model.name}UpdateDocument`,
  filter: `${model.name}Filter`,
});

const STRING = { type: 'string' } as const;
const PAGE_META: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: {
      type: 'object',
      additionalProperties: false,
      properties: { cursor: { type: 'string', description: 'This item’s cursor (page[after] / page[before]).' } },
    },
  },
};

/** The components every REST document shares. */
export const SHARED_REST_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  JsonApiObject: {
    type: 'object',
    required: ['version'],
    properties: { version: { const: '1.1' }, ext: { type: 'array', items: STRING } },
  },
  ResourceLinks: { type: 'object', required: ['self'], additionalProperties: false, properties: { self: STRING } },
  RelationshipLinks: {
    type: 'object',
    required: ['self', 'related'],
    additionalProperties: false,
    properties: { self: STRING, related: STRING },
  },
  DocumentLinks: {
    type: 'object',
    required: ['self'],
    additionalProperties: false,
    description:
      'self; related on relationship documents; first, last (exact totals only), prev and next on collections (null when there is no such page).',
    properties: {
      self: STRING,
      related: STRING,
      first: STRING,
      last: STRING,
      prev: nullable(STRING),
      next: nullable(STRING),
    },
  },
  CollectionMeta: {
    type: 'object',
    additionalProperties: false,
    properties: {
      total: {
        type: 'integer',
        minimum: 0,
        description: 'Rows in the collection; absent with count=none. With `count` estimated it is an estimate.',
      },
      count: {
        enum: ['exact', 'estimated', 'none'],
        description: 'How `total` was found, when not the plain exact count.',
      },
    },
  },
  ItemMeta: PAGE_META,
};

/** The `id` of a model's resources as the server writes it: a number for one Int id, else a string. */
export function resourceIdSchema(model: ModelMeta, idDivider: string): JsonSchema {
  if (model.idFields.length > 1)
    return { type: 'string', description: `The id fields ${model.idFields.join(', ')} joined by "${idDivider}".` };
  const type = model.fields[model.idFields[0]!]?.type;
  return type === 'Int'
    ? { type: 'integer' }
    : type === 'BigInt'
      ? { type: 'string', pattern: INTEGER_PATTERN }
      : STRING;
}

/** What create requires as attributes: non-optional plain fields without a default (foreign keys may come as relationships), required virtual fields. */
function isRequiredOnCreate(field: FieldMeta): boolean {
  return (
    !field.isOptional && !field.hasDefault && !field.isUpdatedAt && !field.isForeignKey && !field.isId && !field.isList
  );
}

/** The attributes an answer shows. */
function attributesSchema(fields: DocumentedFields, model: ModelMeta): JsonSchema {
  const enums = fields.registry.meta.enums;
  const properties = Object.fromEntries(
    fields
      .attributes(model)
      .map((field) => [field.name, fieldValueSchema(fields.answered(model, field), enums, 'response')]),
  );
  return { type: 'object', additionalProperties: false, properties };
}

/** The attributes a create or update may give (as the field modes let a client). */
function attributesInput(
  fields: DocumentedFields,
  model: ModelMeta,
  kind: 'create' | 'update',
  required: string[],
): JsonSchema {
  const enums = fields.registry.meta.enums;
  const properties = Object.fromEntries(
    fields
      .writableAttributes(model)
      .map((field) => [
        field.name,
        { ...fieldValueSchema(field, enums, 'request'), ...fields.requestExtras(model, field, kind) },
      ]),
  );
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}

/** Request linkage: a resource identifier of the related type (an id as a string or a number). */
function identifierInput(related: ModelMeta): JsonSchema {
  return {
    type: 'object',
    required: ['type', 'id'],
    additionalProperties: false,
    properties: {
      type: { const: toTypeName(related.name) },
      id: { type: ['string', 'integer'] },
      meta: { type: 'object' },
    },
  };
}

/** `{ data }` of a relationship in a request: an identifier or null (to-one), or an array of them (to-many). */
export function linkageInput(fields: DocumentedFields, field: FieldMeta): JsonSchema {
  const identifier = identifierInput(fields.related(field));
  return {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: {
      data: field.isList ? { type: 'array', items: identifier } : nullable(identifier),
      meta: { type: 'object' },
    },
  };
}

function relationshipsInput(fields: DocumentedFields, model: ModelMeta): JsonSchema {
  const properties = Object.fromEntries(
    fields.writableRelationships(model).map((field) => [field.name, linkageInput(fields, field)]),
  );
  return { type: 'object', additionalProperties: false, properties };
}

function writeDocument(fields: DocumentedFields, model: ModelMeta, kind: 'create' | 'update'): JsonSchema {
  const required =
    kind === 'create'
      ? fields
          .writableAttributes(model)
          .filter(isRequiredOnCreate)
          .map((field) => field.name)
      : [];
  const data: JsonSchema = {
    type: 'object',
    required: ['type'],
    additionalProperties: false,
    properties: {
      type: { const: toTypeName(model.name) },
      id: {
        type: ['string', 'integer'],
        description:
          kind === 'create'
            ? 'A client-generated id, where the model accepts one.'
            : 'When given, must equal the id in the URL.',
      },
      attributes: attributesInput(fields, model, kind, required),
      relationships: relationshipsInput(fields, model),
      meta: { type: 'object' },
    },
  };
  if (required.length) data.required = [...(data.required as string[]), 'attributes'];
  return {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: { data, meta: { type: 'object' }, jsonapi: { type: 'object' } },
  };
}

function relationshipObject(fields: DocumentedFields, field: FieldMeta): JsonSchema {
  const identifier = ref(restNames(fields.related(field)).identifier);
  return {
    type: 'object',
    required: ['links'],
    additionalProperties: false,
    properties: {
      links: ref('RelationshipLinks'),
      data: field.isList
        ? { type: 'array', items: identifier, description: 'Present when the relationship is included.' }
        : nullable(identifier),
    },
  };
}

/** One model's REST components: its resource, identifier, attributes, relationships and request documents. */
export function modelRestSchemas(
  fields: DocumentedFields,
  model: ModelMeta,
  idDivider: string,
): Record<string, JsonSchema> {
  const names = restNames(model);
  const type = { const: toTypeName(model.name) };
  const id = resourceIdSchema(model, idDivider);
  return {
    [names.identifier]: {
      type: 'object',
      required: ['type', 'id'],
      additionalProperties: false,
      properties: { type, id, meta: ref('ItemMeta') },
    },
    [names.attributes]: attributesSchema(fields, model),
    [names.relationships]: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        fields.relationships(model).map((field) => [field.name, relationshipObject(fields, field)]),
      ),
    },
    [names.resource]: {
      type: 'object',
      required: ['type', 'id', 'attributes', 'relationships', 'links'],
      additionalProperties: false,
      properties: {
        type,
        id,
        attributes: ref(names.attributes),
        relationships: ref(names.relationships),
        links: ref('ResourceLinks'),
        meta: ref('ItemMeta'),
      },
    },
    [names.createDocument]: writeDocument(fields, model, 'create'),
    [names.updateDocument]: writeDocument(fields, model, 'update'),
  };
}

/** Any resource object of the exposed models (`included`), told apart by `type`. */
export function anyResourceSchema(models: readonly ModelMeta[]): JsonSchema {
  return {
    oneOf: models.map((model) => ref(restNames(model).resource)),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(
        models.map((model) => [toTypeName(model.name), `#/components/schemas/${restNames(model).resource}`]),
      ),
    },
  };
}

/** A top-level document: `data` as given, links, optional meta and `included`. */
export function topLevelDocument(data: JsonSchema, meta = false): JsonSchema {
  return {
    type: 'object',
    required: ['jsonapi', 'links', 'data'],
    additionalProperties: false,
    properties: {
      jsonapi: ref('JsonApiObject'),
      links: ref('DocumentLinks'),
      data,
      ...(meta ? { meta: ref('CollectionMeta') } : {}),
      included: {
        type: 'array',
        items: ref('AnyResource'),
        description: 'With `include`: the related resources, each once.',
      },
    },
  };
}
