import { Inject } from '@nestjs/common';

import type { SampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import { BENCH_DATABASE, BENCH_ENDPOINT } from './baseline.tokens.js';

/** What every hand-written controller gets: the sample client and the REST endpoint for links. */
export abstract class BaselineController {
  constructor(
    @Inject(BENCH_DATABASE) protected readonly db: SampleDatabase,
    @Inject(BENCH_ENDPOINT) protected readonly endpoint: string,
  ) {}
}
