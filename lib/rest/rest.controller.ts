import { Controller, Delete, Get, Inject, Param, Patch, Post, Put, Req, Res, type Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type ApiResponse, sendApiResponse } from '../http/api-response.js';
import { negotiate } from './content-negotiation.js';
import { JSON_API_MEDIA_TYPE } from './json-api.constants.js';
import { RestService } from './rest.service.js';

/**
 * The JSON:API routes. Thin: every route hands the request to `RestService`.
 * Relationship routes come first so `relationships` is never taken for a relationship name.
 */
export class RestController {
  constructor(@Inject(RestService) private readonly rest: RestService) {}

  @Get(':type/:id/relationships/:relationship/:relatedId')
  fetchToOneRelationship(@Req() req: Request, @Res() res: Response, @Param() p: Record<string, string>) {
    return this.send(req, res, () => this.rest.fetchRelationship(req, p.type!, p.id!, p.relationship!, p.relatedId));
  }

  @Get(':type/:id/relationships/:relationship')
  fetchRelationship(@Req() req: Request, @Res() res: Response, @Param() p: Record<string, string>) {
    return this.send(req, res, () => this.rest.fetchRelationship(req, p.type!, p.id!, p.relationship!));
  }

  @Post(':type/:id/relationships/:relationship')
  addToRelationship(@Req() req: Request, @Res() res: Response, @Param() p: Record<string, string>) {
    return this.send(req, res, () => this.rest.changeRelationship(req, 'add', p.type!, p.id!, p.relationship!));
  }

  @Patch(':type/:id/relationships/:relationship')
  replaceRelationship(@Req() req: Request, @Res() res: Response, @Param() p: Record<string, string>) {
    return this.send(req, res, () => this.rest.changeRelationship(req, 'replace', p.type!, p.id!, p.relationship!));
  }

  @Delete(':type/:id/relationships/:relationship')
  removeFromRelationship(@Req() req: Request, @Res() res: Response, @Param() p: Record<string, string>) {
    return this.send(req, res, () => this.rest.changeRelationship(req, 'remove', p.type!, p.id!, p.relationship!));
  }

  @Get(':type/:id/:relationship/:relatedId')
  fetchToOneRelated(@Req() req: Request, @Res() res: Response, @Param() p: Record<string, string>) {
    return this.send(req, res, () => this.rest.fetchRelated(req, p.type!, p.id!, p.relationship!, p.relatedId));
  }

  @Get(':type/:id/:relationship')
  fetchRelated(@Req() req: Request, @Res() res: Response, @Param() p: Record<string, string>) {
    return this.send(req, res, () => this.rest.fetchRelated(req, p.type!, p.id!, p.relationship!));
  }

  @Get(':type/:id')
  fetch(@Req() req: Request, @Res() res: Response, @Param() p: Record<string, string>) {
    return this.send(req, res, () => this.rest.fetch(req, p.type!, p.id!));
  }

  @Get(':type')
  list(@Req() req: Request, @Res() res: Response, @Param('type') type: string) {
    return this.send(req, res, () => this.rest.list(req, type));
  }

  @Post(':type')
  create(@Req() req: Request, @Res() res: Response, @Param('type') type: string) {
    return this.send(req, res, () => this.rest.create(req, type));
  }

  @Patch(':type/:id')
  patch(@Req() req: Request, @Res() res: Response, @Param() p: Record<string, string>) {
    return this.send(req, res, () => this.rest.update(req, p.type!, p.id!));
  }

  @Put(':type/:id')
  put(@Req() req: Request, @Res() res: Response, @Param() p: Record<string, string>) {
    return this.send(req, res, () => this.rest.update(req, p.type!, p.id!));
  }

  @Delete(':type/:id')
  delete(@Req() req: Request, @Res() res: Response, @Param() p: Record<string, string>) {
    return this.send(req, res, () => this.rest.delete(req, p.type!, p.id!));
  }

  /** Negotiates the media types before the service runs, then writes its response. */
  private async send(req: Request, res: Response, run: () => Promise<ApiResponse>): Promise<void> {
    negotiate(req);
    sendApiResponse(res, await run(), JSON_API_MEDIA_TYPE);
  }
}

/** The controller class mounted at `path` (a subclass, so each module instance has its own route metadata). */
export function createRestController(path: string): Type<RestController> {
  class MountedRestController extends RestController {}
  Controller(path)(MountedRestController);
  return MountedRestController;
}
