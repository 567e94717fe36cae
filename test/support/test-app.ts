import type { INestApplication, ModuleMetadata } from '@nestjs/common';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { CrudApiModule, type CrudApiModuleOptions } from '../../lib/index.js';
import type { DatabaseProvider } from '../../sample-app/database/database-url.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export const TEST_ENDPOINT = 'http://localhost/api/rest';

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

export interface TestApp {
  app: INestApplication;
  db: TestDatabase;
  http: () => TestAgent;
  close(): Promise<void>;
}

/** The module in a Nest testing application over a fresh database, as a user's app would mount it. */
export async function createTestApp(provider: DatabaseProvider, setup: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(provider);
  const builder = Test.createTestingModule({
    ...setup.metadata,
    imports: [
      CrudApiModule.forRoot({ endpoint: TEST_ENDPOINT, prisma: db.prisma, modelMeta: db.modelMeta, ...setup.options }),
      ...(setup.metadata?.imports ?? []),
    ],
  });
  const moduleRef = await (setup.override ? setup.override(builder) : builder).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  setup.configure?.(app);
  await app.init();
  return {
    app,
    db,
    http: () => request(app.getHttpServer()),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}
