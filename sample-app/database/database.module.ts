import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';

import {
  createSampleDatabase,
  SAMPLE_DATABASE_BOUNDS,
  type SampleDatabase,
} from '../../fixtures/blog/database/create-prisma-client.js';
import { pushSchemaIfEmpty, pushTableIfMissing } from '../../fixtures/blog/database/prepare-database.js';
import { seedIfEmpty } from '../../fixtures/blog/seed.js';
import { DEFAULT_DATABASE_URL } from './default-database-url.js';

export const SAMPLE_DATABASE = Symbol('SAMPLE_DATABASE');

/** Opens DATABASE_URL (SQLite file by default), creating and seeding it when it is empty. */
@Global()
@Module({
  providers: [
    {
      provide: SAMPLE_DATABASE,
      useFactory: async (): Promise<SampleDatabase> => {
        const logger = new Logger('Database');
        const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
        if (await pushSchemaIfEmpty(url)) logger.log(`Created the sample schema in ${url}`);
        // Every wait bounded: pool, statements, locks (docs/databases.md#timeouts-and-pools).
        const database = createSampleDatabase(url, { bounds: SAMPLE_DATABASE_BOUNDS });
        // Post history (app.module.ts) is kept in crud_history, which an older sample database lacks.
        if (await pushTableIfMissing(url, database.prisma, 'crud_history'))
          logger.log(`Created crud_history in ${url}`);
        if (await seedIfEmpty(database.prisma)) logger.log('Seeded demo data');
        return database;
      },
    },
  ],
  exports: [SAMPLE_DATABASE],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(SAMPLE_DATABASE) private readonly database: SampleDatabase) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.prisma.$disconnect();
  }
}
