import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';

import { createDatabase } from './nest11-app-process.js';
import { NEST11_APP_DIR, prepareNest11App } from './prepare-nest11-app.js';

// The Nest 11 application's own tests (test/nest11-app/test), run by its own Jest as a `nest new`
// project configures it: ts-jest, CommonJS, node_modules untransformed, so the packed module must
// load through `require()` as it is (its CommonJS build). Its tsconfig.json is the one `nest new`
// writes (Nest 11), its e2e Jest configuration the one docs/nest-integration.md gives; its
// tsconfig.commonjs.json is the one `nest new` wrote before (Nest 10: `module: commonjs`, so
// `moduleResolution` node10), under which ts-jest type-checks a test of every entry point.
const PREPARE_TIMEOUT_MS = 15 * 60_000;
const JEST_TIMEOUT_MS = 5 * 60_000;

interface JestReport {
  success: boolean;
  numPassedTests: number;
  numTotalTests: number;
  testResults: { message: string }[];
}

/** `npx jest --config <config>` in the application (`test:e2e` runs `./test/jest-e2e.json`), with a JSON report. */
function runApplicationJest(config: string, databaseUrl: string): Promise<JestReport> {
  // Nothing of this Jest run (ESM mode, worker id) is the application's business.
  const { NODE_OPTIONS: _, JEST_WORKER_ID: __, ...env } = process.env;
  return new Promise((resolve, reject) => {
    execFile(
      'npx',
      ['jest', '--config', config, '--json', '--runInBand'],
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

function summary(report: JestReport) {
  return {
    success: report.success,
    passed: report.numPassedTests,
    total: report.numTotalTests,
    failures: report.testResults.map(({ message }) => message).filter(Boolean),
  };
}

describe('Nest 11 (CommonJS) application tested by its own Jest (ts-jest)', () => {
  beforeAll(() => prepareNest11App(), PREPARE_TIMEOUT_MS);

  it(
    'passes its e2e test of the REST, RPC, typed client and OpenAPI routes on Express and Fastify',
    async () => {
      const database = await createDatabase();
      try {
        const report = await runApplicationJest('./test/jest-e2e.json', `file:${database}`);
        expect(summary(report)).toEqual({ success: true, passed: 8, total: 8, failures: [] });
      } finally {
        rmSync(database, { force: true });
      }
    },
    JEST_TIMEOUT_MS,
  );

  it(
    'type-checks and runs a test importing nestjs-crud-api, /client and /client/react under moduleResolution node10',
    async () => {
      const report = await runApplicationJest('./test/jest-commonjs.json', 'file:unused.db');
      expect(summary(report)).toEqual({ success: true, passed: 3, total: 3, failures: [] });
    },
    JEST_TIMEOUT_MS,
  );
});
