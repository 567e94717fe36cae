import { existsSync } from 'node:fs';
import path from 'node:path';

import { PLATFORM_SUITES } from '../../jest.config.js';

// A renamed suite would silently stop running on Fastify: each name must be a suite.
it('names only existing end-to-end suites among those run on both platforms', () => {
  const missing = PLATFORM_SUITES.filter((name: string) => !existsSync(path.resolve(`test/e2e/${name}.e2e-spec.ts`)));
  expect(missing).toEqual([]);
});
