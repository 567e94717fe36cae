import type { INestApplication, ModuleMetadata } from '@nestjs/common';
import type { TestingModule, TestingModuleBuilder } from '@nestjs/testing';
import { Test } from '@nestjs/testing';
import type TestAgent from 'supertest/lib/agent.js';

import type { DatabaseProvider } from '../../fixtures/blog/database/database-url.js';
import { CrudApiModule, type CrudApiModuleOptions } from '../../lib/index.js';
import { contractAgent } from './openapi-agent.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { testPlatform } from './test-platform.js';

export const TEST_ENDPOINT = 'http://localhost/api/rest';

/** The sample schema's model for Idempotency-Key answers, which the module keeps to itself as an application would. */
export const TEST_IDEMPOTENCY = { model: 'IdempotencyKey' };

export { type TestPlatform, testPlatform } from './test-platform.js';

/**
 * A Nest application of the module on the platform under test, initialized and ready to serve
 * (Fastify registers routes on `ready()`).
 */
export async function createPlatformApp(
  moduleRef: TestingModule,
  configure?: (app: INestApplication) => void,
): Promise<INestApplication> {
  let app: INestApplication;
  if (testPlatform() === 'fastify') {
    const { FastifyAdapter } = await import('@nestjs/platform-fastify');
    // Fastify's router matches no route when a path parameter is longer than `maxParamLength`
    // (100 by default): the hostile-input suites send megabyte ids, which must reach the module.
    app = moduleRef.createNestApplication(new FastifyAdapter({ routerOptions: { maxParamLength: 2 ** 21 } }), {
      logger: false,
    });
  } else {
    app = moduleRef.createNestApplication({ logger: false });
  }
  configure?.(app);
  await app.init();
  if (testPlatform() === 'fastify') await app.getHttpAdapter().getInstance().ready();
  return app;
}

export interface TestAppOptions {
  /** Module options on top of `endpoint`, `prisma` and `modelMeta`. */
  options?: Partial<CrudApiModuleOptions>;
  /** Further imports/providers of the testing module (guards, interceptors...). */
  metadata?: ModuleMetadata;
  /** Last changes to the testing module (`overrideProvider`...). */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** Set up the application before `init` (global prefix, pipes...). */
  configure?: (app: INestApplication) => void;
}

/** What a test uses of its application. */
export interface TestAppHandle {
  app: INestApplication;
  db: TestDatabase;
  http: () => TestAgent;
}

export interface TestApp extends TestAppHandle {
  close(): Promise<void>;
}

/** The module in a Nest testing application over a fresh database, as a user's app would mount it. */
export async function createTestApp(provider: DatabaseProvider, setup: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(provider);
  const builder = Test.createTestingModule({
    ...setup.metadata,
    imports: [
      // The OpenAPI documents are on, so `http()` can check every exchange against them.
      CrudApiModule.forRoot({
        endpoint: TEST_ENDPOINT,
        prisma: db.prisma,
        modelMeta: db.modelMeta,
        openapi: true,
        idempotency: TEST_IDEMPOTENCY,
        ...setup.options,
      }),
      ...(setup.metadata?.imports ?? []),
    ],
  });
  const moduleRef = await (setup.override ? setup.override(builder) : builder).compile();
  const app = await createPlatformApp(moduleRef, setup.configure);
  return {
    app,
    db,
    // The documents describe the module's own services: exchanges with replaced ones are not checked.
    http: () => contractAgent(app, !setup.override && !setup.options?.restService && !setup.options?.rpcService),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

/**
 * The module over a database the test made itself (its own server, bounds or adapter), as a user's
 * app would mount it; `close` closes the application and disconnects the client.
 */
export async function createAppOver(
  database: { prisma: CrudApiModuleOptions['prisma']; modelMeta: CrudApiModuleOptions['modelMeta'] },
  options: Partial<CrudApiModuleOptions> = {},
): Promise<Pick<TestApp, 'app' | 'http' | 'close'>> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      CrudApiModule.forRoot({
        endpoint: TEST_ENDPOINT,
        prisma: database.prisma,
        modelMeta: database.modelMeta,
        openapi: true,
        idempotency: TEST_IDEMPOTENCY,
        ...options,
      }),
    ],
  }).compile();
  const app = await createPlatformApp(moduleRef);
  return {
    app,
    http: () => contractAgent(app),
    close: async () => {
      await app.close();
      await (database.prisma as unknown as { $disconnect(): Promise<void> }).$disconnect();
    },
  };
}

export interface UseTestAppOptions extends TestAppOptions {
  /** Writes the rows the tests read, once the application is up (`beforeAll`). */
  seed?: (t: TestAppHandle) => Promise<unknown>;
}

/**
 * The application of the enclosing `describe` block, over a fresh database: created and seeded in a
 * `beforeAll`, closed (its database dropped) in an `afterAll`. The handle reads `app`, `db` and
 * `http` of that application once the `beforeAll` has run: in the tests, and in the hooks declared
 * after this call (Jest runs hooks in the order they are declared).
 */
export function useTestApp(provider: DatabaseProvider, { seed, ...setup }: UseTestAppOptions = {}): TestAppHandle {
  let current: TestApp | undefined;
  const started = (): TestApp => {
    if (!current) throw new Error('useTestApp: the application starts in beforeAll; use it in a hook or a test');
    return current;
  };
  beforeAll(async () => {
    current = await createTestApp(provider, setup);
    await seed?.(current);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get app() {
      return started().app;
    },
    get db() {
      return started().db;
    },
    http: () => started().http(),
  };
}
