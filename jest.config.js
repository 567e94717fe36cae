import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

// NestJS 12 ships ES modules only: Jest runs in ESM mode (NODE_OPTIONS=--experimental-vm-modules)
// and @swc/jest compiles TypeScript with the decorator metadata Nest's DI reads.
const project = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // The Nest 11 application is a package of its own, with its own node_modules: test/nest11 runs it.
  modulePathIgnorePatterns: ['<rootDir>/test/nest11-app/'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        module: { type: 'es6' },
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
        },
      },
    ],
  },
};

/**
 * The end-to-end suites the HTTP platform can change (test/platform-suites.json), which run on Fastify as well: what crosses
 * the adapter (bodies and their encodings, headers, status lines, event streams, routing and long
 * path parameters, Nest's guards, pipes, prefixes and versions, keep-alive and shutdown). The
 * other suites go from a parsed request to Prisma through code no platform reaches (policies,
 * rules, soft delete, planning, transactions): they run once, on Express.
 */
const PLATFORM_SUITES = JSON.parse(readFileSync('test/platform-suites.json', 'utf8'));

// The adapter matrix: every suite on Express; the platform's suites again on Fastify, on SQLite
// (`testProviders`, test/support/test-database.ts).
// `createTestApp` (test/support/test-app.ts) reads the platform from the CRUD_API_PLATFORM global.
export default {
  projects: [
    {
      ...project,
      displayName: 'express',
      roots: ['<rootDir>/lib', '<rootDir>/test'],
      testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
      globals: { CRUD_API_PLATFORM: 'express' },
    },
    {
      ...project,
      displayName: 'fastify',
      roots: ['<rootDir>/test/e2e'],
      testMatch: PLATFORM_SUITES.map((name) => `**/test/e2e/${name}.e2e-spec.ts`),
      globals: { CRUD_API_PLATFORM: 'fastify' },
    },
  ],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testSequencer: '<rootDir>/test/support/slow-first-sequencer.js',
  // One worker per core: a third worker on 2 cores ran faster once (687 s against 796 s) but let
  // sqlite-locked read a 2.8 s event-loop stall in one clean CI run out of five.
  maxWorkers: availableParallelism(),
  // A worker that ran many suites holds a large heap, whose full collections pause it for a second
  // or more: the suites that measure event-loop stalls (sqlite-locked) would read the collector's.
  workerIdleMemoryLimit: '1536MB',
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.cjs'],
};
