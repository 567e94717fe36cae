import { Delete, Get, Inject, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';

import type { InterfaceBehaviour } from '../lifecycle/pipeline/exchange.js';
import { RequestServer } from '../lifecycle/request-server.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import { REST_OPERATIONS, type RestOperationName } from '../metadata/rest-operations.js';
import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { REST_COLLECTION_ROUTE } from '../options/interface-mounts.js';
import type { ApiRequest } from '../shared/api-request.js';
import type { ApiResponse, PlatformResponse } from '../shared/api-response.js';
import { HISTORY_ROUTE, RESTORE_VERSION_ROUTE } from '../shared/history.constants.js';
import { RESTORE_ROUTE } from '../shared/soft-delete.constants.js';
import { ATOMIC_MEDIA_TYPE, ATOMIC_ROUTE } from './atomic/atomic.constants.js';
import { negotiateAtomic } from './atomic/atomic-negotiation.js';
import { AtomicOperationsService } from './atomic/atomic-operations.service.js';
import { negotiate } from './content-negotiation.js';
import { JSON_API_MEDIA_TYPE } from './json-api.constants.js';
import { RestService } from './rest.service.js';
import { restBehaviour } from './rest-behaviour.js';

type Params = Record<string, string>;

/**
 * The JSON:API routes, on Express or Fastify. Thin: every route describes the request, hands it
 * to `RestService` and writes what it returns. Collection and resource routes come first (Express
 * tries routes in order, and these serve most requests); relationship routes come before related
 * ones so that `relationships` is never taken for a relationship name, and so does the history route. Mounted per module instance
 * by `mountController`.
 */
export class RestController {
  private readonly behaviour: InterfaceBehaviour;

  constructor(
    @Inject(RestService) private readonly rest: RestService,
    @Inject(AtomicOperationsService) private readonly atomic: AtomicOperationsService,
    @Inject(ModelRegistry) private readonly registry: ModelRegistry,
    @Inject(RequestServer) private readonly server: RequestServer,
    @Inject(CRUD_API_OPTIONS) options: ResolvedCrudApiOptions,
  ) {
    this.behaviour = restBehaviour(options, registry);
  }

  /** JSON:API Atomic Operations; declared before `POST :type`, so no resource type can be called `operations`. */
  @Post(ATOMIC_ROUTE)
  operations(@Req() req: any, @Res() res: PlatformResponse): Promise<void> {
    const run = (request: ApiRequest) => {
      negotiateAtomic(request);
      return this.atomic.run(request);
    };
    const scope = { interface: 'rest' as const, operation: REST_OPERATIONS.atomic.name };
    return this.server.serve(req, res, scope, run, ATOMIC_MEDIA_TYPE, this.behaviour);
  }

  @Get(':type/:id')
  fetch(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.fetch.name, p.type!, (api) => this.rest.fetch(api, p.type!, p.id!));
  }

  @Get(REST_COLLECTION_ROUTE)
  list(@Req() req: any, @Res() res: PlatformResponse, @Param('type') type: string) {
    return this.send(req, res, REST_OPERATIONS.list.name, type, (api) => this.rest.list(api, type));
  }

  @Post(':type')
  create(@Req() req: any, @Res() res: PlatformResponse, @Param('type') type: string) {
    return this.send(req, res, REST_OPERATIONS.create.name, type, (api) => this.rest.create(api, type));
  }

  @Patch(':type/:id')
  patch(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.update.name, p.type!, (api) => this.rest.update(api, p.type!, p.id!));
  }

  @Put(':type/:id')
  put(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.update.name, p.type!, (api) => this.rest.update(api, p.type!, p.id!));
  }

  @Delete(':type/:id')
  delete(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.delete.name, p.type!, (api) => this.rest.delete(api, p.type!, p.id!));
  }

  /** The only POST with three segments: no relationship or related route can be taken for it. */
  @Post(`:type/:id/${RESTORE_ROUTE}`)
  restore(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    const run = (api: ApiRequest) => this.rest.restore(api, p.type!, p.id!);
    return this.send(req, res, REST_OPERATIONS.restore.name, p.type!, run, { takesDocument: false });
  }

  /** Puts a resource back to a version; five segments, so no other POST route can be taken for it. */
  @Post(`:type/:id/${HISTORY_ROUTE}/:version/${RESTORE_VERSION_ROUTE}`)
  restoreVersion(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    const run = (api: ApiRequest) => this.rest.restoreVersion(api, p.type!, p.id!, p.version!);
    return this.send(req, res, REST_OPERATIONS.restoreVersion.name, p.type!, run, { takesDocument: false });
  }

  @Get(':type/:id/relationships/:relationship/:relatedId')
  fetchToOneRelationship(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.relationship.name, p.type!, (api) =>
      this.rest.fetchRelationship(api, p.type!, p.id!, p.relationship!, p.relatedId),
    );
  }

  @Get(':type/:id/relationships/:relationship')
  fetchRelationship(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.relationship.name, p.type!, (api) =>
      this.rest.fetchRelationship(api, p.type!, p.id!, p.relationship!),
    );
  }

  @Post(':type/:id/relationships/:relationship')
  addToRelationship(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.relationshipAdd.name, p.type!, (api) =>
      this.rest.changeRelationship(api, 'add', p.type!, p.id!, p.relationship!),
    );
  }

  @Patch(':type/:id/relationships/:relationship')
  replaceRelationship(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.relationshipReplace.name, p.type!, (api) =>
      this.rest.changeRelationship(api, 'replace', p.type!, p.id!, p.relationship!),
    );
  }

  @Delete(':type/:id/relationships/:relationship')
  removeFromRelationship(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.relationshipRemove.name, p.type!, (api) =>
      this.rest.changeRelationship(api, 'remove', p.type!, p.id!, p.relationship!),
    );
  }

  /**
   * A resource's versions; before the related route, which it would otherwise be taken for. On a
   * type without history it serves a relationship named `history`, if there is one.
   */
  @Get(`:type/:id/${HISTORY_ROUTE}`)
  history(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.history.name, p.type!, (api) => this.rest.history(api, p.type!, p.id!));
  }

  @Get(':type/:id/:relationship/:relatedId')
  fetchToOneRelated(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.related.name, p.type!, (api) =>
      this.rest.fetchRelated(api, p.type!, p.id!, p.relationship!, p.relatedId),
    );
  }

  @Get(':type/:id/:relationship')
  fetchRelated(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, REST_OPERATIONS.related.name, p.type!, (api) =>
      this.rest.fetchRelated(api, p.type!, p.id!, p.relationship!),
    );
  }

  /**
   * Serves one route of `type`: negotiates the media types before the service runs (a route that
   * `takesDocument: false` needs no `Content-Type`), then writes its response.
   */
  private send(
    req: any,
    res: PlatformResponse,
    operation: RestOperationName,
    type: string,
    run: (request: ApiRequest) => Promise<ApiResponse>,
    { takesDocument }: { takesDocument?: boolean } = {},
  ): Promise<void> {
    const scope = { interface: 'rest' as const, operation, model: this.registry.findByTypeName(type)?.name };
    const negotiated = (request: ApiRequest) => {
      negotiate(request, takesDocument);
      return run(request);
    };
    return this.server.serve(req, res, scope, negotiated, JSON_API_MEDIA_TYPE, this.behaviour);
  }
}
