import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';

import type { DatabaseProvider } from '../../fixtures/blog/database/database-url.js';
import { AppModule } from '../../sample-app/app.module.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

export interface SampleAppHandle {
  readonly app: INestApplication;
  readonly db: TestDatabase;
}

/**
 * The sample app as `npm start` builds it, over a fresh database of the provider (created, seeded
 * by the app itself, in `beforeAll`; closed and dropped in `afterAll`).
 */
export function useSampleApp(provider: DatabaseProvider): SampleAppHandle {
  const handle = {} as { app: INestApplication; db: TestDatabase };
  beforeAll(async () => {
    handle.db = await createTestDatabase(provider);
    process.env.DATABASE_URL = handle.db.url;
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    handle.app = moduleRef.createNestApplication({ logger: false });
    await handle.app.init();
  });
  afterAll(async () => {
    delete process.env.DATABASE_URL;
    await handle.app.close();
    await handle.db.drop();
  });
  return handle;
}
