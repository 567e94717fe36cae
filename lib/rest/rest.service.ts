import { Inject, Injectable } from '@nestjs/common';

import { PrismaClientResolver } from '../data/prisma-client.resolver.js';
import { CrudApiError } from '../errors/crud-api.error.js';
import { quoteInput } from '../errors/quote-input.js';
import { isPrismaKnownRequestError } from '../filters/error-description.js';
import { idSelect } from '../metadata/id-select.js';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { ModelRegistry, toTypeName } from '../metadata/model-registry.js';
import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { policiesOf } from '../policies/with-policies.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import type { ApiRequest } from '../shared/api-request.js';
import type { ApiResponse } from '../shared/api-response.js';
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
import { type ReadQuery, readQuery } from './query/read-query.js';
import { formatResourceId, type IdValues, parseResourceId, uniqueWhere } from './resource-id.js';
import { buildSelection, type Selection } from './serialize/build-selection.js';
import { CompoundDocument } from './serialize/compound-document.js';
import { relationshipLinks, requestUrl, resourceUrl } from './serialize/resource-links.js';
import { relationshipFields } from './serialize/resource-members.js';
import { VisibleFields } from './visible-fields.js';
import { documentData, parseResourceDocument } from './write/parse-resource-document.js';
import { parseLinkage, type RelatedReference, relationshipData, type WriteScope } from './write/relationship-data.js';

export type RelationshipChange = 'add' | 'replace' | 'remove';

type Row = Record<string, unknown>;
type Delegate = Record<string, (args: unknown) => Promise<any>>;

/** Where one request points: the model, the resource id and the relationship, checked. */
interface Target {
  model: ModelMeta;
  type: string;
  id: IdValues;
  rawId: string;
}

/** What a write is about, to explain its failure (see `RestService.write`). */
interface WriteSubject {
  model: ModelMeta;
  target?: Target;
  clientId?: IdValues;
  references: readonly RelatedReference[];
}

/** Prisma codes of a write that needed a row that is not there: a related one, or the target. */
const MISSING_RECORD_ERRORS: ReadonlySet<string> = new Set(['P2003', 'P2018', 'P2025']);

/** The JSON:API resource operations. Replace it with a provider of your own to customize them. */
@Injectable()
export class RestService {
  constructor(
    @Inject(CRUD_API_OPTIONS) protected readonly options: ResolvedCrudApiOptions,
    protected readonly registry: ModelRegistry,
    protected readonly clients: PrismaClientResolver,
  ) {}

  async list(req: ApiRequest, type: string): Promise<ApiResponse> {
    const model = this.model(type, 'findMany');
    const client = await this.clients.forRequest(req);
    const query = this.query(req, client, model, true);
    const page = await this.page(req, client, model, query, query.where, this.selection(client, model, query), type);
    return this.collection(model, page, query, type);
  }

  async fetch(req: ApiRequest, type: string, id: string): Promise<ApiResponse> {
    const target = this.target(type, id, 'findUnique');
    const client = await this.clients.forRequest(req);
    const query = this.query(req, client, target.model, false);
    const row = await this.findResource(client, target, this.selection(client, target.model, query));
    const document = this.compound(query);
    const data = document.primaryResource(target.model, row, query.include);
    return {
      status: 200,
      body: document.document(
        data,
        { self: requestUrl(this.options.endpoint, `${type}/${id}`, query.search) },
        query.include,
      ),
    };
  }

  async fetchRelated(
    req: ApiRequest,
    type: string,
    id: string,
    relationship: string,
    relatedId?: string,
  ): Promise<ApiResponse> {
    const target = this.target(type, id, 'findUnique');
    const field = this.relationship(target, relationship, relatedId);
    const related = this.relatedModel(field);
    const client = await this.clients.forRequest(req);
    const query = this.query(req, client, related, field.isList);
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
    const document = this.compound(query);
    const data = row ? document.primaryResource(related, row, query.include) : null;
    return {
      status: 200,
      body: document.document(data, { self: requestUrl(this.options.endpoint, path, query.search) }, query.include),
    };
  }

  async fetchRelationship(
    req: ApiRequest,
    type: string,
    id: string,
    relationship: string,
    relatedId?: string,
  ): Promise<ApiResponse> {
    const target = this.target(type, id, 'findUnique');
    const field = this.relationship(target, relationship, relatedId);
    return this.linkage(req, await this.clients.forRequest(req), target, field, relatedId);
  }

  async create(req: ApiRequest, type: string): Promise<ApiResponse> {
    const model = this.model(type, 'create');
    const client = await this.clients.forRequest(req);
    const query = this.query(req, client, model, false);
    const write = parseResourceDocument(this.writeScope(client), model, req.body);
    const selection = this.selection(client, model, query);
    const row = await this.write(client, { model, clientId: write.clientId, references: write.references }, () =>
      this.delegate(client, model).create!({ data: write.data, ...selection }),
    );
    const document = this.compound(query);
    const data = document.primaryResource(model, row, query.include);
    return {
      status: 201,
      headers: { Location: data.links.self },
      body: document.document(data, { self: data.links.self }, query.include),
    };
  }

  async update(req: ApiRequest, type: string, id: string): Promise<ApiResponse> {
    const target = this.target(type, id, 'update');
    const client = await this.clients.forRequest(req);
    const query = this.query(req, client, target.model, false);
    const write = parseResourceDocument(this.writeScope(client), target.model, req.body, target.id);
    const selection = this.selection(client, target.model, query);
    const row = await this.write(client, { model: target.model, target, references: write.references }, () =>
      this.delegate(client, target.model).update!({
        where: uniqueWhere(target.model, target.id),
        data: write.data,
        ...selection,
      }),
    );
    const document = this.compound(query);
    const data = document.primaryResource(target.model, row, query.include);
    return {
      status: 200,
      body: document.document(
        data,
        { self: requestUrl(this.options.endpoint, `${type}/${id}`, query.search) },
        query.include,
      ),
    };
  }

  async delete(req: ApiRequest, type: string, id: string): Promise<ApiResponse> {
    const target = this.target(type, id, 'delete');
    const client = await this.clients.forRequest(req);
    this.query(req, client, target.model, false);
    await this.write(client, { model: target.model, target, references: [] }, () =>
      this.delegate(client, target.model).delete!({
        where: uniqueWhere(target.model, target.id),
        select: idSelect(target.model),
      }),
    );
    return { status: 204 };
  }

  async changeRelationship(
    req: ApiRequest,
    change: RelationshipChange,
    type: string,
    id: string,
    relationship: string,
  ): Promise<ApiResponse> {
    const target = this.target(type, id, 'update');
    const field = this.relationship(target, relationship);
    if (change !== 'replace' && !field.isList) {
      throw new CrudApiError('invalid-request', `"${relationship}" is a to-one relationship: replace it with PATCH.`);
    }
    const client = await this.clients.forRequest(req);
    const scope = this.writeScope(client);
    const ids = parseLinkage(scope, field, documentData(scope, req.body), '/data');
    const data = relationshipData(scope, field, ids, change, '/data');
    return client.$transaction(async (tx) => {
      await this.findResource(tx, target, { select: idSelect(target.model) });
      await this.assertReferencesExist(
        tx,
        ids?.length ? [{ model: this.relatedModel(field), ids, pointer: '/data' }] : [],
      );
      await this.delegate(tx, target.model).update!({
        where: uniqueWhere(target.model, target.id),
        data,
        select: idSelect(target.model),
      });
      return this.linkage(req, tx, target, field);
    });
  }

  /** The relationship document: linkage of a to-one, or a paginated page of to-many linkage. */
  private async linkage(
    req: ApiRequest,
    client: PrismaClientLike,
    target: Target,
    field: FieldMeta,
    relatedId?: string,
  ): Promise<ApiResponse> {
    const related = this.relatedModel(field);
    const query = this.query(req, client, related, field.isList);
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
    }
    const row = await this.loadToOne(client, target, field, relatedId, { select: idSelect(related) });
    const data = row ? document.identifier(related, row) : null;
    const links = { self, related: relationshipLinks(resourceSelf, field.name, data?.id).related };
    return { status: 200, body: document.document(data, links, query.include) };
  }

  /** One page of a to-many relationship's related resources, plus their total. */
  private async loadToMany(
    req: ApiRequest,
    client: PrismaClientLike,
    target: Target,
    field: FieldMeta,
    query: ReadQuery,
    selection: Selection,
    path: string,
  ) {
    const related = this.relatedModel(field);
    this.allow(related, 'findMany');
    const opposite = this.registry.findField(related, field.relation!.oppositeField ?? '');
    if (!opposite)
      throw new CrudApiError('internal-error', `Relation ${target.model.name}.${field.name} has no opposite field.`);
    const back = { [opposite.name]: opposite.isList ? { some: target.id } : { is: target.id } };
    const where = query.where ? { AND: [back, query.where] } : back;
    const page = await this.page(req, client, related, query, where, selection, path);
    // An empty page may mean a missing parent, which is a 404; rows prove it exists (and is readable).
    if (!page.rows.length) await this.findResource(client, target, { select: idSelect(target.model) });
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
    const delegate = this.delegate(client, model);
    const rowsMayBeHidden = Boolean(this.options.policies || this.options.getPrisma || policiesOf(client));
    const estimate = estimationAllowed({
      provider: this.registry.provider,
      rowsMayBeHidden,
      filtered: where !== undefined,
    });
    const source: PageSource = {
      findMany: (args) => delegate.findMany!(args),
      count: (args) => delegate.count!(args),
      ...(estimate ? { estimate: () => estimateTableRows(client, model) } : {}),
    };
    const baseUrl = this.urlWithoutQuery(requestUrl(this.options.endpoint, path, query.search));
    const request = { where, orderBy: query.orderBy, selection, count: choice.strategy, baseUrl, search: query.search };
    return { ...(await loadCollectionPage(source, request, query)), choice };
  }

  /** The related row of a to-one relationship; with `relatedId` (the link form ending in the id) it must match. */
  private async loadToOne(
    client: PrismaClientLike,
    target: Target,
    field: FieldMeta,
    relatedId: string | undefined,
    selection: Selection,
  ): Promise<Row | null> {
    const related = this.relatedModel(field);
    const parent = await this.findResource(client, target, {
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
  }

  private async findResource(client: PrismaClientLike, target: Target, selection: Selection): Promise<Row> {
    const row = await this.delegate(client, target.model).findUnique!({
      where: uniqueWhere(target.model, target.id),
      ...selection,
    });
    if (!row) throw this.notFound(target);
    return row as Row;
  }

  private notFound(target: Target): CrudApiError {
    return new CrudApiError('not-found', `No ${target.type} with id ${quoteInput(target.rawId)}.`);
  }

  /**
   * Runs a create, update or delete as the one Prisma call it is (Prisma makes nested writes atomic)
   * and looks for the client-facing reason only when it fails: a taken client id (409), a missing
   * related resource (404 at its pointer), a missing target (404). Checking first would need an
   * interactive transaction around every write, which serializes writers on SQLite.
   */
  private async write<T>(client: PrismaClientLike, about: WriteSubject, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!isPrismaKnownRequestError(error)) throw error;
      const { model, clientId, target, references } = about;
      if (
        error.code === 'P2002' &&
        clientId &&
        (await this.delegate(client, model).findUnique!({
          where: uniqueWhere(model, clientId),
          select: idSelect(model),
        }))
      ) {
        throw new CrudApiError('conflict', `A ${toTypeName(model.name)} with this id already exists.`, {
          source: { pointer: '/data/id' },
        });
      }
      if (MISSING_RECORD_ERRORS.has(error.code)) {
        await this.assertReferencesExist(client, references);
        if (target) await this.findResource(client, target, { select: idSelect(target.model) });
      }
      throw error;
    }
  }

  /** 404 for the first referenced related resource that does not exist. */
  private async assertReferencesExist(
    client: PrismaClientLike,
    references: readonly RelatedReference[],
  ): Promise<void> {
    for (const reference of references) {
      const found = (await this.delegate(client, reference.model).findMany!({
        where: { OR: reference.ids },
        select: idSelect(reference.model),
      })) as Row[];
      const foundIds = new Set(
        found.map((row) => String(formatResourceId(reference.model, row, this.options.idDivider))),
      );
      const missing = reference.ids
        .map((ids) => String(formatResourceId(reference.model, ids, this.options.idDivider)))
        .find((id) => !foundIds.has(id));
      if (missing !== undefined) {
        throw new CrudApiError('not-found', `No ${toTypeName(reference.model.name)} with id ${quoteInput(missing)}.`, {
          source: { pointer: reference.pointer },
        });
      }
    }
  }

  private model(type: string, operation: string): ModelMeta {
    const model = this.registry.findByTypeName(type);
    if (!model) throw new CrudApiError('unknown-type', `Unknown resource type ${quoteInput(type)}.`);
    this.allow(model, operation);
    return model;
  }

  private allow(model: ModelMeta, operation: string): void {
    if (!this.registry.allowsOperation(model, operation)) {
      throw new CrudApiError('forbidden', `The ${operation} operation is not allowed on ${toTypeName(model.name)}.`);
    }
  }

  private target(type: string, id: string, operation: string): Target {
    const model = this.model(type, operation);
    return { model, type, id: parseResourceId(model, type, id, this.options.idDivider), rawId: id };
  }

  /** The relationship field, 404 when unknown; the link form ending in an id exists for to-one only. */
  private relationship(target: Target, name: string, relatedId?: string): FieldMeta {
    const field = relationshipFields(this.registry, target.model).find((candidate) => candidate.name === name);
    if (!field || (relatedId !== undefined && field.isList)) {
      throw new CrudApiError(
        'unknown-relationship',
        `${target.type} has no relationship ${quoteInput(name)}${relatedId === undefined ? '' : ` with an id form`}.`,
      );
    }
    return field;
  }

  private relatedModel(field: FieldMeta): ModelMeta {
    return this.registry.findByModelName(field.type)!;
  }

  /** The query parameters, parsed against the fields the caller's policies let it name. */
  private query(req: ApiRequest, client: PrismaClientLike, model: ModelMeta, collection: boolean): ReadQuery {
    return readQuery(this.visibleFields(client), this.options, model, req.query, collection);
  }

  /** What a resource document needs, less what the client's access policies hide. */
  private selection(client: PrismaClientLike, model: ModelMeta, query: ReadQuery): Selection {
    return buildSelection(this.registry, model, query.include, policiesOf(client));
  }

  private compound(query: ReadQuery): CompoundDocument {
    return new CompoundDocument({
      registry: this.registry,
      endpoint: this.options.endpoint,
      idDivider: this.options.idDivider,
      fieldsets: query.fieldsets,
    });
  }

  private writeScope(client: PrismaClientLike): WriteScope {
    return {
      fields: this.visibleFields(client),
      idDivider: this.options.idDivider,
      maxJsonDepth: this.options.limits.maxJsonDepth,
    };
  }

  private visibleFields(client: PrismaClientLike): VisibleFields {
    return new VisibleFields(this.registry, policiesOf(client));
  }

  private delegate(client: PrismaClientLike, model: ModelMeta): Partial<Delegate> {
    return client[this.registry.delegateName(model)] as Partial<Delegate>;
  }

  private urlWithoutQuery(url: string): string {
    return url.split('?')[0]!;
  }
}
