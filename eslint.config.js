import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', 'src/server/test/**', 'src/web/test/**'];

/** The SPA's feature folders, read from disk so a new feature is fenced in without editing this file. */
const webFeatures = readdirSync('src/web/features', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** The server's capability folders, read from disk like the features: a new one is fenced in too. */
const serverCapabilities = readdirSync('src/server/capabilities', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/**
 * Layers point down only (ARCHITECTURE.md, "Layers"). Paths are relative to
 * the repository root, where `npm run lint` runs. They bind production code;
 * tests may wire layers together to drive them.
 */
const layerZones = [
  {
    target: './src/contract',
    from: ['./src/server', './src/web'],
    message: 'src/contract depends on nothing but zod, big.js and ibantools.',
  },
  {
    target: './src/web',
    from: './src/server',
    message: 'The SPA never imports server code; share through src/contract.',
  },
  {
    target: './src/server',
    from: './src/web',
    message: 'The server never imports SPA code; share through src/contract.',
  },
  ...webFeatures.map((feature) => ({
    target: `./src/web/features/${feature}`,
    from: './src/web/features',
    except: [`./${feature}`],
    message:
      'A feature never imports another feature: share through src/contract, lib or components.',
  })),
  {
    target: ['./src/web/lib', './src/web/components'],
    from: ['./src/web/features', './src/web/routes'],
    message: 'lib and components are shared code: they know no feature and no route.',
  },
  {
    target: './src/web/features',
    from: './src/web/routes',
    message: 'Routes compose features, never the other way round.',
  },
  {
    target: ['./src/server/http', './src/server/db', './src/server/protocol'],
    from: [
      './src/server/auth',
      './src/server/console',
      './src/server/custody',
      './src/server/capabilities',
      './src/server/cli',
    ],
    message: 'http, db and protocol are the bottom server layers: they know no feature.',
  },
  {
    target: './src/server/protocol',
    from: ['./src/server/http', './src/server/db'],
    message:
      'protocol (API tokens, canonical JSON, keys) is pure: the sandbox, auth and the upstream client all build on it.',
  },
  {
    target: './src/server/custody',
    from: ['./src/server/auth', './src/server/console', './src/server/cli'],
    message:
      'custody knows no console feature: auth and console build on its backend, never the other way round.',
  },
  {
    // What the custody backend composes — each capability's port and its sandbox and upstream
    // implementations — knows no staff session and no console route, as custody itself.
    target: [
      './src/server/capabilities/*/port.ts',
      './src/server/capabilities/*/sandbox/**',
      './src/server/capabilities/*/upstream/**',
    ],
    from: ['./src/server/auth', './src/server/console', './src/server/cli'],
    message:
      "A capability's port and implementations are composed by custody/: they know no auth or console.",
  },
  ...serverCapabilities.map((capability) => ({
    target: `./src/server/capabilities/${capability}`,
    from: serverCapabilities
      .filter((other) => other !== capability)
      .flatMap((other) => [
        `./src/server/capabilities/${other}/sandbox`,
        `./src/server/capabilities/${other}/upstream`,
      ]),
    message:
      "A capability never reaches into another's sandbox or upstream implementation: it uses the other's port (port.ts), or shares through custody/ or console/.",
  })),
  {
    target: './src/server/auth',
    from: ['./src/server/console', './src/server/capabilities', './src/server/cli'],
    message: 'auth knows no console route and no CLI.',
  },
  {
    target: './src/server/console',
    from: [
      './src/server/custody/routes/**',
      './src/server/custody/sandbox/**',
      './src/server/custody/upstream/**',
      './src/server/capabilities/*/sandbox/**',
      './src/server/capabilities/*/upstream/**',
    ],
    message:
      'console uses the custody backend through custody/backend.ts and custody/context.ts, never its implementations; it composes the capabilities’ routes.',
  },
  {
    target: './src',
    from: [
      './src/server/test/**',
      './src/web/test/**',
      './src/**/*.test.ts',
      './src/**/*.test.tsx',
    ],
    message: 'Production code never imports test code.',
  },
];

const testLibraries = [
  'vitest',
  '@testing-library/react',
  '@testing-library/user-event',
  '@testing-library/dom',
  'fast-check',
].map((name) => ({ name, message: 'Production code never imports test libraries.' }));

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
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver()],
      // Follow TypeScript files too, or no-cycle would stop at the first .ts import.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
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
    files: ['src/**/*.{ts,tsx}'],
    ignores: TEST_FILES,
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'no-restricted-imports': ['error', { paths: testLibraries }],
    },
  },
  {
    // A test takes its app from a fixture (ARCHITECTURE.md, "Tests"), made once per file and
    // closed after its last test: a beforeAll copying that set-up must not come back.
    files: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)test/test-app(\\.ts)?$',
              importNames: ['createTestApp'],
              message:
                'Take the app from the fixture: appTest, or appTestWith(options) for an app with options (test/app-test.ts).',
            },
            {
              regex: '(^|/)test/two-consoles(\\.ts)?$',
              importNames: ['createTwoConsoles'],
              message:
                'Take the upstream test bed from the fixture: twoConsolesTest(options, prepare) (test/two-consoles.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // Type-aware: a promise nobody awaits, returns or marks `void` is a mistake
    // (an unhandled rejection, or work that outlives its request or test).
    files: ['src/**/*.{ts,tsx}', 'e2e/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['src/web/routeTree.gen.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
