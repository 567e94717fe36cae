// The dependency direction of lib/ (docs/architecture.md): each folder imports only folders listed
// before it, type imports included, and nothing forms a cycle. `npm test` runs this check.
const LAYERS = [
  'errors',
  'shared',
  'telemetry',
  'metadata',
  'scalars',
  'prisma',
  'rules',
  'history',
  'policies',
  'changes',
  'limits',
  'replicas',
  'options',
  'data',
  'lifecycle',
  'filters',
  'rest',
  'rpc',
  'openapi',
  'client',
  'generator',
  'platform',
  'module',
];
const ROOT_FILES = '^lib/[^/]+\\.ts$';

const layerRules = LAYERS.map((layer, index) => ({
  name: `layer-${layer}`,
  comment: `lib/${layer}/ imports only the folders before it: ${LAYERS.slice(0, index).join(', ') || 'none'}`,
  severity: 'error',
  from: { path: `^lib/${layer}/`, pathNot: '\\.spec\\.ts$' },
  to: {
    path: [ROOT_FILES, ...LAYERS.slice(index + 1).map((later) => `^lib/${later}/`)],
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'No cycles between files, type imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-is-self-contained',
      comment: 'The package imports nothing of the repository outside lib/ (tests, bench, fixtures, sample app).',
      severity: 'error',
      from: { path: '^lib/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^(test|bench|sample-app|fixtures|scripts)/' },
    },
    {
      name: 'no-sample-app-imports',
      comment:
        'Tests, bench and fixtures use the shared fixture (fixtures/), not the sample app; only the tests of the sample app itself (test/sample-app/) import it.',
      severity: 'error',
      from: { path: '^(lib|test|bench|fixtures)/', pathNot: '^test/sample-app/' },
      to: { path: '^sample-app/' },
    },
    {
      name: 'fixtures-are-self-contained',
      comment:
        'The fixture serves the tests, the bench and the sample app alike: it imports nothing of test/ or bench/.',
      severity: 'error',
      from: { path: '^fixtures/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'unknown-folder',
      comment: 'Every folder of lib/ has a place in the layer order.',
      severity: 'error',
      from: { path: '^lib/', pathNot: [ROOT_FILES, ...LAYERS.map((layer) => `^lib/${layer}/`)] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|generated|dist|\\.build)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
