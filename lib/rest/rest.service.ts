import { Inject, Injectable } from '@nestjs/common';

import { badSwitch, deletedRowsClient, softDeletedOn } from '../data/deleted-rows.js';
import { PrismaClientResolver } from '../data/prisma-client.resolver.js';
import { transactionBounds } from '../data/run-in-transaction.js';
import { CrudApiError } from '../errors/crud-api.error.js';
import { quoteInput } from '../errors/quote-input.js';
import { conditionalWrite } from '../filters/conditional-write.js';
import { idSelect } from '../metadata/id-select.js';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { ModelRegistry, toTypeName } from '../metadata/model-registry.js';
import type { PrismaOperationName } from '../metadata/prisma-operations.js';
import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { parentCheckedWhere } from '../policies/foreign-key-guards.js';
import { policiesOf } from '../policies/with-policies.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import type { ApiRequest } from '../shared/api-request.js';
import type { ApiResponse } from '../shared/api-response.js';
import { HISTORY_ROUTE } from '../shared/history.constants.js';
import { HARD_DELETE_PARAMETER, SOFT_DELETE_FLAG, WITH_DELETED_PARAMETER } from '../shared/soft-delete.constants.js';
import { inChildSpan } from '../telemetry/child-span.js';
import { SPANS } from '../telemetry/telemetry.constants.js';
import {
  collectionHeaders,
  collectionMeta,
  type CollectionPage,
  loadCollectionPage,
  type PageSource,
} from './pagination/collection-page.js';
import { chooseCount, type CountChoice } from './pagination/count-strategy.js';
import { estimateTableRows, estimationAllowed } from './pagination/estimate-count.js';
import { withItemCursors, withKeysetFields } from './pagination/keyset-rows.js';
import { historyQuery } from './query/history-query.js';
import { frozenQuery, type QueryRoute, type ReadQuery, readQuery } from './query/read-query.js';
import type { SoftDeleteParameters } from './query/soft-delete-parameters.js';
import { formatResourceId, uniqueWhere } from './resource-id.js';
import { assertReferencesExist, findResource } from './resources/find-resource.js';
import { modelDelegate, type Row } from './resources/model-delegate.js';
import { foreignKeyWhere, relationWhere } from './resources/related-rows.js';
import { type ResourceContext, visibleFields, writeScope } from './resources/resource-context.js';
import { pastSelection, resourceDocument, resourceSelection } from './resources/resource-document.js';
import {
  historyNotRecorded,
  pastRead,
  readVersions,
  recordsHistory,
  versionNumber,
} from './resources/resource-history.js';
import {
  assertOperationAllowed,
  relationshipField,
  resourceModel,
  type ResourceTarget,
  resourceTarget,
} from './resources/resource-target.js';
import { runWrite } from './resources/write-failure.js';
import type { Selection } from './serialize/build-selection.js';
import { CompoundDocument } from './serialize/compound-document.js';
import { buildPaginationLinks } from './serialize/pagination-links.js';
import { relationshipLinks, requestUrl, resourceUrl } from './serialize/resource-links.js';
import { resourceShape } from './serialize/resource-shape.js';
import { versionsDocument } from './serialize/version-resources.js';
import { assertRequiredMembers } from './write/assert-required-members.js';
import { assertNoDocument } from './write/document-members.js';
import { withIssuePointers } from './write/issue-pointers.js';
import { documentData, parseResourceDocument, type ResourceWrite } from './write/parse-resource-document.js';
import {
  parseRelationshipWrite,
  type RelationshipChange,
  type RelationshipWrite,
  writableRelationship,
} from './write/relationship-data.js';

export type { RelationshipChange } from './write/relationship-data.js';

/** How `deleteResource` deletes: as the model's rules say (a soft-deleted model marks the row), or for good. */
export type DeleteMode = 'delete' | 'hardDelete';

const READ_ONE: QueryRoute = { collection: false, kind: 'read' };
const WRITE_ONE: QueryRoute = { collection: false, kind: 'write' };

/** The query of the representation of a resource with its deleted rows: what a restore's `If-Match` compares with. */
const WITH_DELETED_ROWS = `${WITH_DELETED_PARAMETER}=${SOFT_DELETE_FLAG}`;

/**
 * The JSON:API routes and the resource operations behind them. Replace it with a subclass to
 * customize them: the resource operations (`createResource`, `updateResource`, `deleteResource`,
 * `updateRelationship`) are what single-resource routes, relationship routes and atomic
 * operations all call, so an override applies to each of them.
 *
 * @remarks For subclasses: pass the subclass as the `restService` extra of `forRoot`/`forRootAsync`.
 */
@Injectable()
export class RestService {
  private readonly emptyQueries = new Map<ModelMeta, Map<string, ReadQuery>>();

  constructor(
    @Inject(CRUD_API_OPTIONS) protected readonly options: ResolvedCrudApiOptions,
    protected readonly registry: ModelRegistry,
    protected readonly clients: PrismaClientResolver,
  ) {}

  /** `GET /:type`; with `asOf`, the collection as it was then. */
  async list(req: ApiRequest, type: string): Promise<ApiResponse> {
    const model = resourceModel(this.registry, type, 'findMany');
    const { client, query } = await this.read(req, model, true, true);
    const page = await this.page(
      req,
      client,
      model,
      query,
      query.where,
      this.readSelection(client, model, query),
      type,
    );
    return this.collection(model, page, query, type);
  }

  /** `GET /:type/:id`; with `asOf`, the resource as it was then (404 if it did not exist). */
  async fetch(req: ApiRequest, type: string, id: string): Promise<ApiResponse> {
    const target = this.target(type, id, 'findUnique');
    const { client, query } = await this.read(req, target.model, false, true);
    const selection = this.readSelection(client, target.model, query);
    const past = pastRead(this.registry, client, target.model, query.asOf);
    const row = await findResource(this.registry, client, target, selection, past);
    return this.resourceResponse(target.model, row, query, `${type}/${id}`);
  }

  /**
   * `GET /:type/:id/history`: the resource's versions, newest first, of a type that records its
   * history; on any other type, the related resources of a relationship of that name, if it has one
   * (404 otherwise).
   */
  async history(req: ApiRequest, type: string, id: string): Promise<ApiResponse> {
    const model = resourceModel(this.registry, type, 'findUnique');
    const requested = await this.clients.forRequest(req);
    if (!recordsHistory(this.registry, requested, model)) {
      if (this.registry.findField(model, HISTORY_ROUTE)?.relation)
        return this.fetchRelated(req, type, id, HISTORY_ROUTE);
      throw historyNotRecorded(type);
    }
    const target = this.target(type, id, 'history');
    const query = inChildSpan(SPANS.parse, () => historyQuery(req.query, this.options));
    const client = this.applyWithDeleted(requested, query);
    const { versions, hasNext } = await readVersions(this.registry, client, target, query);
    return inChildSpan(SPANS.serialize, () => {
      const path = `${type}/${id}/${HISTORY_ROUTE}`;
      const self = requestUrl(this.options.endpoint, path, query.search);
      const related = resourceUrl(
        this.options.endpoint,
        type,
        formatResourceId(target.model, target.id, this.options.idDivider),
      );
      const pages = buildPaginationLinks(this.urlWithoutQuery(self), query.search, query.page, undefined, hasNext);
      const links = { self, related, ...pages };
      return { status: 200, body: versionsDocument(resourceShape(this.registry, target.model), versions, links) };
    });
  }

  async fetchRelated(
    req: ApiRequest,
    type: string,
    id: string,
    relationship: string,
    relatedId?: string,
  ): Promise<ApiResponse> {
    const target = this.target(type, id, 'findUnique');
    const field = relationshipField(this.registry, target.model, relationship, { idForm: relatedId !== undefined });
    const related = this.relatedModel(field);
    const { client, query } = await this.read(req, related, field.isList);
    const path = [type, id, relationship, ...(relatedId === undefined ? [] : [relatedId])].join('/');
    if (field.isList) {
      return this.collection(
        related,
        await this.loadToMany(req, client, target, field, query, this.selection(client, related, query), path),
        query,
        path,
      );
    }
    const row = await this.loadToOne(client, target, field, relatedId, this.selection(client, related, query));
    return inChildSpan(SPANS.serialize, () => {
      const document = this.compound(query);
      const data = row ? document.primaryResource(related, row, query.include) : null;
      const self = requestUrl(this.options.endpoint, path, query.search);
      return { status: 200, body: document.document(data, { self }, query.include) };
    });
  }

  async fetchRelationship(
    req: ApiRequest,
    type: string,
    id: string,
    relationship: string,
    relatedId?: string,
  ): Promise<ApiResponse> {
    const target = this.target(type, id, 'findUnique');
    const field = relationshipField(this.registry, target.model, relationship, { idForm: relatedId !== undefined });
    return this.linkage(req, await this.clients.forRequest(req), target, field, relatedId);
  }

  async create(req: ApiRequest, type: string): Promise<ApiResponse> {
    const model = resourceModel(this.registry, type, 'create');
    const context = await this.context(req);
    const query = this.query(req, context.client, model, WRITE_ONE);
    const write = inChildSpan(SPANS.parse, () => parseResourceDocument(context.scope, model, req.body));
    const row = await this.createResource(context, model, write, this.selection(context.client, model, query));
    return inChildSpan(SPANS.serialize, () => {
      const document = this.compound(query);
      const data = document.primaryResource(model, row, query.include);
      return {
        status: 201,
        headers: { Location: data.links.self },
        body: document.document(data, { self: data.links.self }, query.include),
      };
    });
  }

  async update(req: ApiRequest, type: string, id: string): Promise<ApiResponse> {
    const target = this.target(type, id, 'update');
    const context = await this.context(req);
    const query = this.query(req, context.client, target.model, WRITE_ONE);
    const write = inChildSpan(SPANS.parse, () =>
      parseResourceDocument(context.scope, target.model, req.body, target.id),
    );
    const selection = this.selection(context.client, target.model, query);
    return this.conditionally(context, this.resourceRepresentation(req, target, `${type}/${id}`), async (written) => {
      const row = await this.updateResource(written, target, write, selection);
      return this.resourceResponse(target.model, row, query, `${type}/${id}`);
    });
  }

  /**
   * `DELETE /:type/:id`, as the model's rules say (a soft-deleted model marks the row deleted);
   * with `hardDelete=true`, on a soft-deleted model, for good, and with `withDeleted=true` too, a
   * row already deleted as well.
   */
  async delete(req: ApiRequest, type: string, id: string): Promise<ApiResponse> {
    const target = this.target(type, id, 'delete');
    const requested = await this.context(req);
    const query = this.query(req, requested.client, target.model, { collection: false, kind: 'delete' });
    if (query.hardDelete) this.assertHardDeletable(requested.client, target);
    const context = { ...requested, client: this.applyWithDeleted(requested.client, query) };
    const path = `${type}/${id}`;
    const mode: DeleteMode = query.hardDelete ? 'hardDelete' : 'delete';
    return this.conditionally(context, this.resourceRepresentation(req, target, path, query), async (written) => {
      await this.deleteResource(written, target, mode);
      return { status: 204 };
    });
  }

  /**
   * `POST /:type/:id/restore`: brings back a deleted resource of a soft-deleted type (with what was
   * deleted with it) and answers its document, as `PATCH` does. Its `If-Match` is compared with the
   * representation `GET /:type/:id?withDeleted=true` answers.
   */
  async restore(req: ApiRequest, type: string, id: string): Promise<ApiResponse> {
    const target = this.target(type, id, 'restore');
    const context = await this.context(req);
    if (!this.softDeleted(context.client, target.model)) {
      throw new CrudApiError('not-found', `${type} resources are not soft-deleted: none can be restored.`);
    }
    const query = this.query(req, context.client, target.model, WRITE_ONE);
    inChildSpan(SPANS.parse, () => assertNoDocument(req.body));
    const selection = this.selection(context.client, target.model, query);
    const path = `${type}/${id}`;
    const current = this.resourceRepresentation(req, target, path, { withDeleted: true });
    return this.conditionally(context, current, async (written) => {
      const row = await this.restoreResource(written, target, selection);
      return this.resourceResponse(target.model, row, query, path);
    });
  }

  /**
   * `POST /:type/:id/history/:version/restore`: puts the resource back to one of its versions (an
   * update, recorded as a version of its own) and answers its document, as `PATCH` does; its
   * `If-Match` is compared with the representation `GET /:type/:id` answers.
   */
  async restoreVersion(req: ApiRequest, type: string, id: string, version: string): Promise<ApiResponse> {
    const target = this.target(type, id, 'restoreVersion');
    const context = await this.context(req);
    if (!recordsHistory(this.registry, context.client, target.model)) throw historyNotRecorded(type);
    const number = versionNumber(version);
    const query = this.query(req, context.client, target.model, WRITE_ONE);
    inChildSpan(SPANS.parse, () => assertNoDocument(req.body));
    const selection = this.selection(context.client, target.model, query);
    const path = `${type}/${id}`;
    return this.conditionally(context, this.resourceRepresentation(req, target, path), async (written) => {
      const row = await runWrite(written, { model: target.model, target, references: [] }, () =>
        modelDelegate(this.registry, written.client, target.model).restoreVersion!({
          where: uniqueWhere(target.model, target.id),
          version: number,
          ...selection,
        }),
      );
      return this.resourceResponse(target.model, row, query, path);
    });
  }

  async changeRelationship(
    req: ApiRequest,
    change: RelationshipChange,
    type: string,
    id: string,
    relationship: string,
  ): Promise<ApiResponse> {
    const target = this.target(type, id, 'update');
    const field = relationshipField(this.registry, target.model, relationship);
    if (change !== 'replace' && !field.isList) {
      throw new CrudApiError('invalid-request', `"${relationship}" is a to-one relationship: replace it with PATCH.`);
    }
    const context = await this.context(req);
    // The answer is the linkage, read with the query given; refused before anything is written.
    this.query(req, context.client, this.relatedModel(field), { collection: field.isList, kind: 'write' });
    const writable = writableRelationship(context.scope, target.model, field);
    const write = inChildSpan(SPANS.parse, () =>
      parseRelationshipWrite(context.scope, writable, change, documentData(context.scope, req.body), '/data'),
    );
    const linkage = (tx: PrismaClientLike, request = req) => this.linkage(request, tx, target, field);
    const run = async (written: ResourceContext) => {
      await this.updateRelationship(written, target, write);
      return linkage(written.client);
    };
    if (req.headers['if-match'] !== undefined) {
      return this.conditionally(context, async (tx) => (await linkage(tx, { ...req, query: '' })).body, run);
    }
    return context.client.$transaction(
      (tx) => run({ ...context, client: tx }),
      transactionBounds(this.options.transactions),
    );
  }

  /**
   * Creates one resource (`POST /:type`, an atomic `add`) from its parsed document and returns the
   * row with the selection. `write.data` is the Prisma (unchecked) data: an override may fill
   * defaults there before calling `super`, which checks that every required member is given.
   */
  async createResource(
    context: ResourceContext,
    model: ModelMeta,
    write: ResourceWrite,
    selection: Selection,
  ): Promise<Row> {
    assertRequiredMembers(context.scope.fields, model, write.data);
    return runWrite(context, { model, clientId: write.clientId, references: write.references }, () =>
      modelDelegate(this.registry, context.client, model).create!({ data: write.data, ...selection }),
    );
  }

  /** Updates one resource (`PATCH`/`PUT /:type/:id`, an atomic `update`) and returns the row with the selection. */
  async updateResource(
    context: ResourceContext,
    target: ResourceTarget,
    write: ResourceWrite,
    selection: Selection,
  ): Promise<Row> {
    const { model } = target;
    return runWrite(context, { model, target, references: write.references }, () =>
      modelDelegate(this.registry, context.client, model).update!({
        where: uniqueWhere(model, target.id),
        data: write.data,
        ...selection,
      }),
    );
  }

  /**
   * Deletes one resource (`DELETE /:type/:id`, an atomic `remove`): as the model's rules say, or
   * with `hardDelete` (a soft-deleted model only) for good.
   */
  async deleteResource(context: ResourceContext, target: ResourceTarget, mode: DeleteMode = 'delete'): Promise<void> {
    const { model } = target;
    await runWrite(context, { model, target, references: [] }, () =>
      modelDelegate(this.registry, context.client, model)[mode]!({
        where: uniqueWhere(model, target.id),
        select: idSelect(model),
      }),
    );
  }

  /**
   * Restores one deleted resource of a soft-deleted model (`POST /:type/:id/restore`) and returns
   * the row with the selection: 404 when it is not deleted or the caller may not restore it.
   */
  async restoreResource(context: ResourceContext, target: ResourceTarget, selection: Selection): Promise<Row> {
    const { model } = target;
    return runWrite(context, { model, target, references: [] }, () =>
      modelDelegate(this.registry, context.client, model).restore!({
        where: uniqueWhere(model, target.id),
        ...selection,
      }),
    );
  }

  /**
   * Adds to, replaces or removes from one relationship of a resource (the relationship routes, an
   * atomic operation with `ref.relationship`): the resource must exist (404), and so must the
   * related resources when the context explains failures. Runs in the caller's transaction.
   */
  async updateRelationship(context: ResourceContext, target: ResourceTarget, write: RelationshipWrite): Promise<void> {
    const { client } = context;
    await findResource(this.registry, client, target, { select: idSelect(target.model) });
    if (context.explainFailures) {
      await assertReferencesExist(this.registry, this.options.idDivider, client, write.references);
    }
    try {
      await modelDelegate(this.registry, client, target.model).update!({
        where: uniqueWhere(target.model, target.id),
        data: write.data,
        select: idSelect(target.model),
      });
    } catch (error) {
      // The request's data is the linkage itself.
      throw withIssuePointers(error, () => '/data');
    }
  }

  /** The relationship document: linkage of a to-one, or a paginated page of to-many linkage. */
  private async linkage(
    req: ApiRequest,
    requested: PrismaClientLike,
    target: ResourceTarget,
    field: FieldMeta,
    relatedId?: string,
  ): Promise<ApiResponse> {
    const related = this.relatedModel(field);
    const query = this.query(req, requested, related, { collection: field.isList, kind: 'read' });
    const client = this.applyWithDeleted(requested, query);
    if (query.include.size) {
      throw new CrudApiError(
        'invalid-query-parameter',
        'Relationship endpoints return linkage only; use the related resource URL to include.',
        {
          source: { parameter: 'include' },
        },
      );
    }
    const resourceSelf = resourceUrl(
      this.options.endpoint,
      target.type,
      formatResourceId(target.model, target.id, this.options.idDivider),
    );
    const document = this.compound(query);
    const path = [
      target.type,
      target.rawId,
      'relationships',
      field.name,
      ...(relatedId === undefined ? [] : [relatedId]),
    ].join('/');
    const self = requestUrl(this.options.endpoint, path, query.search);
    if (field.isList) {
      const page = await this.loadToMany(
        req,
        client,
        target,
        field,
        query,
        { select: withKeysetFields(idSelect(related), query.keyset) },
        path,
      );
      return inChildSpan(SPANS.serialize, () => {
        const data = withItemCursors(
          page.rows.map((row) => document.identifier(related, row)),
          page.cursors,
        );
        const links = { self, related: relationshipLinks(resourceSelf, field.name).related, ...page.links };
        return {
          status: 200,
          headers: collectionHeaders(page, page.choice),
          body: document.document(data, links, query.include, collectionMeta(page, page.choice)),
        };
      });
    }
    const row = await this.loadToOne(client, target, field, relatedId, { select: idSelect(related) });
    return inChildSpan(SPANS.serialize, () => {
      const data = row ? document.identifier(related, row) : null;
      const links = { self, related: relationshipLinks(resourceSelf, field.name, data?.id).related };
      return { status: 200, body: document.document(data, links, query.include) };
    });
  }

  /**
   * One page of a to-many relationship's related resources, plus their total; 404 when the parent
   * does not exist or the caller may not read it. Where the related rows hold the foreign key, they
   * are read by it. Rows prove their parent exists, so it is looked up only for an empty page, unless
   * rows may be hidden (policies, a per-request client): readable rows do not prove a readable parent.
   */
  private async loadToMany(
    req: ApiRequest,
    client: PrismaClientLike,
    target: ResourceTarget,
    field: FieldMeta,
    query: ReadQuery,
    selection: Selection,
    path: string,
  ) {
    const related = this.relatedModel(field);
    assertOperationAllowed(this.registry, related, 'findMany');
    const opposite = this.registry.findField(related, field.relation!.oppositeField ?? '');
    if (!opposite)
      throw new CrudApiError('internal-error', `Relation ${target.model.name}.${field.name} has no opposite field.`);
    const byKey = foreignKeyWhere(target, opposite);
    const findParent = () => findResource(this.registry, client, target, { select: idSelect(target.model) });
    if (byKey && this.rowsMayBeHidden(client)) {
      // One lookup of the parent, alongside the page, instead of the parent's read rule joined to
      // every row; an error of the page itself still answers first, as on the other path.
      const parent = findParent();
      parent.catch(() => undefined);
      const page = await this.page(
        req,
        client,
        related,
        query,
        this.and(parentCheckedWhere(byKey), query.where),
        selection,
        path,
      );
      await parent;
      return page;
    }
    const back = byKey ?? relationWhere(target, opposite);
    const page = await this.page(req, client, related, query, this.and(back, query.where), selection, path);
    // An empty page may mean a missing parent, which is a 404; rows prove it exists (and is readable).
    if (!page.rows.length) await findParent();
    return page;
  }

  /** One page of a collection (offset or cursor), counted as the request and the `count` option ask (lib/rest/pagination). */
  private async page(
    req: ApiRequest,
    client: PrismaClientLike,
    model: ModelMeta,
    query: ReadQuery,
    where: Row | undefined,
    selection: Selection,
    path: string,
  ) {
    const choice = chooseCount(req.headers.prefer, this.options.count, query.page.kind === 'cursor');
    const delegate = modelDelegate(this.registry, client, model);
    // The table's estimate is of today's rows: a read as of a past time is counted exactly.
    const estimate =
      !query.asOf &&
      estimationAllowed({
        provider: this.registry.provider,
        rowsMayBeHidden: this.rowsMayBeHidden(client),
        filtered: where !== undefined,
      });
    const past = pastRead(this.registry, client, model, query.asOf);
    const source: PageSource = {
      findMany: (args) => delegate.findMany!({ ...args, ...past }),
      count: (args) => delegate.count!({ ...args, ...past }),
      ...(estimate ? { estimate: () => estimateTableRows(client, model) } : {}),
    };
    const baseUrl = this.urlWithoutQuery(requestUrl(this.options.endpoint, path, query.search));
    const request = { where, orderBy: query.orderBy, selection, count: choice.strategy, baseUrl, search: query.search };
    return { ...(await loadCollectionPage(source, request, query)), choice };
  }

  /** The related row of a to-one relationship; with `relatedId` (the link form ending in the id) it must match. */
  private async loadToOne(
    client: PrismaClientLike,
    target: ResourceTarget,
    field: FieldMeta,
    relatedId: string | undefined,
    selection: Selection,
  ): Promise<Row | null> {
    const related = this.relatedModel(field);
    const parent = await findResource(this.registry, client, target, {
      select: { [field.name]: Object.keys(selection).length ? selection : true },
    });
    const row = parent[field.name] as Row | null;
    if (
      relatedId !== undefined &&
      (!row || String(formatResourceId(related, row, this.options.idDivider)) !== relatedId)
    ) {
      throw new CrudApiError(
        'not-found',
        `${target.type} ${quoteInput(target.rawId)} is not related to ${toTypeName(related.name)} ${quoteInput(relatedId)} through "${field.name}".`,
      );
    }
    return row;
  }

  private collection(
    model: ModelMeta,
    page: CollectionPage & { choice: CountChoice },
    query: ReadQuery,
    path: string,
  ): ApiResponse {
    return inChildSpan(SPANS.serialize, () => {
      const document = this.compound(query);
      const data = withItemCursors(
        page.rows.map((row) => document.primaryResource(model, row, query.include)),
        page.cursors,
      );
      const links = { self: requestUrl(this.options.endpoint, path, query.search), ...page.links };
      return {
        status: 200,
        headers: collectionHeaders(page, page.choice),
        body: document.document(data, links, query.include, collectionMeta(page, page.choice)),
      };
    });
  }

  /** One resource's document, linked to the URL it was asked at (`type/id`, with the query). */
  private resourceResponse(model: ModelMeta, row: Row, query: ReadQuery, path: string): ApiResponse {
    return inChildSpan(SPANS.serialize, () => {
      const document = this.compound(query);
      const data = document.primaryResource(model, row, query.include);
      const self = requestUrl(this.options.endpoint, path, query.search);
      return { status: 200, body: document.document(data, { self }, query.include) };
    });
  }

  /**
   * Runs a single-resource write under the request's `If-Match` (`conditionalWrite`): in one
   * transaction with the read of `current`, the representation the client's tag was taken from.
   * Without the header, on the request's client as before.
   */
  private conditionally(
    context: ResourceContext,
    current: (tx: PrismaClientLike) => Promise<unknown>,
    write: (written: ResourceContext) => Promise<ApiResponse>,
  ): Promise<ApiResponse> {
    const { request } = context;
    const inTransaction = (tx: PrismaClientLike) =>
      tx === context.client ? context : { ...context, client: tx, inTransaction: true };
    return conditionalWrite(request, context.client, this.options.transactions, current, (tx) =>
      write(inTransaction(tx)),
    );
  }

  /**
   * The body `GET /:type/:id` answers at `path` without query parameters (but `withDeleted=true`
   * when the write is about deleted rows), read on the transaction given: what an `If-Match` tag is
   * compared with.
   */
  private resourceRepresentation(
    req: ApiRequest,
    target: ResourceTarget,
    path: string,
    { withDeleted }: Pick<SoftDeleteParameters, 'withDeleted'> = { withDeleted: false },
  ): (tx: PrismaClientLike) => Promise<unknown> {
    const search = withDeleted ? WITH_DELETED_ROWS : '';
    return async (tx) => {
      const plain = this.query({ ...req, query: search }, tx, target.model, READ_ONE);
      const client = this.applyWithDeleted(tx, plain);
      const row = await findResource(this.registry, client, target, this.selection(client, target.model, plain));
      return this.resourceResponse(target.model, row, plain, path).body;
    };
  }

  /** What the resource operations of this request run with: its client, which may be the transaction it runs in. */
  private async context(req: ApiRequest): Promise<ResourceContext> {
    const client = await this.clients.forRequest(req);
    const scope = writeScope(this.registry, this.options, client);
    return { request: req, client, scope, explainFailures: true, inTransaction: this.clients.inTransaction(req) };
  }

  /** The resource a URL names, if `operation` is allowed on its type. */
  private target(type: string, id: string, operation: PrismaOperationName): ResourceTarget {
    return resourceTarget(resourceModel(this.registry, type, operation), id, this.options.idDivider);
  }

  private relatedModel(field: FieldMeta): ModelMeta {
    return this.registry.findByModelName(field.type)!;
  }

  /**
   * The query parameters, parsed for the route against the fields the caller's policies let it name.
   * No parameters (most writes, many reads) parse the same for every caller: parsed once per model
   * and route, and frozen, as every request shares it.
   */
  private query(req: ApiRequest, client: PrismaClientLike, model: ModelMeta, route: QueryRoute): ReadQuery {
    return inChildSpan(SPANS.parse, () => {
      const parse = () => readQuery(visibleFields(this.registry, client), this.options, model, req.query, route);
      if (req.query !== '') return parse();
      let byRoute = this.emptyQueries.get(model);
      if (!byRoute) this.emptyQueries.set(model, (byRoute = new Map()));
      const key = route.collection ? `${route.kind} collection` : route.kind;
      let query = byRoute.get(key);
      if (!query) byRoute.set(key, (query = frozenQuery(parse())));
      return query;
    });
  }

  /**
   * A read's query parameters, and the client the read runs on (`withDeleted`); `past` for the
   * reads that take `asOf` (a collection, a resource).
   */
  private async read(
    req: ApiRequest,
    model: ModelMeta,
    collection: boolean,
    past = false,
  ): Promise<{ client: PrismaClientLike; query: ReadQuery }> {
    const requested = await this.clients.forRequest(req);
    const query = this.query(req, requested, model, { collection, kind: 'read', ...(past ? { past: true } : {}) });
    return { client: this.applyWithDeleted(requested, query), query };
  }

  /** The client to run on: with `withDeleted=true`, the one that also reads the deleted rows the caller may read. */
  private applyWithDeleted(
    client: PrismaClientLike,
    { withDeleted }: Pick<SoftDeleteParameters, 'withDeleted'>,
  ): PrismaClientLike {
    return withDeleted ? deletedRowsClient(client) : client;
  }

  /** Whether the model is soft-deleted for the request's client. */
  private softDeleted(client: PrismaClientLike, model: ModelMeta): boolean {
    return softDeletedOn(client, this.registry.delegateName(model));
  }

  /** `hardDelete=true` needs a soft-deleted model (400 otherwise) and the operation allowed (403 otherwise). */
  private assertHardDeletable(client: PrismaClientLike, target: ResourceTarget): void {
    if (!this.softDeleted(client, target.model))
      throw badSwitch(HARD_DELETE_PARAMETER, `${target.type} resources are not soft-deleted.`);
    assertOperationAllowed(this.registry, target.model, 'hardDelete');
  }

  /** What a resource document needs, less what the client's access policies hide. */
  private selection(client: PrismaClientLike, model: ModelMeta, query: ReadQuery): Selection {
    return resourceSelection(this.registry, client, model, query.include);
  }

  /** What a read loads: as `selection` says, or without relations for a read as of a past time. */
  private readSelection(client: PrismaClientLike, model: ModelMeta, query: ReadQuery): Selection {
    return query.asOf ? pastSelection(this.registry, client, model) : this.selection(client, model, query);
  }

  private compound(query: ReadQuery): CompoundDocument {
    return resourceDocument(this.registry, this.options, query.fieldsets);
  }

  /** Whether the client may hide rows from the caller (access policies, or a client of the request's own). */
  private rowsMayBeHidden(client: PrismaClientLike): boolean {
    return Boolean(this.options.policies || this.options.getPrisma || policiesOf(client));
  }

  private and(where: Row, also: Row | undefined): Row {
    return also ? { AND: [where, also] } : where;
  }

  private urlWithoutQuery(url: string): string {
    return url.split('?')[0]!;
  }
}
