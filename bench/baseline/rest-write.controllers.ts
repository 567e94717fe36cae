import { Body, Controller, Param, Patch, Post, Res } from '@nestjs/common';

import { BaselineController } from './baseline.controller.js';
import type { BaselineResponse } from './baseline-response.js';
import { notFound, postResource, resourceDocument, sendDocument } from './json-api-documents.js';

interface PostDocument {
  data: {
    attributes: { title: string; content?: string; rating?: number };
    relationships?: { author?: { data: { id: number } } };
  };
}

/** Hand-written `POST /post`. */
@Controller('api/rest')
export class RestCreateBaseline extends BaselineController {
  @Post('post')
  async create(@Res() res: BaselineResponse, @Body() body: PostDocument): Promise<void> {
    const { title, content, rating } = body.data.attributes;
    const post = await this.db.prisma.post.create({
      data: { title, content, rating, author: { connect: { id: body.data.relationships!.author!.data.id } } },
    });
    const resource = postResource(this.endpoint, post);
    sendDocument(res, 201, resourceDocument(resource.links.self, resource), { Location: resource.links.self });
  }
}

/** Hand-written `PATCH /post/:id`. */
@Controller('api/rest')
export class RestUpdateBaseline extends BaselineController {
  @Patch('post/:id')
  async update(@Res() res: BaselineResponse, @Param('id') id: string, @Body() body: PostDocument): Promise<void> {
    const { title, rating } = body.data.attributes;
    const post = await this.db.prisma.post
      .update({ where: { id: Number(id) }, data: { title, rating } })
      .catch(() => null);
    if (!post) return notFound(res);
    const resource = postResource(this.endpoint, post);
    sendDocument(res, 200, resourceDocument(resource.links.self, resource));
  }
}
