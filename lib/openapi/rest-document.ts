import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { PrismaOperationName } from '../metadata/prisma-operations.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { ATOMIC_MEDIA_TYPE, ATOMIC_ROUTE } from '../rest/atomic/atomic.constants.js';
import { JSON_API_MEDIA_TYPE } from '../rest/json-api.constants.js';
import { HISTORY_ROUTE, RESTORE_VERSION_ROUTE } from '../shared/history.constants.js';
import { RESTORE_ROUTE } from '../shared/soft-delete.constants.js';
import type { DocumentedFields } from './documented-fields.js';
import {
  errorResponseComponents,
  errorResponseRefs,
  errorStatuses,
  explainedErrors,
  JSON_API_ERROR_SCHEMAS,
} from './error-schemas.js';
import {
  AS_OF,
  HISTORY_ERRORS,
  historyParameters,
  RESTORE_VERSION_ERRORS,
  VERSION,
  versionName,
  versionSchema,
} from './history.js';
import { type JsonSchema, nullable, type OpenApiDocument, ref } from './openapi.types.js';
import { IF_MATCH, minimalAnswer, PREFER_RETURN, WRITTEN_ETAG } from './response-headers.js';
import { collectionParameters, filterSchema, resourceParameters, restParameterComponents } from './rest-parameters.js';
import {
  anyResourceSchema,
  linkageInput,
  modelRestSchemas,
  restNames,
  SHARED_REST_SCHEMAS,
  topLevelDocument,
} from './rest-schemas.js';
import { HARD_DELETE, HARD_DELETE_ERRORS, RESTORE_ERRORS, WITH_DELETED_REF } from './soft-delete.js';

/** What shapes the REST document: the options that shape the API, and where it is mounted. */
export type RestDocumentOptions = Pick<
  ResolvedCrudApiOptions,
  'restPath' | 'idDivider' | 'pageSize' | 'limits' | 'prismaErrorMap'
>;

type Operation = Record<string, unknown>;

const json = (schema: JsonSchema, mediaType = JSON_API_MEDIA_TYPE) => ({ content: { [mediaType]: { schema } } });
/** A request document: JSON:API's media type (with `profile` if any), and plain JSON, which the server reads alike. */
const requestDocument = (schema: JsonSchema) => ({
  required: true,
  content: { [JSON_API_MEDIA_TYPE]: { schema }, 'application/json': { schema } },
});
const ID = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'The resource id (compound ids joined by the id divider).',
};
const RELATED_ID = {
  name: 'relatedId',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'The id of the related resource.',
};
const COLLECTION_HEADERS = {
  Vary: { schema: { type: 'string' } },
  'Preference-Applied': {
    description: 'count=…, when the Prefer count preference was honoured.',
    schema: { type: 'string' },
  },
};

/**
 * The OpenAPI 3.1 document of the JSON:API interface: every route and method the REST controller
 * serves for the exposed models and allowed operations, with their query parameters, documents
 * and error answers. Pure: built from the model registry and the options only.
 */
export function buildRestDocument(
  fields: DocumentedFields,
  options: RestDocumentOptions,
  info: OpenApiDocument['info'],
): OpenApiDocument {
  const { registry } = fields;
  const models = registry.models;
  const statuses = errorStatuses(options.prismaErrorMap);
  const errors = errorResponseRefs(statuses, 'JsonApiError');
  const builder = new RestPaths(fields, options, errors);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const model of models) Object.assign(paths, builder.modelPaths(model));
  paths[`/${options.restPath}/${ATOMIC_ROUTE}`] = builder.atomicPath();
  const schemas: Record<string, JsonSchema> = {
    ...SHARED_REST_SCHEMAS,
    ...JSON_API_ERROR_SCHEMAS,
    AnyResource: anyResourceSchema(models),
    ...ATOMIC_SCHEMAS,
  };
  for (const model of models)
    Object.assign(
      schemas,
      modelRestSchemas(fields, model, options.idDivider),
      { [restNames(model).filter]: filterSchema(fields, model) },
      fields.recordsHistory(model) ? { [versionName(model)]: versionSchema(model) } : {},
    );
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      description: info.description ?? `JSON:API 1.1 (${JSON_API_MEDIA_TYPE}) over the ${registry.provider} models.`,
    },
    paths,
    components: {
      schemas,
      parameters: restParameterComponents(fields, options.limits, options.pageSize),
      responses: errorResponseComponents(statuses, JSON_API_MEDIA_TYPE, 'JsonApiError', 'JsonApiErrorDocument'),
    },
    tags: models.map((model) => ({ name: toTypeName(model.name) })),
  };
}

const ATOMIC_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  AtomicOperation: {
    type: 'object',
    required: ['op'],
    additionalProperties: false,
    properties: {
      op: { enum: ['add', 'update', 'remove'] },
      ref: {
        type: 'object',
        additionalProperties: false,
        properties: {
          type: { type: 'string' },
          id: { type: ['string', 'integer'] },
          lid: { type: 'string' },
          relationship: { type: 'string' },
        },
      },
      data: {
        description:
          'A resource object (add, update) or linkage (relationship operations); `lid` names a resource added earlier.',
      },
      meta: { type: 'object' },
    },
  },
  AtomicDocument: {
    type: 'object',
    required: ['atomic:operations'],
    additionalProperties: false,
    properties: {
      'atomic:operations': { type: 'array', minItems: 1, items: ref('AtomicOperation') },
      meta: { type: 'object' },
      jsonapi: { type: 'object' },
      links: { type: 'object' },
    },
  },
  AtomicResults: {
    type: 'object',
    required: ['jsonapi', 'atomic:results'],
    additionalProperties: false,
    properties: {
      jsonapi: ref('JsonApiObject'),
      'atomic:results': {
        type: 'array',
        items: { type: 'object', additionalProperties: false, properties: { data: ref('AnyResource') } },
        description: 'One result per operation, in order: `{ data }` for add and update, `{}` otherwise.',
      },
    },
  },
};

/** The path items of the REST document, built per model. */
class RestPaths {
  private readonly base: string;

  constructor(
    private readonly fields: DocumentedFields,
    private readonly options: RestDocumentOptions,
    private readonly errors: Record<string, unknown>,
  ) {
    this.base = `/${options.restPath}`;
  }

  modelPaths(model: ModelMeta): Record<string, Record<string, unknown>> {
    const type = toTypeName(model.name);
    const names = restNames(model);
    const allows = (operation: PrismaOperationName) => this.fields.registry.allowsOperation(model, operation);
    const resource = ref(names.resource);
    const reads = resourceParameters(model);
    const history = this.fields.recordsHistory(model);
    // Reads as of a past time: a collection and a resource of a type with history.
    const pastReads = [...reads, ...(history ? [AS_OF] : [])];
    const paths: Record<string, Record<string, unknown>> = {};
    const collection: Record<string, unknown> = {};
    if (allows('findMany')) {
      collection.get = this.operation(model, `list_${type}`, `List ${type} resources`, {
        parameters: [...pastReads, ...collectionParameters(model)],
        responses: {
          200: {
            description: 'A page of the collection',
            headers: COLLECTION_HEADERS,
            ...json(topLevelDocument({ type: 'array', items: resource }, true)),
          },
        },
      });
    }
    if (allows('create')) {
      collection.post = this.operation(model, `create_${type}`, `Create a ${type}`, {
        parameters: [...reads, PREFER_RETURN],
        requestBody: requestDocument(ref(names.createDocument)),
        responses: {
          201: {
            description: 'Created',
            headers: { Location: { required: true, schema: { type: 'string' } }, ...WRITTEN_ETAG },
            ...json(topLevelDocument(resource)),
          },
          204: minimalAnswer(true),
        },
      });
    }
    if (Object.keys(collection).length) paths[`${this.base}/${type}`] = collection;
    const single: Record<string, unknown> = { parameters: [ID] };
    if (allows('findUnique')) {
      single.get = this.operation(model, `fetch_${type}`, `Fetch a ${type}`, {
        parameters: pastReads,
        responses: { 200: { description: 'The resource', ...json(topLevelDocument(resource)) } },
      });
    }
    if (allows('update')) {
      const update = (verb: string) =>
        this.operation(model, `${verb}_${type}`, `Update a ${type} (absent members keep their values)`, {
          parameters: [...reads, IF_MATCH, PREFER_RETURN],
          requestBody: requestDocument(ref(names.updateDocument)),
          responses: {
            200: { description: 'The updated resource', headers: WRITTEN_ETAG, ...json(topLevelDocument(resource)) },
            204: minimalAnswer(false),
          },
        });
      single.patch = update('update');
      single.put = update('replace');
    }
    const softDeleted = this.fields.softDeleted(model);
    const hardDeletes = softDeleted && allows('hardDelete');
    if (allows('delete'))
      single.delete = this.operation(
        model,
        `delete_${type}`,
        `Delete a ${type}${softDeleted ? ` (marks it deleted${hardDeletes ? '; hardDelete=true removes it' : ''})` : ''}`,
        {
          parameters: [IF_MATCH, ...(hardDeletes ? [HARD_DELETE, WITH_DELETED_REF] : [])],
          responses: { 204: { description: 'Deleted' } },
        },
        hardDeletes ? HARD_DELETE_ERRORS : {},
      );
    if (Object.keys(single).length > 1) paths[`${this.base}/${type}/{id}`] = single;
    if (allows('findUnique'))
      for (const field of this.fields.relationships(model))
        Object.assign(paths, this.relationshipPaths(model, field, allows('update')));
    if (softDeleted && allows('restore')) {
      const at = `${this.base}/${type}/{id}/${RESTORE_ROUTE}`;
      // A relationship named like the route keeps its GET there.
      paths[at] = { ...paths[at], parameters: [ID], post: this.restoreOperation(model) };
    }
    if (history) Object.assign(paths, this.historyPaths(model, allows));
    return paths;
  }

  /** `GET /:type/:id/history` and `POST /:type/:id/history/{version}/restore`, as the operations allow. */
  private historyPaths(
    model: ModelMeta,
    allows: (operation: PrismaOperationName) => boolean,
  ): Record<string, Record<string, unknown>> {
    const type = toTypeName(model.name);
    const at = `${this.base}/${type}/{id}/${HISTORY_ROUTE}`;
    const paths: Record<string, Record<string, unknown>> = {};
    if (allows('findUnique') && allows('history'))
      paths[at] = {
        parameters: [ID],
        get: this.operation(
          model,
          `history_${type}`,
          `The versions of a ${type}, newest first`,
          {
            parameters: historyParameters(this.options.pageSize),
            responses: {
              200: {
                description: 'A page of the versions',
                ...json(topLevelDocument({ type: 'array', items: ref(versionName(model)) })),
              },
            },
          },
          HISTORY_ERRORS,
        ),
      };
    if (allows('restoreVersion'))
      paths[`${at}/{version}/${RESTORE_VERSION_ROUTE}`] = {
        parameters: [ID, VERSION],
        post: this.operation(
          model,
          `restore_version_${type}`,
          `Put a ${type} back to one of its versions (an update, recorded as a version)`,
          {
            parameters: [...resourceParameters(model), IF_MATCH],
            responses: {
              200: {
                description: 'The resource as restored',
                headers: WRITTEN_ETAG,
                ...json(topLevelDocument(ref(restNames(model).resource))),
              },
            },
          },
          RESTORE_VERSION_ERRORS,
        ),
      };
    return paths;
  }

  /** `POST /:type/:id/restore`: no body, the restored resource as a fetch answers it. */
  private restoreOperation(model: ModelMeta): Operation {
    const type = toTypeName(model.name);
    return this.operation(
      model,
      `restore_${type}`,
      `Restore a deleted ${type}, with what its delete cascaded to`,
      {
        parameters: [...resourceParameters(model), IF_MATCH],
        responses: {
          200: { description: 'The restored resource', ...json(topLevelDocument(ref(restNames(model).resource))) },
        },
      },
      RESTORE_ERRORS,
    );
  }

  private relationshipPaths(
    model: ModelMeta,
    field: FieldMeta,
    canUpdate: boolean,
  ): Record<string, Record<string, unknown>> {
    const type = toTypeName(model.name);
    const related = this.fields.related(field);
    const relatedAllows = (operation: PrismaOperationName) => this.fields.registry.allowsOperation(related, operation);
    const at = `${this.base}/${type}/{id}`;
    const name = `${type}_${field.name}`;
    const paths: Record<string, Record<string, unknown>> = {};
    const identifier = ref(restNames(related).identifier);
    const collection = collectionParameters(related);
    const linkageResponse = {
      200: {
        description: 'The linkage',
        ...(field.isList ? { headers: COLLECTION_HEADERS } : {}),
        ...json(
          field.isList
            ? topLevelDocument({ type: 'array', items: identifier }, true)
            : topLevelDocument(nullable(identifier)),
        ),
      },
    };
    if (field.isList && !relatedAllows('findMany')) return paths;
    const relatedData = field.isList
      ? { type: 'array', items: ref(restNames(related).resource) }
      : nullable(ref(restNames(related).resource));
    paths[`${at}/${field.name}`] = {
      parameters: [ID],
      get: this.operation(model, `fetch_${name}`, `Fetch the related ${field.name}`, {
        parameters: [...resourceParameters(related), ...(field.isList ? collection : [])],
        responses: {
          200: {
            description: 'The related resource(s)',
            ...(field.isList ? { headers: COLLECTION_HEADERS } : {}),
            ...json(topLevelDocument(relatedData, field.isList)),
          },
        },
      }),
    };
    const relationship: Record<string, unknown> = {
      parameters: [ID],
      get: this.operation(model, `fetch_${name}_relationship`, `Fetch the ${field.name} linkage`, {
        parameters: field.isList ? collection : [],
        responses: linkageResponse,
      }),
    };
    if (canUpdate && this.fields.writes(model, field)) {
      const change = (verb: string, summary: string) =>
        this.operation(model, `${verb}_${name}_relationship`, summary, {
          parameters: [IF_MATCH, PREFER_RETURN],
          requestBody: requestDocument(linkageInput(this.fields, field)),
          responses: {
            200: { ...linkageResponse[200], headers: { ...linkageResponse[200].headers, ...WRITTEN_ETAG } },
            204: minimalAnswer(false),
          },
        });
      relationship.patch = change('replace', `Replace the ${field.name} linkage`);
      if (field.isList) {
        relationship.post = change('add', `Add to ${field.name}`);
        relationship.delete = change('remove', `Remove from ${field.name}`);
      }
    }
    paths[`${at}/relationships/${field.name}`] = relationship;
    if (!field.isList) {
      paths[`${at}/${field.name}/{relatedId}`] = {
        parameters: [ID, RELATED_ID],
        get: this.operation(model, `fetch_${name}_by_id`, `Fetch the related ${field.name} when its id is relatedId`, {
          parameters: resourceParameters(related),
          responses: { 200: { description: 'The related resource', ...json(topLevelDocument(relatedData)) } },
        }),
      };
      paths[`${at}/relationships/${field.name}/{relatedId}`] = {
        parameters: [ID, RELATED_ID],
        get: this.operation(
          model,
          `fetch_${name}_relationship_by_id`,
          `Fetch the ${field.name} linkage when its id is relatedId`,
          { responses: linkageResponse },
        ),
      };
    }
    return paths;
  }

  atomicPath(): Record<string, unknown> {
    return {
      post: {
        operationId: 'atomic_operations',
        tags: ['operations'],
        summary: 'JSON:API Atomic Operations: all in one transaction, in order',
        requestBody: { required: true, ...json(ref('AtomicDocument'), ATOMIC_MEDIA_TYPE) },
        responses: {
          200: { description: 'The results, in order', ...json(ref('AtomicResults'), ATOMIC_MEDIA_TYPE) },
          ...this.errors,
        },
      },
    };
  }

  /** An operation of the model with every error answer, those in `reasons` explained for it. */
  private operation(
    model: ModelMeta,
    operationId: string,
    summary: string,
    operation: Operation,
    reasons: Readonly<Record<number, string>> = {},
  ): Operation {
    return {
      operationId,
      tags: [toTypeName(model.name)],
      summary,
      ...operation,
      responses: { ...(operation.responses as object), ...explainedErrors(this.errors, reasons) },
    };
  }
}
