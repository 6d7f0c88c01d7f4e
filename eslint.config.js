// Lint: ESLint's and typescript-eslint's recommended rules (no type information
// needed, so it runs in seconds). tsc -p tsconfig.json does the type checking.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.js'],
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      // `_name` marks a deliberately unused binding.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Detectors match control and invisible characters on purpose.
      'no-control-regex': 'off',
      'no-misleading-character-class': 'off',
    },
  },
  {
    // The service's code runs per request and per transaction. An object
    // literal with a getter or setter, made per set of events, keeps every
    // set's rows and leaves alive through young-generation collections: ~2 KB
    // an event promoted, scavenge pauses of ~10 ms in place of ~3 (measured on
    // src/ingest/record.ts's set). By experiment it is the accessor (the same
    // literal with a method, or made slow by a `delete`, does not do it);
    // classes' accessors are on their prototype.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression > Property[kind=/^(get|set)$/]',
          message: 'No getters or setters in object literals here: use a method or a class (see eslint.config.js).',
        },
      ],
    },
  },
);
