import { Controller, Get, Param, Req, Res } from '@nestjs/common';

import { BaselineController } from './baseline.controller.js';
import type { BaselineRequest, BaselineResponse } from './baseline-response.js';
import {
  collectionDocument,
  commentResource,
  knownTotal,
  notFound,
  postResource,
  requestLink,
  resourceDocument,
  sendDocument,
  userResource,
} from './json-api-documents.js';

const PAGE_SIZE = 100;

interface Page {
  query: URLSearchParams;
  offset: number;
  limit: number;
}

function pageOf(req: BaselineRequest): Page {
  const mark = req.url.indexOf('?');
  const query = new URLSearchParams(mark < 0 ? '' : req.url.slice(mark + 1));
  return {
    query,
    offset: Number(query.get('page[offset]') ?? 0),
    limit: Math.min(Number(query.get('page[limit]') ?? PAGE_SIZE), PAGE_SIZE),
  };
}

/** Hand-written `GET /post/:id`. */
@Controller('api/rest')
export class RestFetchBaseline extends BaselineController {
  @Get('post/:id')
  async fetch(@Req() req: BaselineRequest, @Res() res: BaselineResponse, @Param('id') id: string): Promise<void> {
    const post = await this.db.prisma.post.findUnique({ where: { id: Number(id) } });
    if (!post) return notFound(res);
    sendDocument(
      res,
      200,
      resourceDocument(requestLink(this.endpoint, req.originalUrl), postResource(this.endpoint, post)),
    );
  }
}

/** Hand-written `GET /post?page[limit]=20`. */
@Controller('api/rest')
export class RestListBaseline extends BaselineController {
  /** The posts listed: every one. */
  protected readonly where?: { deletedAt: null };

  @Get('post')
  async list(@Req() req: BaselineRequest, @Res() res: BaselineResponse): Promise<void> {
    const page = pageOf(req);
    const { where } = this;
    const posts = await this.db.prisma.post.findMany({
      where,
      skip: page.offset,
      take: page.limit,
      orderBy: { id: 'asc' },
    });
    const total = knownTotal(page.offset, page.limit, posts.length) ?? (await this.db.prisma.post.count({ where }));
    const data = posts.map((post) => postResource(this.endpoint, post));
    const self = requestLink(this.endpoint, req.originalUrl);
    sendDocument(res, 200, collectionDocument(self, `${this.endpoint}/post`, page.query, { ...page, total }, data));
  }
}

/** Hand-written `GET /post?page[limit]=20` of soft-deleted posts: the live ones. */
@Controller('api/rest')
export class RestListSoftDeletedBaseline extends RestListBaseline {
  protected override readonly where = { deletedAt: null } as const;
}

/** Hand-written `GET /post?include=author,comments&page[limit]=20`. */
@Controller('api/rest')
export class RestIncludeBaseline extends BaselineController {
  @Get('post')
  async list(@Req() req: BaselineRequest, @Res() res: BaselineResponse): Promise<void> {
    const page = pageOf(req);
    const posts = await this.db.prisma.post.findMany({
      skip: page.offset,
      take: page.limit,
      orderBy: { id: 'asc' },
      // Comments in id order, as a stable compound document needs.
      include: { author: { include: { profile: { select: { id: true } } } }, comments: { orderBy: { id: 'asc' } } },
    });
    const total = knownTotal(page.offset, page.limit, posts.length) ?? (await this.db.prisma.post.count());
    // Each post's author (once) then its comments, in the order the page meets them.
    const authors = new Set<number>();
    const included: unknown[] = [];
    const data = posts.map((post) => {
      if (!authors.has(post.authorId)) {
        authors.add(post.authorId);
        included.push(userResource(this.endpoint, post.author));
      }
      for (const comment of post.comments) included.push(commentResource(this.endpoint, comment));
      return postResource(this.endpoint, post, {
        comments: post.comments.map((comment) => ({ type: 'comment', id: comment.id })),
      });
    });
    const self = requestLink(this.endpoint, req.originalUrl);
    sendDocument(
      res,
      200,
      collectionDocument(self, `${this.endpoint}/post`, page.query, { ...page, total }, data, included),
    );
  }
}

/** Hand-written `GET /post?filter[published]=true&filter[authorId$lte]=500&sort=-rating,id&page[limit]=20`. */
@Controller('api/rest')
export class RestFilterSortBaseline extends BaselineController {
  @Get('post')
  async list(@Req() req: BaselineRequest, @Res() res: BaselineResponse): Promise<void> {
    const page = pageOf(req);
    const where = {
      published: page.query.get('filter[published]') === 'true',
      authorId: { lte: Number(page.query.get('filter[authorId$lte]')) },
    };
    const posts = await this.db.prisma.post.findMany({
      where,
      skip: page.offset,
      take: page.limit,
      orderBy: [{ rating: 'desc' }, { id: 'asc' }],
    });
    const total = knownTotal(page.offset, page.limit, posts.length) ?? (await this.db.prisma.post.count({ where }));
    const data = posts.map((post) => postResource(this.endpoint, post));
    const self = requestLink(this.endpoint, req.originalUrl);
    sendDocument(res, 200, collectionDocument(self, `${this.endpoint}/post`, page.query, { ...page, total }, data));
  }
}

/** Hand-written `GET /user/:id/posts`: the posts by their foreign key, the user looked up only for an empty page. */
@Controller('api/rest')
export class RestRelatedBaseline extends BaselineController {
  @Get('user/:id/posts')
  async related(@Req() req: BaselineRequest, @Res() res: BaselineResponse, @Param('id') id: string): Promise<void> {
    const page = pageOf(req);
    const authorId = Number(id);
    const where = { authorId };
    const posts = await this.db.prisma.post.findMany({
      where,
      skip: page.offset,
      take: page.limit,
      orderBy: { id: 'asc' },
    });
    // No posts may mean no such user, which is a 404; posts prove the user exists.
    if (!posts.length && !(await this.db.prisma.user.findUnique({ where: { id: authorId }, select: { id: true } }))) {
      return notFound(res);
    }
    const total = knownTotal(page.offset, page.limit, posts.length) ?? (await this.db.prisma.post.count({ where }));
    const data = posts.map((post) => postResource(this.endpoint, post));
    const self = requestLink(this.endpoint, req.originalUrl);
    sendDocument(
      res,
      200,
      collectionDocument(self, `${this.endpoint}/user/${id}/posts`, page.query, { ...page, total }, data),
    );
  }
}
