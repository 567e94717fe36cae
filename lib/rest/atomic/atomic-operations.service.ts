import { Inject, Injectable } from '@nestjs/common';

import { PrismaClientResolver } from '../../data/prisma-client.resolver.js';
import { runInTransaction } from '../../data/run-in-transaction.js';
import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import { idSelect } from '../../metadata/id-select.js';
import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { ModelRegistry, toTypeName } from '../../metadata/model-registry.js';
import { CRUD_API_OPTIONS } from '../../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../../options/crud-api-options.interface.js';
import { policiesOf } from '../../policies/with-policies.js';
import type { PrismaClientLike } from '../../prisma/prisma-client-like.js';
import type { ApiRequest } from '../../shared/api-request.js';
import type { ApiResponse } from '../../shared/api-response.js';
import { JSON_API_VERSION } from '../json-api.constants.js';
import { formatResourceId, type IdValues, parseResourceId, uniqueWhere } from '../resource-id.js';
import { buildSelection } from '../serialize/build-selection.js';
import { CompoundDocument } from '../serialize/compound-document.js';
import { relationshipFields } from '../serialize/resource-members.js';
import { VisibleFields } from '../visible-fields.js';
import { parseResourceDocument } from '../write/parse-resource-document.js';
import { parseLinkage, relationshipData, type WriteScope } from '../write/relationship-data.js';
import { ATOMIC_EXTENSION } from './atomic.constants.js';
import { LocalIds } from './local-ids.js';
import { type AtomicOperation, parseAtomicDocument } from './parse-atomic-document.js';

type Row = Record<string, unknown>;
type Delegate = Record<string, (args: unknown) => Promise<any>>;

/** What every operation of one request shares. */
interface AtomicContext {
  client: PrismaClientLike;
  tx: PrismaClientLike;
  lids: LocalIds;
  scope: WriteScope;
}

const NO_INCLUDE = new Map();
const RELATIONSHIP_CHANGES = { add: 'add', update: 'replace', remove: 'remove' } as const;

/**
 * JSON:API Atomic Operations (`POST {restPath}/operations`): the operations run in order in one
 * interactive transaction of the request's client, each as its single request would (the same
 * policies, validation and operation options); the first failure rolls all back.
 */
@Injectable()
export class AtomicOperationsService {
  constructor(
    @Inject(CRUD_API_OPTIONS) protected readonly options: ResolvedCrudApiOptions,
    protected readonly registry: ModelRegistry,
    protected readonly clients: PrismaClientResolver,
  ) {}

  async run(req: ApiRequest): Promise<ApiResponse> {
    if (req.query) throw new CrudApiError('invalid-query-parameter', 'An atomic request takes no query parameters.');
    const { limits, transactions } = this.options;
    const operations = parseAtomicDocument(req.body, limits.maxJsonDepth, transactions.maxOperations);
    const client = await this.clients.forRequest(req);
    const lids = new LocalIds();
    const scope: WriteScope = {
      fields: new VisibleFields(this.registry, policiesOf(client)),
      idDivider: this.options.idDivider,
      maxJsonDepth: limits.maxJsonDepth,
    };
    const results = await runInTransaction(client, transactions, operations.length, (tx, index) =>
      this.perform({ client, tx, lids, scope }, operations[index]!),
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
    const write = parseResourceDocument(context.scope, model, { data: withoutLid });
    const row = (await this.delegate(context.tx, model).create!({
      data: write.data,
      ...this.selection(context, model),
    })) as Row;
    if (typeof lid === 'string')
      context.lids.assign(
        lid,
        toTypeName(model.name),
        formatResourceId(model, row, this.options.idDivider),
        '/data/lid',
      );
    return { data: this.document().primaryResource(model, row, NO_INCLUDE) };
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
    const id = this.resourceId(model, resource.id, '/data/id');
    const write = parseResourceDocument(context.scope, model, { data: resource }, id);
    const row = (await this.delegate(context.tx, model).update!({
      where: uniqueWhere(model, id),
      data: write.data,
      ...this.selection(context, model),
    })) as Row;
    return { data: this.document().primaryResource(model, row, NO_INCLUDE) };
  }

  protected async remove(context: AtomicContext, ref: Row): Promise<object> {
    const resolved = context.lids.resolve(ref, '/ref') as Row;
    const model = this.model(resolved, 'delete', '/ref');
    const id = this.resourceId(model, resolved.id, '/ref/id');
    await this.delegate(context.tx, model).delete!({ where: uniqueWhere(model, id), select: idSelect(model) });
    return {};
  }

  /** `ref.relationship`: update replaces the linkage, add and remove change a to-many relationship's members. */
  protected async changeRelationship(context: AtomicContext, operation: AtomicOperation): Promise<object> {
    const ref = context.lids.resolve(operation.ref, '/ref') as Row;
    const model = this.model(ref, 'update', '/ref');
    const id = this.resourceId(model, ref.id, '/ref/id');
    const field = this.relationship(model, ref.relationship as string);
    const change = RELATIONSHIP_CHANGES[operation.op];
    if (change !== 'replace' && !field.isList)
      throw invalid(`"${field.name}" is a to-one relationship: replace it with "update".`, '/op');
    const ids = parseLinkage(context.scope, field, context.lids.resolveLinkage(operation.data, '/data'), '/data');
    const data = relationshipData(context.scope, field, ids, change, '/data');
    const found = await this.delegate(context.tx, model).findUnique!({
      where: uniqueWhere(model, id),
      select: idSelect(model),
    });
    if (!found)
      throw new CrudApiError('not-found', `No ${toTypeName(model.name)} with id ${quoteInput(ref.id)}.`, {
        source: { pointer: '/ref/id' },
      });
    await this.delegate(context.tx, model).update!({ where: uniqueWhere(model, id), data, select: idSelect(model) });
    return {};
  }

  /** The model an identifier's `type` names, if the operation is allowed on it. */
  private model(identifier: unknown, operation: string, pointer: string): ModelMeta {
    const type = (identifier as Row | null)?.type;
    if (typeof type !== 'string') throw invalid('"type" is required and must be a string.', `${pointer}/type`);
    const model = this.registry.findByTypeName(type);
    if (!model)
      throw new CrudApiError('unknown-type', `Unknown resource type ${quoteInput(type)}.`, {
        source: { pointer: `${pointer}/type` },
      });
    if (!this.registry.allowsOperation(model, operation)) {
      throw new CrudApiError('forbidden', `The ${operation} operation is not allowed on ${type}.`, {
        source: { pointer: `${pointer}/type` },
      });
    }
    return model;
  }

  private resourceId(model: ModelMeta, id: unknown, pointer: string): IdValues {
    if (typeof id !== 'string' && typeof id !== 'number')
      throw invalid('"id" (or "lid") is required and must be a string.', pointer);
    return parseResourceId(model, toTypeName(model.name), id, this.options.idDivider);
  }

  private relationship(model: ModelMeta, name: string): FieldMeta {
    const field = relationshipFields(this.registry, model).find((candidate) => candidate.name === name);
    if (!field)
      throw new CrudApiError(
        'unknown-relationship',
        `${toTypeName(model.name)} has no relationship ${quoteInput(name)}.`,
        { source: { pointer: '/ref/relationship' } },
      );
    return field;
  }

  private selection(context: AtomicContext, model: ModelMeta) {
    return buildSelection(this.registry, model, NO_INCLUDE, policiesOf(context.client));
  }

  private document(): CompoundDocument {
    return new CompoundDocument({
      registry: this.registry,
      endpoint: this.options.endpoint,
      idDivider: this.options.idDivider,
      fieldsets: new Map(),
    });
  }

  private delegate(client: PrismaClientLike, model: ModelMeta): Partial<Delegate> {
    return client[this.registry.delegateName(model)] as Partial<Delegate>;
  }
}

function invalid(message: string, pointer: string): CrudApiError {
  return new CrudApiError('invalid-payload', message, { source: { pointer } });
}
