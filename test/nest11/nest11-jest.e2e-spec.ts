import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';

import { createDatabase } from './nest11-app-process.js';
import { NEST11_APP_DIR, prepareNest11App } from './prepare-nest11-app.js';

// The Nest 11 application's own e2e test (test/nest11-app/test), run by its own Jest as a
// `nest new` project configures it: ts-jest, CommonJS, node_modules untransformed, so the packed
// module must load through `require()` as it is (its CommonJS build).
const PREPARE_TIMEOUT_MS = 15 * 60_000;
const JEST_TIMEOUT_MS = 5 * 60_000;

interface JestReport {
  success: boolean;
  numPassedTests: number;
  numTotalTests: number;
  testResults: { message: string }[];
}

/** `npx jest --config ./test/jest-e2e.json` in the application (its `test:e2e` script), with a JSON report. */
function runApplicationJest(databaseUrl: string): Promise<JestReport> {
  // Nothing of this Jest run (ESM mode, worker id) is the application's business.
  const { NODE_OPTIONS: _, JEST_WORKER_ID: __, ...env } = process.env;
  return new Promise((resolve, reject) => {
    execFile(
      'npx',
      ['jest', '--config', './test/jest-e2e.json', '--json', '--runInBand'],
      { cwd: NEST11_APP_DIR, env: { ...env, DATABASE_URL: databaseUrl }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout) as JestReport);
        } catch {
          reject(new Error(`Jest in the Nest 11 application did not report: ${error?.message}\n${stderr}`));
        }
      },
    );
  });
}

describe('Nest 11 (CommonJS) application tested by its own Jest (ts-jest)', () => {
  beforeAll(() => prepareNest11App(), PREPARE_TIMEOUT_MS);

  it(
    'passes its e2e test of the REST, RPC, typed client and OpenAPI routes on Express and Fastify',
    async () => {
      const database = await createDatabase();
      try {
        const report = await runApplicationJest(`file:${database}`);
        expect({
          success: report.success,
          passed: report.numPassedTests,
          total: report.numTotalTests,
          failures: report.testResults.map(({ message }) => message).filter(Boolean),
        }).toEqual({ success: true, passed: 8, total: 8, failures: [] });
      } finally {
        rmSync(database, { force: true });
      }
    },
    JEST_TIMEOUT_MS,
  );
});
