import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// A renamed suite would silently stop running on Fastify: each name must be a suite.
it('names only existing end-to-end suites among those run on both platforms', () => {
  const names = JSON.parse(readFileSync('test/platform-suites.json', 'utf8')) as string[];
  const missing = names.filter((name) => !existsSync(path.resolve(`test/e2e/${name}.e2e-spec.ts`)));
  expect(missing).toEqual([]);
  expect(names.length).toBeGreaterThan(0);
});
