import {
  type ArgumentsHost,
  Body,
  Catch,
  Controller,
  type ExceptionFilter,
  Get,
  Param,
  ParseArrayPipe,
  ParseIntPipe,
  Patch,
  Post,
  Query,
  Req,
  Res,
  type Type,
  ValidationPipe,
} from '@nestjs/common';
import { PrismaClientKnownRequestError } from '@prisma/client/runtime/client';

import type { SampleDatabase } from '../../../fixtures/blog/database/create-prisma-client.js';
import { BaselineController } from '../baseline.controller.js';
import { type BaselineRequest, type BaselineResponse, sendBytes } from '../baseline-response.js';
import {
  RestFetchBaseline,
  RestFilterSortBaseline,
  RestIncludeBaseline,
  RestListBaseline,
  RestListSoftDeletedBaseline,
  RestRelatedBaseline,
} from '../rest-read.controllers.js';
import { RestCreateBaseline, RestUpdateBaseline } from '../rest-write.controllers.js';
import {
  RpcAggregateBaseline,
  RpcCreateBaseline,
  RpcCreateRulesBaseline,
  RpcFindManyBaseline,
  RpcFindUniqueBaseline,
  RpcGroupByBaseline,
  RpcTransactionBaseline,
  RpcUpdateBaseline,
} from '../rpc.controllers.js';
import { classTransformerLite } from './class-transformer-lite.js';
import {
  CreatePostDocument,
  PostListQuery,
  RpcCreatePost,
  RpcReadQuery,
  RpcUpdatePost,
  TransactionStepDto,
  UpdatePostDocument,
} from './post.dto.js';

// The controllers as a Nest team writes them: route parameters through ParseIntPipe, queries and
// bodies as DTO classes checked by the global ValidationPipe, Prisma's errors mapped by an
// exception filter. Each hands the validated request to the careful controller of its scenario, so
// both write the same bytes and the pair prices only what the team adds.

/** The pipe a Nest team installs globally (`app.useGlobalPipes`). */
export const nestTeamValidationPipe = () =>
  new ValidationPipe({ whitelist: true, transform: true, transformerPackage: classTransformerLite });

/** Prisma's known errors as HTTP answers: a missing row 404, a unique violation 409, the rest 400. */
const PRISMA_STATUS: Readonly<Record<string, number>> = { P2025: 404, P2002: 409 };

@Catch(PrismaClientKnownRequestError)
export class PrismaExceptionFilter implements ExceptionFilter {
  catch(error: PrismaClientKnownRequestError, host: ArgumentsHost): void {
    const status = PRISMA_STATUS[error.code] ?? 400;
    const body = { errors: [{ status: String(status), code: error.code, title: error.message }] };
    sendBytes(host.switchToHttp().getResponse(), status, 'application/json', Buffer.from(JSON.stringify(body)));
  }
}

@Controller('api/rest')
class NestRestFetch extends BaselineController {
  private readonly careful = new RestFetchBaseline(this.db, this.endpoint);
  @Get('post/:id')
  fetch(@Req() req: BaselineRequest, @Res() res: BaselineResponse, @Param('id', ParseIntPipe) id: number) {
    return this.careful.fetch(req, res, String(id));
  }
}

interface CarefulList {
  list(req: BaselineRequest, res: BaselineResponse): Promise<void>;
}

/** A REST list whose query is validated as `PostListQuery` before the careful controller reads it. */
function nestRestList(Careful: new (db: SampleDatabase, endpoint: string) => CarefulList): Type {
  @Controller('api/rest')
  class NestRestList extends BaselineController {
    private readonly careful = new Careful(this.db, this.endpoint);

    @Get('post')
    list(@Req() req: BaselineRequest, @Res() res: BaselineResponse, @Query() _query: PostListQuery) {
      return this.careful.list(req, res);
    }
  }
  return NestRestList;
}

@Controller('api/rest')
class NestRestRelated extends BaselineController {
  private readonly careful = new RestRelatedBaseline(this.db, this.endpoint);
  @Get('user/:id/posts')
  related(
    @Req() req: BaselineRequest,
    @Res() res: BaselineResponse,
    @Param('id', ParseIntPipe) id: number,
    @Query() _query: PostListQuery,
  ) {
    return this.careful.related(req, res, String(id));
  }
}

@Controller('api/rest')
class NestRestCreate extends BaselineController {
  private readonly careful = new RestCreateBaseline(this.db, this.endpoint);
  @Post('post')
  create(@Res() res: BaselineResponse, @Body() body: CreatePostDocument) {
    return this.careful.create(res, body);
  }
}

@Controller('api/rest')
class NestRestUpdate extends BaselineController {
  private readonly careful = new RestUpdateBaseline(this.db, this.endpoint);
  @Patch('post/:id')
  update(@Res() res: BaselineResponse, @Param('id', ParseIntPipe) id: number, @Body() body: UpdatePostDocument) {
    return this.careful.update(res, String(id), body as never);
  }
}

type RpcRead = 'findUnique' | 'findMany' | 'aggregate' | 'groupBy';

/** An RPC read whose `q` is checked as JSON (`RpcReadQuery`) before the careful controller parses it. */
function nestRpcRead<O extends RpcRead>(
  operation: O,
  Careful: new (db: SampleDatabase, endpoint: string) => Record<O, (res: BaselineResponse, q: string) => Promise<void>>,
): Type {
  @Controller('api/rpc')
  class NestRpcRead extends BaselineController {
    private readonly careful = new Careful(this.db, this.endpoint);

    @Get(`post/${operation}`)
    read(@Res() res: BaselineResponse, @Query() query: RpcReadQuery) {
      return this.careful[operation](res, query.q);
    }
  }
  return NestRpcRead;
}

/** RPC `post.create` with its body checked as `RpcCreatePost`, before the careful create (plain, or with its rules). */
function nestRpcCreate(
  Careful: new (
    db: SampleDatabase,
    endpoint: string,
  ) => { create(res: BaselineResponse, body: RpcCreatePost): Promise<void> },
): Type {
  @Controller('api/rpc')
  class NestRpcCreate extends BaselineController {
    private readonly careful = new Careful(this.db, this.endpoint);

    @Post('post/create')
    create(@Res() res: BaselineResponse, @Body() body: RpcCreatePost) {
      return this.careful.create(res, body);
    }
  }
  return NestRpcCreate;
}

@Controller('api/rpc')
class NestRpcUpdate extends BaselineController {
  private readonly careful = new RpcUpdateBaseline(this.db, this.endpoint);
  @Patch('post/update')
  update(@Res() res: BaselineResponse, @Body() body: RpcUpdatePost) {
    return this.careful.update(res, body);
  }
}

@Controller('api/rpc')
class NestRpcTransaction extends BaselineController {
  private readonly careful = new RpcTransactionBaseline(this.db, this.endpoint);
  @Post('$transaction/sequential')
  transaction(
    @Res() res: BaselineResponse,
    @Body(new ParseArrayPipe({ items: TransactionStepDto, transformerPackage: classTransformerLite }))
    steps: TransactionStepDto[],
  ) {
    return this.careful.transaction(res, steps as never);
  }
}

/** The Nest-team controller of each scenario (by `Scenario.id`), the hot read included. */
export const NEST_TEAM_CONTROLLERS: Readonly<Record<string, Type>> = {
  'rest-fetch': NestRestFetch,
  'rest-fetch-hot': NestRestFetch,
  'rest-list': nestRestList(RestListBaseline),
  'rest-list-soft-deleted': nestRestList(RestListSoftDeletedBaseline),
  'rest-include': nestRestList(RestIncludeBaseline),
  'rest-filter-sort': nestRestList(RestFilterSortBaseline),
  'rest-related': NestRestRelated,
  'rest-create': NestRestCreate,
  'rest-update': NestRestUpdate,
  'rpc-find-unique': nestRpcRead('findUnique', RpcFindUniqueBaseline),
  'rpc-find-many': nestRpcRead('findMany', RpcFindManyBaseline),
  'rpc-aggregate': nestRpcRead('aggregate', RpcAggregateBaseline),
  'rpc-group-by': nestRpcRead('groupBy', RpcGroupByBaseline),
  'rpc-create': nestRpcCreate(RpcCreateBaseline),
  'rpc-create-rules': nestRpcCreate(RpcCreateRulesBaseline),
  'rpc-update': NestRpcUpdate,
  'rpc-transaction': NestRpcTransaction,
};
