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
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Detectors match control and invisible characters on purpose.
      'no-control-regex': 'off',
      'no-misleading-character-class': 'off',
    },
  },
);
