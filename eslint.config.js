import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '.tmp/**',
      'dist/**',
      'node_modules/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
      'src/web/routeTree.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Amounts are decimal strings; arithmetic goes through src/contract/decimal.ts.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='Number'] > Identifier[name=/^amount/i]",
          message:
            'Amounts are decimal strings: use src/contract/decimal.ts, never Number(amount).',
        },
        {
          selector: "CallExpression[callee.name='parseFloat']",
          message: 'Amounts are decimal strings: use src/contract/decimal.ts, never parseFloat.',
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '../server/*'],
              message: 'The SPA never imports server code; share through src/contract.',
            },
          ],
        },
      ],
    },
  },
  {
    // Integration tests drive the SPA's client against the real server app in process.
    files: ['src/web/**/*.integration.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/web/**'],
              message: 'src/contract depends on nothing but zod, big.js and ibantools.',
            },
          ],
        },
      ],
    },
  },
);
