import { Inject, Injectable } from '@nestjs/common';

import { PrismaClientResolver } from '../../data/prisma-client.resolver.js';
import { runInTransaction } from '../../data/run-in-transaction.js';
import { CrudApiError } from '../../errors/crud-api.error.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import { ModelRegistry, toTypeName } from '../../metadata/model-registry.js';
import type { PrismaOperationName } from '../../metadata/prisma-operations.js';
import { CRUD_API_OPTIONS } from '../../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../../options/crud-api-options.interface.js';
import type { PrismaClientLike } from '../../prisma/prisma-client-like.js';
import type { ApiRequest } from '../../shared/api-request.js';
import type { ApiResponse } from '../../shared/api-response.js';
import { inChildSpan } from '../../telemetry/child-span.js';
import { SPANS } from '../../telemetry/telemetry.constants.js';
import { JSON_API_VERSION } from '../json-api.constants.js';
import { readParameterName } from '../query/parameter-name.js';
import { formatResourceId } from '../resource-id.js';
import type { Row } from '../resources/model-delegate.js';
import { type ResourceContext, writeScope } from '../resources/resource-context.js';
import { resourceDocument, resourceSelection } from '../resources/resource-document.js';
import { relationshipField, resourceModel, type ResourceTarget, resourceTarget } from '../resources/resource-target.js';
import { RestService } from '../rest.service.js';
import { parseResourceDocument } from '../write/parse-resource-document.js';
import { parseRelationshipWrite, writableRelationship } from '../write/relationship-data.js';
import { ATOMIC_EXTENSION } from './atomic.constants.js';
import { LocalIds } from './local-ids.js';
import { type AtomicOperation, parseAtomicDocument } from './parse-atomic-document.js';

/** What every operation of one request shares. */
interface AtomicContext {
  /** What the resource operations run with: the transaction, each write in a savepoint that lets its failure be explained. */
  resources: ResourceContext;
  /** The request's client, whose access policies shape the result documents. */
  client: PrismaClientLike;
  lids: LocalIds;
}

const NO_INCLUDE = new Map();
const RELATIONSHIP_CHANGES = { add: 'add', update: 'replace', remove: 'remove' } as const;

/**
 * JSON:API Atomic Operations (`POST {restPath}/operations`): the operations run in order in one
 * interactive transaction of the request's client, each through the same resource operations of
 * the instance's `RestService` (a `restService` subclass included) as its single request, so the
 * same policies, validation, operation options and extensions apply; the first failure rolls all
 * back. What is its own: the operations document, local ids (`lid`), the results.
 */
@Injectable()
export class AtomicOperationsService {
  constructor(
    @Inject(CRUD_API_OPTIONS) protected readonly options: ResolvedCrudApiOptions,
    protected readonly registry: ModelRegistry,
    protected readonly clients: PrismaClientResolver,
    @Inject(RestService) protected readonly rest: RestService,
  ) {}

  async run(req: ApiRequest): Promise<ApiResponse> {
    // Names are read as on every REST route: other implementation-specific ones (a cache buster) are
    // ignored; the module's own (`withDeleted`, `hardDelete`) apply to single-resource routes only.
    const reserved = [...new URLSearchParams(req.query).keys()].find(
      (name) => readParameterName(name)?.kind !== 'ignored',
    );
    if (reserved !== undefined)
      throw new CrudApiError('invalid-query-parameter', 'An atomic request takes no query parameters.', {
        source: { parameter: reserved },
      });
    const { limits, transactions } = this.options;
    const operations = inChildSpan(SPANS.parse, () =>
      parseAtomicDocument(req.body, limits.maxJsonDepth, transactions.maxOperations),
    );
    const client = await this.clients.forRequest(req);
    const lids = new LocalIds();
    const scope = writeScope(this.registry, this.options, client);
    const results = await runInTransaction(client, transactions, operations.length, (tx, index) =>
      this.perform(
        { resources: { request: req, client: tx, scope, explainFailures: true, inTransaction: true }, client, lids },
        operations[index]!,
      ),
    );
    return {
      status: 200,
      body: { jsonapi: { version: JSON_API_VERSION, ext: [ATOMIC_EXTENSION] }, 'atomic:results': results },
    };
  }

  /** One operation; its result object (`{}` for operations without data). */
  protected perform(context: AtomicContext, operation: AtomicOperation): Promise<object> {
    if (operation.ref?.relationship !== undefined) return this.changeRelationship(context, operation);
    if (operation.op === 'add') return this.add(context, operation.data);
    if (operation.op === 'update') return this.update(context, operation);
    return this.remove(context, operation.ref!);
  }

  protected async add(context: AtomicContext, data: unknown): Promise<object> {
    const resource = context.lids.resolveResource(data, true);
    const model = this.model(resource, 'create', '/data');
    const { lid, ...withoutLid } = resource as Row;
    const write = parseResourceDocument(context.resources.scope, model, { data: withoutLid });
    const row = await this.rest.createResource(context.resources, model, write, this.selection(context, model));
    if (typeof lid === 'string')
      context.lids.assign(
        lid,
        toTypeName(model.name),
        formatResourceId(model, row, this.options.idDivider),
        '/data/lid',
      );
    return this.result(model, row);
  }

  protected async update(context: AtomicContext, operation: AtomicOperation): Promise<object> {
    const resource = context.lids.resolveResource(operation.data, false) as Row;
    const model = this.model(resource, 'update', '/data');
    if (resource.id === undefined)
      throw invalid('"data.id" (or "data.lid") is required to update a resource.', '/data');
    if (operation.ref) {
      const ref = context.lids.resolve(operation.ref, '/ref') as Row;
      if (ref.type !== resource.type || String(ref.id) !== String(resource.id))
        throw invalid('"ref" and "data" name different resources.', '/ref');
    }
    const target = this.target(model, resource.id, '/data/id');
    const write = parseResourceDocument(context.resources.scope, model, { data: resource }, target.id);
    const row = await this.rest.updateResource(context.resources, target, write, this.selection(context, model));
    return this.result(model, row);
  }

  protected async remove(context: AtomicContext, ref: Row): Promise<object> {
    const resolved = context.lids.resolve(ref, '/ref') as Row;
    const model = this.model(resolved, 'delete', '/ref');
    await this.rest.deleteResource(context.resources, this.target(model, resolved.id, '/ref/id'));
    return {};
  }

  /** `ref.relationship`: update replaces the linkage, add and remove change a to-many relationship's members. */
  protected async changeRelationship(context: AtomicContext, operation: AtomicOperation): Promise<object> {
    const ref = context.lids.resolve(operation.ref, '/ref') as Row;
    const model = this.model(ref, 'update', '/ref');
    const target = this.target(model, ref.id, '/ref/id');
    const field = writableRelationship(
      context.resources.scope,
      model,
      relationshipField(this.registry, model, ref.relationship as string, { pointer: '/ref/relationship' }),
      '/ref/relationship',
    );
    const change = RELATIONSHIP_CHANGES[operation.op];
    if (change !== 'replace' && !field.isList)
      throw invalid(`"${field.name}" is a to-one relationship: replace it with "update".`, '/op');
    const linkage = context.lids.resolveLinkage(operation.data, '/data');
    const write = parseRelationshipWrite(context.resources.scope, field, change, linkage, '/data');
    await this.rest.updateRelationship(context.resources, target, write);
    return {};
  }

  /** The model an identifier's `type` names, if the operation is allowed on it. */
  private model(identifier: unknown, operation: PrismaOperationName, pointer: string): ModelMeta {
    const type = (identifier as Row | null)?.type;
    if (typeof type !== 'string') throw invalid('"type" is required and must be a string.', `${pointer}/type`);
    return resourceModel(this.registry, type, operation, `${pointer}/type`);
  }

  /** The resource an identifier's `id` (at `pointer`) names. */
  private target(model: ModelMeta, id: unknown, pointer: string): ResourceTarget {
    if (typeof id !== 'string' && typeof id !== 'number')
      throw invalid('"id" (or "lid") is required and must be a string.', pointer);
    return resourceTarget(model, id, this.options.idDivider, pointer);
  }

  private selection(context: AtomicContext, model: ModelMeta) {
    return resourceSelection(this.registry, context.client, model, NO_INCLUDE);
  }

  /** The result of an operation with data: the resource, without links to the request. */
  private result(model: ModelMeta, row: Row): object {
    return { data: resourceDocument(this.registry, this.options, new Map()).primaryResource(model, row, NO_INCLUDE) };
  }
}

function invalid(message: string, pointer: string): CrudApiError {
  return new CrudApiError('invalid-payload', message, { source: { pointer } });
}
