import { Body, Controller, Inject, Post, Req } from '@nestjs/common';
import { withPolicies } from 'nestjs-crud-api';
import { modelMeta } from './generated/crud-api';
import { type AppContext, policies } from './policies';
import { PrismaService } from './prisma.service';

/** A hand-written endpoint sharing the API's policies: their refusals answer 403 here too. */
@Controller('drafts')
export class DraftsController {
  constructor(@Inject(PrismaService) private readonly prisma: PrismaService) {}

  @Post()
  create(@Req() request: AppContext, @Body() body: { title: string; authorId: number }) {
    const prisma = withPolicies(this.prisma, { policies, modelMeta, context: { user: request.user } });
    return prisma.post.create({ data: { title: body.title, authorId: body.authorId } });
  }
}
