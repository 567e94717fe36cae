import { BadRequestException, Body, Controller, Get, Patch, Post, Query, Res } from '@nestjs/common';
import { Decimal } from '@prisma/client/runtime/client';
import { SuperJSON, type SuperJSONResult } from 'superjson';

import { postCreateSchema, preparePostCreate } from '../post-create-rules.js';
import { BaselineController } from './baseline.controller.js';
import { type BaselineResponse, sendBytes } from './baseline-response.js';
import { postOutput, postsWithAuthorAndTagsOutput, rpcBody, type SuperJsonOutput } from './superjson-rows.js';

// Hand-written RPC endpoints: JSON.parse of `q` or the body, one Prisma call, superjson out
// (post reads written from the model's field lists, the rest by superjson's `serialize`).
const serializer = new SuperJSON();
serializer.registerCustom<Decimal, string>(
  {
    isApplicable: (v): v is Decimal => v instanceof Decimal,
    serialize: (v) => v.toString(),
    deserialize: (v) => new Decimal(v),
  },
  'Decimal',
);

function send(res: BaselineResponse, status: number, result: unknown): void {
  sendOutput(res, status, serializer.serialize(result));
}

function sendOutput(res: BaselineResponse, status: number, output: SuperJsonOutput | SuperJSONResult): void {
  sendBytes(res, status, 'application/json', Buffer.from(JSON.stringify(rpcBody(output))));
}

/** Hand-written `GET /post/findUnique?q=`. */
@Controller('api/rpc')
export class RpcFindUniqueBaseline extends BaselineController {
  @Get('post/findUnique')
  async findUnique(@Res() res: BaselineResponse, @Query('q') q: string): Promise<void> {
    const { where } = JSON.parse(q);
    sendOutput(res, 200, postOutput(await this.db.prisma.post.findUnique({ where: { id: where.id } })));
  }
}

/** Hand-written `GET /post/findMany?q=` with where, orderBy and take, including author and tags. */
@Controller('api/rpc')
export class RpcFindManyBaseline extends BaselineController {
  @Get('post/findMany')
  async findMany(@Res() res: BaselineResponse, @Query('q') q: string): Promise<void> {
    const { where, orderBy, take } = JSON.parse(q);
    const posts = await this.db.prisma.post.findMany({ where, include: { author: true, tags: true }, orderBy, take });
    sendOutput(res, 200, postsWithAuthorAndTagsOutput(posts));
  }
}

/** Hand-written `GET /post/aggregate?q=`. */
@Controller('api/rpc')
export class RpcAggregateBaseline extends BaselineController {
  @Get('post/aggregate')
  async aggregate(@Res() res: BaselineResponse, @Query('q') q: string): Promise<void> {
    const { where, _count, _avg, _max } = JSON.parse(q);
    send(res, 200, await this.db.prisma.post.aggregate({ where, _count, _avg, _max }));
  }
}

/** Hand-written `GET /post/groupBy?q=`. */
@Controller('api/rpc')
export class RpcGroupByBaseline extends BaselineController {
  @Get('post/groupBy')
  async groupBy(@Res() res: BaselineResponse, @Query('q') q: string): Promise<void> {
    const { by, where, _count, _avg, orderBy } = JSON.parse(q);
    send(res, 200, await this.db.prisma.post.groupBy({ by, where, _count, _avg, orderBy }));
  }
}

/** Hand-written `POST /post/create`. */
@Controller('api/rpc')
export class RpcCreateBaseline extends BaselineController {
  @Post('post/create')
  async create(
    @Res() res: BaselineResponse,
    @Body() body: { data: { title: string; content: string; rating: number; authorId: number } },
  ) {
    send(res, 201, await this.db.prisma.post.create({ data: body.data }));
  }
}

/** Hand-written `POST /post/create` of `rpc-create-rules`: the same clean-up and zod schema, then the create. */
@Controller('api/rpc')
export class RpcCreateRulesBaseline extends BaselineController {
  @Post('post/create')
  async create(
    @Res() res: BaselineResponse,
    @Body() body: { data: { title: string; content?: string; rating: number; authorId: number } },
  ) {
    preparePostCreate(body.data);
    const parsed = postCreateSchema.safeParse(body.data);
    if (!parsed.success) throw new BadRequestException(parsed.error.issues);
    send(res, 201, await this.db.prisma.post.create({ data: body.data }));
  }
}

/** Hand-written `PATCH /post/update`. */
@Controller('api/rpc')
export class RpcUpdateBaseline extends BaselineController {
  @Patch('post/update')
  async update(
    @Res() res: BaselineResponse,
    @Body() body: { where: { id: number }; data: { title: string; rating: number } },
  ) {
    send(res, 200, await this.db.prisma.post.update({ where: { id: body.where.id }, data: body.data }));
  }
}

interface TransactionStep {
  args: { data: Record<string, any>; where?: { id: number } };
}

/** Hand-written `POST /$transaction/sequential`: the scenario's three writes in one `prisma.$transaction`. */
@Controller('api/rpc')
export class RpcTransactionBaseline extends BaselineController {
  @Post('$transaction/sequential')
  async transaction(
    @Res() res: BaselineResponse,
    @Body() steps: [TransactionStep, TransactionStep, TransactionStep],
  ): Promise<void> {
    const [created, updated, comment] = steps;
    const prisma = this.db.prisma;
    send(
      res,
      200,
      await prisma.$transaction([
        prisma.post.create({ data: created.args.data as never }),
        prisma.post.update({ where: { id: updated.args.where!.id }, data: updated.args.data }),
        prisma.comment.create({ data: comment.args.data as never }),
      ]),
    );
  }
}
