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

// The adapter matrix: every suite on Express; the end-to-end suites again on Fastify.
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
      testMatch: ['**/*.e2e-spec.ts'],
      globals: { CRUD_API_PLATFORM: 'fastify' },
    },
  ],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  // A worker that ran many suites holds a large heap, whose full collections pause it for a second
  // or more: the suites that measure event-loop stalls (sqlite-locked) would read the collector's.
  workerIdleMemoryLimit: '1536MB',
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.cjs'],
};
