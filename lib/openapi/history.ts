import type { ModelMeta } from '../metadata/model-meta.types.js';
import { HISTORY_FILTERS, HISTORY_SORTS } from '../rest/query/history-query.js';
import { SCALAR_CODECS } from '../scalars/scalar-codecs.js';
import { AS_OF_PARAMETER, VERSION_TYPE } from '../shared/history.constants.js';
import { type JsonSchema, nullable, ref } from './openapi.types.js';
import { restNames } from './rest-schemas.js';

const TIME_REQUEST = SCALAR_CODECS.DateTime.schema.request;
const STRING = { type: 'string' } as const;

/** `asOf`, on the list and fetch of a type that records its history. */
export const AS_OF = {
  name: AS_OF_PARAMETER,
  in: 'query',
  required: false,
  description:
    'Answer the resources as they were at this RFC 3339 time (offset required): filters, sort, sparse fieldsets and offset pages apply; include and cursor pages are 400, and so is a time before the history kept.',
  schema: TIME_REQUEST,
};

/** `filter[since|until|actor]`, `sort` and offset `page` of `GET /:type/:id/history`. */
export function historyParameters(pageSize: number): unknown[] {
  const filters: Record<(typeof HISTORY_FILTERS)[number], JsonSchema> = {
    since: { ...TIME_REQUEST, description: 'Versions recorded at or after this time.' },
    until: { ...TIME_REQUEST, description: 'Versions recorded at or before this time.' },
    actor: { ...STRING, description: 'Versions recorded for this actor.' },
  };
  const deepObject = { style: 'deepObject', explode: true, example: {} };
  return [
    {
      name: 'filter',
      in: 'query',
      required: false,
      description: 'Versions by time (inclusive) and actor.',
      schema: { type: 'object', additionalProperties: false, properties: filters },
      ...deepObject,
    },
    {
      name: 'sort',
      in: 'query',
      required: false,
      description: 'Newest first (-at, the default) or oldest first (at).',
      schema: { enum: [...HISTORY_SORTS] },
    },
    {
      name: 'page',
      in: 'query',
      required: false,
      description: `Offset pagination: page[offset], page[limit] (default and largest limit ${pageSize}).`,
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          offset: { type: 'integer', minimum: 0 },
          limit: { type: 'integer', minimum: 1, description: `Page size, capped at ${pageSize}.` },
        },
      },
      ...deepObject,
    },
  ];
}

/** The path parameter of a version: its number. */
export const VERSION = {
  name: 'version',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[0-9]+$' },
  description: 'The version’s number (a version resource’s id).',
};

/** Component name of a model's version resource. */
export const versionName = (model: ModelMeta) => `${model.name}Version`;

/** A version resource of the model: one recorded change, its row as the type's attributes. */
export function versionSchema(model: ModelMeta): JsonSchema {
  return {
    type: 'object',
    required: ['type', 'id', 'attributes', 'links'],
    additionalProperties: false,
    properties: {
      type: { const: VERSION_TYPE },
      id: {
        type: 'string',
        pattern: '^[0-9]+$',
        description: 'The version’s number: a row’s versions are numbered in their order.',
      },
      attributes: {
        type: 'object',
        required: ['operation', 'at', 'actor', 'requestId', 'changed', 'data'],
        additionalProperties: false,
        properties: {
          operation: { enum: ['create', 'update', 'delete'] },
          at: {
            ...SCALAR_CODECS.DateTime.schema.response,
            description: 'When it was recorded, by the database’s clock.',
          },
          actor: nullable(STRING),
          requestId: nullable(STRING),
          changed: { type: 'array', items: STRING, description: 'The fields the change set or changed.' },
          data: {
            ...nullable(ref(restNames(model).attributes)),
            description: 'The attributes after the change; null for a delete.',
          },
        },
      },
      links: {
        type: 'object',
        required: ['related'],
        additionalProperties: false,
        properties: { related: { ...STRING, description: 'The resource.' } },
      },
    },
  };
}

/** What the history routes' errors mean. */
export const HISTORY_ERRORS: Readonly<Record<number, string>> = {
  403: 'Forbidden: the history rule does not let the caller read this resource’s history',
  404: 'Not found: no such resource, or the caller may not read it',
};

/** What putting a resource back to a version refuses. */
export const RESTORE_VERSION_ERRORS: Readonly<Record<number, string>> = {
  ...HISTORY_ERRORS,
  400: 'The version is the resource’s delete: there is nothing to put back',
  404: 'Not found: no such resource or no such version of it',
};
