import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import { type OperationRow, PRISMA_OPERATIONS, type SoftDeleteOperationName } from '../metadata/prisma-operations.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { OPERATION_ARGS } from '../rpc/args/operation-args.js';
import { findRpcOperation, readsArgsFromQuery } from '../rpc/rpc-operations.js';
import { RPC_TRANSACTION_ROUTE } from '../rpc/transaction/transaction-route.js';
import { AS_OF_PARAMETER } from '../shared/history.constants.js';
import type { DocumentedFields } from './documented-fields.js';
import {
  errorResponseComponents,
  errorResponseRefs,
  errorStatuses,
  explainedErrors,
  RPC_ERROR_SCHEMAS,
} from './error-schemas.js';
import { type JsonSchema, type OpenApiDocument, ref } from './openapi.types.js';
import { IF_MATCH, WRITTEN_ETAG } from './response-headers.js';
import { argumentSchema, modelRpcSchemas, resultSchema, rpcNames, SHARED_RPC_SCHEMAS } from './rpc-schemas.js';
import { HARD_DELETE_ERRORS, RESTORE_ERRORS, WITH_DELETED_REF } from './soft-delete.js';

export type RpcDocumentOptions = Pick<
  ResolvedCrudApiOptions,
  'rpcPath' | 'maxTake' | 'limits' | 'prismaErrorMap' | 'transactions'
>;

const JSON_MEDIA_TYPE = 'application/json';

/** `{ data, meta? }`: superjson's `json` part and, when it has any, its type metadata. */
function envelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: { data, meta: ref('SerializationMeta') },
  };
}

/** One operation's arguments, from the grammar's own table of top-level keys. */
function argsSchema(
  fields: DocumentedFields,
  model: ModelMeta,
  operation: OperationRow,
  maxTake: number | undefined,
): JsonSchema {
  const grammar = operation.args;
  // Reads take `asOf` on models with history only (the others answer it 400).
  const keys = Object.keys(OPERATION_ARGS[grammar]).filter(
    (key) => key !== AS_OF_PARAMETER || fields.recordsHistory(model),
  );
  const properties = Object.fromEntries(keys.map((key) => [key, argumentSchema(fields, model, grammar, key)]));
  const { take } = operation;
  const capped =
    maxTake !== undefined && take
      ? ` A take beyond ±${maxTake} is capped${take === 'default' ? ', and no take reads ' + maxTake : ''} (option maxTake).`
      : '';
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    description: `Prisma's ${model.name}.${grammar} arguments.${capped}`,
  };
}

/** What restore and hardDelete do, and what their errors mean. */
const SOFT_DELETE_OPERATION_DOCS: Readonly<
  Record<SoftDeleteOperationName, { description: string; errors: Readonly<Record<number, string>> }>
> = {
  restore: {
    description: 'Brings back a deleted row, with the rows its delete cascaded to, and answers it.',
    errors: RESTORE_ERRORS,
  },
  hardDelete: {
    description: 'Removes a row for good instead of marking it deleted, and answers it.',
    errors: HARD_DELETE_ERRORS,
  },
};

/**
 * The OpenAPI 3.1 document of the RPC interface: `/{model}/{operation}` for every exposed model and
 * allowed operation the database offers, its method, its arguments (`q`/`meta` or the body) and the
 * `{ data, meta }` envelope; `$transaction/sequential`. Pure: built from the registry and options.
 */
export function buildRpcDocument(
  fields: DocumentedFields,
  options: RpcDocumentOptions,
  info: OpenApiDocument['info'],
): OpenApiDocument {
  const { registry } = fields;
  const statuses = errorStatuses(options.prismaErrorMap);
  const errors = errorResponseRefs(statuses, 'RpcError');
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, JsonSchema> = { ...SHARED_RPC_SCHEMAS, ...RPC_ERROR_SCHEMAS };
  for (const model of registry.models) {
    Object.assign(schemas, modelRpcSchemas(fields, model));
    for (const operation of PRISMA_OPERATIONS) {
      const { name } = operation;
      // restore and hardDelete exist on soft-deleted models only, history's on models with history, whatever the provider.
      const offered = operation.softDeleteOnly
        ? fields.softDeleted(model)
        : operation.historyOnly
          ? fields.recordsHistory(model)
          : findRpcOperation(name, registry.provider) !== undefined;
      if (!offered || !registry.allowsOperation(model, name)) continue;
      const args = rpcNames(model).args(name);
      schemas[args] = argsSchema(fields, model, operation, options.maxTake);
      const softDelete = operation.softDeleteOnly
        ? SOFT_DELETE_OPERATION_DOCS[name as SoftDeleteOperationName]
        : undefined;
      const item: Record<string, unknown> = {};
      for (const method of operation.methods) {
        item[method.toLowerCase()] = {
          operationId: `${toTypeName(model.name)}_${name}${operation.methods.length > 1 ? `_${method.toLowerCase()}` : ''}`,
          tags: [toTypeName(model.name)],
          summary: `${model.name}.${name}`,
          ...(softDelete ? { description: softDelete.description } : {}),
          parameters: [
            ...(readsArgsFromQuery(method) ? queryArgs(args) : []),
            ...(operation.ifMatch ? [IF_MATCH] : []),
            ...(operation.softDeleteOnly && operation.withDeleted ? [WITH_DELETED_REF] : []),
          ],
          ...(readsArgsFromQuery(method) ? {} : { requestBody: bodyArgs(schemas[args]!) }),
          responses: {
            [operation.successStatus]: {
              description: 'The result',
              ...(operation.tagged ? { headers: WRITTEN_ETAG } : {}),
              content: { [JSON_MEDIA_TYPE]: { schema: envelope(resultSchema(model, operation)) } },
            },
            ...explainedErrors(errors, softDelete?.errors ?? {}),
          },
        };
      }
      paths[`/${options.rpcPath}/${toTypeName(model.name)}/${name}`] = item;
    }
  }
  paths[`/${options.rpcPath}/${RPC_TRANSACTION_ROUTE}`] = { post: transactionOperation(options, errors) };
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      description: info.description ?? `Prisma operations over HTTP with superjson (${registry.provider}).`,
    },
    paths,
    components: { schemas, responses: errorResponseComponents(statuses, JSON_MEDIA_TYPE, 'RpcError', 'RpcError') },
    tags: [...registry.models.map((model) => ({ name: toTypeName(model.name) })), { name: '$transaction' }],
  };
}

function queryArgs(args: string): unknown[] {
  return [
    {
      name: 'q',
      in: 'query',
      required: false,
      description: 'The arguments as JSON (superjson `json` part).',
      content: { [JSON_MEDIA_TYPE]: { schema: ref(args) } },
    },
    {
      name: 'meta',
      in: 'query',
      required: false,
      description: 'superjson metadata of `q`.',
      content: { [JSON_MEDIA_TYPE]: { schema: ref('SerializationMeta') } },
    },
  ];
}

/** The body: the arguments with superjson's metadata under `meta`. */
function bodyArgs(args: JsonSchema): unknown {
  const schema = { ...args, properties: { ...(args.properties as object), meta: ref('SerializationMeta') } };
  return { required: false, content: { [JSON_MEDIA_TYPE]: { schema } } };
}

function transactionOperation(options: RpcDocumentOptions, errors: Record<string, unknown>): unknown {
  const step = {
    type: 'object',
    required: ['model', 'op'],
    properties: { model: { type: 'string' }, op: { type: 'string' }, args: { type: 'object' } },
  };
  return {
    operationId: 'transaction_sequential',
    tags: ['$transaction'],
    summary: 'Run several operations in one transaction, in order',
    description: `At most ${options.transactions.maxOperations} operations; the first failure rolls back all and answers with error.meta.index. Also accepts ZenStack's hook and fetch-client forms.`,
    requestBody: {
      required: true,
      content: { [JSON_MEDIA_TYPE]: { schema: { anyOf: [{ type: 'array', items: step }, { type: 'object' }] } } },
    },
    responses: {
      200: {
        description: 'The results, in order',
        content: { [JSON_MEDIA_TYPE]: { schema: envelope({ type: 'array' }) } },
      },
      ...errors,
    },
  };
}
