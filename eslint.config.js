// typescript-eslint, with type information for lib/ only (the package's code, where a floating promise
// is a lost error), sorted imports, and no explicit `any` in the files whose types the package exports.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import js from '@eslint/js';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

/** The source of each entry point in package.json's `exports` (`dist/client/index.d.ts` -> `lib/client/index.ts`). */
function entrySources() {
  const { exports } = JSON.parse(readFileSync(path.join(import.meta.dirname, 'package.json'), 'utf8'));
  return Object.values(exports)
    .map((target) => target.import?.types)
    .filter(Boolean)
    .map((types) => types.replace(/^\.\/dist\//, 'lib/').replace(/\.d\.ts$/, '.ts'));
}

/** The files an entry point exports from, following `export ... from './x.js'` (a relative module of lib/). */
function exportingFiles(entries) {
  const files = new Set();
  const visit = (file) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(path.join(import.meta.dirname, file), 'utf8');
    for (const [, specifier] of source.matchAll(/^export[^;]*?from '(\.[^']+)\.js'/gm))
      visit(path.posix.join(path.posix.dirname(file), `${specifier}.ts`));
  };
  entries.forEach(visit);
  return [...files];
}

/** Files whose types `lib/index.ts`, `lib/client` or `lib/client/react` export. */
const PUBLIC_TYPES = exportingFiles(entrySources());

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
  {
    files: ['lib/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    // The build's project (lib/ without its specs), not the project service: that would resolve each
    // file to tsconfig.json, whose program holds the tests and generated clients too (1.5x the time).
    languageOptions: { parserOptions: { project: './tsconfig.build.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      // The outbox, live queries and onServerError run without anyone awaiting them: a rejection
      // there must be handled on the spot (`void` marks the promise as deliberately not awaited).
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
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
