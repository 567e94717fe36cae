// One instance of a user's application with live queries (test/operations/live-instances.e2e-spec.ts
// starts several as child processes over one database): the change transport named by TRANSPORT.
import 'reflect-metadata';

import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

// The built package, compiled with the decorator metadata Nest reads (tsx emits none).
import { CrudApiModule, postgresChangeTransport, redisChangeTransport } from '../../dist/index.js';
import { createSampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';

const { DATABASE_URL, PLATFORM, TRANSPORT, TRANSPORT_URL, TRANSPORT_CHANNEL } = process.env;
const database = createSampleDatabase(DATABASE_URL!);
const transport =
  TRANSPORT === 'redis'
    ? redisChangeTransport({ url: TRANSPORT_URL!, channel: TRANSPORT_CHANNEL })
    : postgresChangeTransport({ connectionString: TRANSPORT_URL!, channel: TRANSPORT_CHANNEL });

@Module({
  imports: [
    CrudApiModule.forRoot({
      endpoint: 'http://localhost/api/rest',
      prisma: database.prisma,
      modelMeta: database.modelMeta,
      live: { debounce: 5, transport },
    }),
  ],
})
class AppModule {}

async function bootstrap(): Promise<void> {
  const options = { logger: ['error' as const, 'warn' as const] };
  const app =
    PLATFORM === 'fastify'
      ? await NestFactory.create(AppModule, new (await import('@nestjs/platform-fastify')).FastifyAdapter(), options)
      : await NestFactory.create(AppModule, options);
  app.enableShutdownHooks(['SIGTERM'], { useProcessExit: true });
  await app.listen(0, '127.0.0.1');
  console.log(`listening on ${(app.getHttpServer().address() as { port: number }).port}`);
}

void bootstrap();
