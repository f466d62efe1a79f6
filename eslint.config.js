// One flat config for the whole workspace: typed rules from typescript-eslint plus the house
// boundary rules from tools/eslint-plugin. `eslint .` run inside a package finds this file.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import skein from '@skein/eslint-plugin';

// esbuild cannot tree-shake zod's `z` binding: it bundles every locale (~600 KB each `skein` start
// compiles). The namespace import keeps only what is used.
const zodNamespaceImport = {
  selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
  message: "Use import * as z from 'zod' (a named z bundles all of zod).",
};

export default defineConfig(
  // tsup writes tsup.config.bundled_*.mjs beside a config while it builds, and turbo may lint the
  // same package meanwhile: the file can vanish between ESLint listing and reading it.
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/.vitest/**', '**/tsup.config.bundled_*'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: {
        projectService: { allowDefaultProject: ['*.config.ts', '*.config.js', '*.cjs', '*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports (STYLE.md).' },
        zodNamespaceImport,
      ],
    },
  },
  {
    // Config files are the one place tools require a default export.
    files: ['**/*.config.ts', '**/*.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Core takes its clock, randomness and environment injected, so tests need no global state
    // (STYLE.md); the few defaults that read the real ones say so where they do.
    files: ['packages/core/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Take the environment as an injected value.' },
        { object: 'Date', property: 'now', message: 'Use the injected clock.' },
        { object: 'Math', property: 'random', message: 'Take randomness injected.' },
        { object: 'performance', property: 'now', message: 'Use the injected clock.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports (STYLE.md).' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the injected clock.' },
        zodNamespaceImport,
      ],
    },
  },
  {
    // An executor builds none of the app-server's schemas: the exec-server (and its sandboxed fs
    // helper, which starts without a code cache) reads the protocol's executor entry only (issue #18).
    files: ['packages/exec-server/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: '@skein/protocol', message: "Import from '@skein/protocol/executor'." }] }] },
  },
  {
    // Tests run with `vitest --no-isolate` (README, "Set up and test"): a package's test files share
    // one module graph, so a module mock would leak into every file after it. exec-server keeps
    // isolation for the one mock it needs.
    files: ['**/*.test.ts', '**/test/**/*.ts'],
    ignores: ['packages/exec-server/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock'].map((property) => ({ object: 'vi', property, message: 'Tests share modules (--no-isolate): run the real module, or give it an injected seam.' })),
      ],
    },
  },
  { files: ['**/*.{js,cjs,mjs}'], extends: [tseslint.configs.disableTypeChecked] },
  skein.configs.boundaries,
);
