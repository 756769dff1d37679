// Lint rules: the recommended sets of ESLint and typescript-eslint, plus the house rules the layout
// depends on (file size, layers, no cycles); formatting is Prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

const SHARED_COMMAND_FOLDERS = new Set(['shared', 'generic']);
const NOUNS = readdirSync(new URL('./src/commands', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !SHARED_COMMAND_FOLDERS.has(entry.name))
  .map((entry) => entry.name);

/** Each layer knows only the ones below it: http → api → workflows → commands → cli. */
const LAYERS = [
  {
    target: './src/http/**',
    from: [
      './src/api/**',
      './src/workflows/**',
      './src/commands/**',
      './src/cli/**',
      './src/output/**',
      './src/config/**',
      './src/sandbox/**',
    ],
    message: 'the HTTP layer knows nothing above it',
  },
  {
    target: './src/api/**',
    from: ['./src/workflows/**', './src/commands/**', './src/cli/**', './src/output/**', './src/config/**', './src/sandbox/**'],
    message: 'API functions know only the HTTP layer',
  },
  {
    target: './src/workflows/**',
    from: ['./src/commands/**', './src/cli/**', './src/sandbox/**'],
    message: 'workflows live apart from commander',
  },
  {
    target: './src/output/**',
    from: ['./src/http/**', './src/api/**', './src/workflows/**', './src/commands/**', './src/cli/**', './src/sandbox/**'],
    message: 'output formatting knows no layer above it',
  },
  {
    target: './src/config/**',
    from: ['./src/api/**', './src/workflows/**', './src/commands/**', './src/cli/**', './src/sandbox/**'],
    message: 'configuration knows only the HTTP layer',
  },
  {
    target: './src/sandbox/**',
    from: [
      './src/http/**',
      './src/api/!(types).ts',
      './src/workflows/**',
      './src/commands/**',
      './src/cli/**',
      './src/output/**',
      './src/config/**',
    ],
    message: 'the sandbox shares nothing with the client but plain types',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        AbortController: 'readonly',
        TextDecoder: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      // The terminal escaping matches control characters on purpose.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: {
      'max-lines': ['error', { max: 400 }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...LAYERS,
            {
              target: ['./src/!(http)/**', './src/*.ts'],
              from: './src/http/rate-limit-signal.ts',
              message: "what the service said about its rate limit is the HTTP layer's own: take slots from the client's throttle",
            },
            ...NOUNS.map((noun) => ({
              target: `./src/commands/${noun}/**`,
              from: NOUNS.filter((other) => other !== noun).map((other) => `./src/commands/${other}/**`),
              message: 'no noun imports another noun: shared parts live in commands/shared or workflows',
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
