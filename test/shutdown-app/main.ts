// A user's application under SIGTERM (test/e2e/graceful-shutdown.e2e-spec.ts starts it as a child
// process): the common recipe, a PrismaService disconnecting in `onModuleDestroy` and
// `enableShutdownHooks()`, with that service in the root module or in a module imported before or
// after CrudApiModule. Writes of tags named `slow…` wait in a rule hook, inside their transaction.
import 'reflect-metadata';

import { type DynamicModule, Injectable, Module, type OnModuleDestroy, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

// The built package, compiled with the decorator metadata Nest reads (tsx emits none).
import { CrudApiModule } from '../../dist/index.js';
import { createSampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';

const { DATABASE_URL, PLATFORM, PRISMA_MODULE, SLOW_MS, GRACE_PERIOD } = process.env;
const database = createSampleDatabase(DATABASE_URL!);

@Injectable()
class PrismaService implements OnModuleDestroy {
  onModuleDestroy(): Promise<void> {
    return database.prisma.$disconnect();
  }
}

@Module({ providers: [PrismaService] })
class PrismaModule {}

const crudApi: DynamicModule = CrudApiModule.forRoot({
  endpoint: 'http://localhost/api/rest',
  prisma: database.prisma,
  modelMeta: database.modelMeta,
  defaultPolicy: 'allow',
  rules: {
    Tag: {
      beforeCreate: async ({ data }: { data: { name?: unknown } }) => {
        if (typeof data.name !== 'string' || !data.name.startsWith('slow')) return;
        console.log(`slow write started: ${data.name}`);
        await new Promise((resolve) => setTimeout(resolve, Number(SLOW_MS)));
      },
    },
  },
  shutdown: { gracePeriod: Number(GRACE_PERIOD) },
});

const imports: Record<string, (DynamicModule | Type)[]> = {
  root: [crudApi],
  before: [PrismaModule, crudApi],
  after: [crudApi, PrismaModule],
};

@Module({ imports: imports[PRISMA_MODULE!], providers: PRISMA_MODULE === 'root' ? [PrismaService] : [] })
class AppModule {}

async function bootstrap(): Promise<void> {
  const logger = ['error', 'warn'] as const;
  const app =
    PLATFORM === 'fastify'
      ? await NestFactory.create(AppModule, new (await import('@nestjs/platform-fastify')).FastifyAdapter(), {
          logger: [...logger],
        })
      : await NestFactory.create(AppModule, { logger: [...logger] });
  // Exit 0 once the shutdown sequence has run (Nest otherwise re-raises the signal).
  app.enableShutdownHooks(['SIGTERM'], { useProcessExit: true });
  await app.listen(0, '127.0.0.1');
  console.log(`listening on ${(app.getHttpServer().address() as { port: number }).port}`);
}

void bootstrap();
