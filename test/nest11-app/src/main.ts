import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

/**
 * Express, or Fastify with PLATFORM=fastify; created by `NestFactory`, or with BOOTSTRAP=testing
 * as an application's own e2e tests create it (a testing module, which creates the providers
 * before it is given the HTTP adapter).
 */
async function createApp(): Promise<INestApplication> {
  const options = { logger: ['error', 'warn'] satisfies LogLevel[] };
  const adapter =
    process.env.PLATFORM === 'fastify' ? new (await import('@nestjs/platform-fastify')).FastifyAdapter() : undefined;
  if (process.env.BOOTSTRAP === 'testing') {
    const { Test } = await import('@nestjs/testing');
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    return adapter ? moduleRef.createNestApplication(adapter, options) : moduleRef.createNestApplication(options);
  }
  return adapter ? NestFactory.create(AppModule, adapter, options) : NestFactory.create(AppModule, options);
}

async function bootstrap(): Promise<void> {
  const app = await createApp();
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  // The test harness reads the port from this line.
  console.log(`listening on ${port}`);
}

void bootstrap();
