import { Delete, Get, Inject, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';

import { type ApiRequest, toApiRequest } from '../shared/api-request.js';
import { type ApiResponse, type PlatformResponse, sendApiResponse } from '../shared/api-response.js';
import { ATOMIC_MEDIA_TYPE, ATOMIC_ROUTE } from './atomic/atomic.constants.js';
import { negotiateAtomic } from './atomic/atomic-negotiation.js';
import { AtomicOperationsService } from './atomic/atomic-operations.service.js';
import { negotiate } from './content-negotiation.js';
import { JSON_API_MEDIA_TYPE } from './json-api.constants.js';
import { RestService } from './rest.service.js';

type Params = Record<string, string>;

/**
 * The JSON:API routes, on Express or Fastify. Thin: every route describes the request, hands it
 * to `RestService` and writes what it returns. Relationship routes come first so `relationships`
 * is never taken for a relationship name. Mounted per module instance by `mountController`.
 */
export class RestController {
  constructor(
    @Inject(RestService) private readonly rest: RestService,
    @Inject(AtomicOperationsService) private readonly atomic: AtomicOperationsService,
  ) {}

  /** JSON:API Atomic Operations; declared before `POST :type`, so no resource type can be called `operations`. */
  @Post(ATOMIC_ROUTE)
  async operations(@Req() req: any, @Res() res: PlatformResponse): Promise<void> {
    const request = toApiRequest(req);
    negotiateAtomic(request);
    sendApiResponse(res, await this.atomic.run(request), ATOMIC_MEDIA_TYPE);
  }

  @Get(':type/:id/relationships/:relationship/:relatedId')
  fetchToOneRelationship(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, (api) => this.rest.fetchRelationship(api, p.type!, p.id!, p.relationship!, p.relatedId));
  }

  @Get(':type/:id/relationships/:relationship')
  fetchRelationship(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, (api) => this.rest.fetchRelationship(api, p.type!, p.id!, p.relationship!));
  }

  @Post(':type/:id/relationships/:relationship')
  addToRelationship(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, (api) => this.rest.changeRelationship(api, 'add', p.type!, p.id!, p.relationship!));
  }

  @Patch(':type/:id/relationships/:relationship')
  replaceRelationship(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, (api) => this.rest.changeRelationship(api, 'replace', p.type!, p.id!, p.relationship!));
  }

  @Delete(':type/:id/relationships/:relationship')
  removeFromRelationship(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, (api) => this.rest.changeRelationship(api, 'remove', p.type!, p.id!, p.relationship!));
  }

  @Get(':type/:id/:relationship/:relatedId')
  fetchToOneRelated(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, (api) => this.rest.fetchRelated(api, p.type!, p.id!, p.relationship!, p.relatedId));
  }

  @Get(':type/:id/:relationship')
  fetchRelated(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, (api) => this.rest.fetchRelated(api, p.type!, p.id!, p.relationship!));
  }

  @Get(':type/:id')
  fetch(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, (api) => this.rest.fetch(api, p.type!, p.id!));
  }

  @Get(':type')
  list(@Req() req: any, @Res() res: PlatformResponse, @Param('type') type: string) {
    return this.send(req, res, (api) => this.rest.list(api, type));
  }

  @Post(':type')
  create(@Req() req: any, @Res() res: PlatformResponse, @Param('type') type: string) {
    return this.send(req, res, (api) => this.rest.create(api, type));
  }

  @Patch(':type/:id')
  patch(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, (api) => this.rest.update(api, p.type!, p.id!));
  }

  @Put(':type/:id')
  put(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, (api) => this.rest.update(api, p.type!, p.id!));
  }

  @Delete(':type/:id')
  delete(@Req() req: any, @Res() res: PlatformResponse, @Param() p: Params) {
    return this.send(req, res, (api) => this.rest.delete(api, p.type!, p.id!));
  }

  /** Negotiates the media types before the service runs, then writes its response. */
  private async send(
    req: any,
    res: PlatformResponse,
    run: (request: ApiRequest) => Promise<ApiResponse>,
  ): Promise<void> {
    const request = toApiRequest(req);
    negotiate(request);
    sendApiResponse(res, await run(request), JSON_API_MEDIA_TYPE);
  }
}
