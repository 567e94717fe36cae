// typescript-eslint without type information (fast enough for every `npm test`), sorted imports,
// and no explicit `any` in the files whose types the package exports.
import js from '@eslint/js';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

/** Files whose types `lib/index.ts`, `lib/client` or `lib/client/react` export. */
const PUBLIC_TYPES = [
  'lib/index.ts',
  'lib/options/crud-api-options.interface.ts',
  'lib/module/crud-api-module-options.interface.ts',
  'lib/metadata/model-meta.types.ts',
  'lib/policies/policy.types.ts',
  'lib/rules/rules.types.ts',
  'lib/shared/api-request.ts',
  'lib/shared/api-response.ts',
  'lib/prisma/prisma-client-like.ts',
  'lib/errors/*.ts',
  'lib/openapi/openapi.types.ts',
  'lib/client/**/*.ts',
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'client/dist/', '.build/', 'coverage/', '**/generated/', 'test/nest11-app/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  { files: PUBLIC_TYPES, ignores: ['**/*.spec.ts'], rules: { '@typescript-eslint/no-explicit-any': 'error' } },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', process: 'readonly', console: 'readonly' },
    },
  },
);
