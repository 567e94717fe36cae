import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CrudApiModule } from 'nestjs-crud-api';
import { DraftsController } from './drafts.controller';
import { modelMeta } from './generated/crud-api';
import { policies } from './policies';
import { PrismaModule } from './prisma.module';
import { PrismaService } from './prisma.service';
import { UserGuard } from './user.guard';

/** Both APIs over the schema, as a Nest 11 application mounts them. */
@Module({
  imports: [
    PrismaModule,
    CrudApiModule.forRootAsync({
      imports: [PrismaModule],
      inject: [PrismaService],
      useFactory: (prisma: PrismaService) => ({
        endpoint: 'http://localhost/api/rest',
        prisma,
        modelMeta,
        policies,
        bodyLimit: '10kb',
      }),
    }),
  ],
  controllers: [DraftsController],
  providers: [{ provide: APP_GUARD, useClass: UserGuard }],
})
export class AppModule {}
