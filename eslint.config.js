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
      './src/server/wiring',
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
    from: ['./src/server/auth', './src/server/console', './src/server/cli', './src/server/wiring'],
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
    from: ['./src/server/auth', './src/server/console', './src/server/cli', './src/server/wiring'],
    message:
      "A capability's port and implementations are composed by custody/ and wiring/: they know no auth, console or wiring.",
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
    from: [
      './src/server/console',
      './src/server/capabilities',
      './src/server/cli',
      './src/server/wiring',
    ],
    message: 'auth knows no console route and no CLI.',
  },
  {
    // The wiring composes the routes of the capabilities, custody and the console; none
    // of them knows it, so the folders' imports point one way (scripts/folder-cycles.test.ts).
    target: ['./src/server/capabilities', './src/server/console', './src/server/cli'],
    from: './src/server/wiring',
    message:
      'wiring/ composes the routes of the capabilities, custody and console: they never import it (app.ts does).',
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

/**
 * Amounts: decimal strings end to end; every computation on them goes
 * through the one decimal module (src/contract/decimal.ts, big.js).
 * TypeScript already refuses arithmetic and Math on a string: an amount
 * becomes a binary float only through a conversion. Production code makes
 * none; a value that is no amount (a count, a port, milliseconds, a date
 * part, an id) says so in a `-- why` of its eslint-disable comment, or its
 * file is listed in NUMBER_FILES below with the reason. Tests, e2e and bench
 * keep the two rules of ANY_FILE_AMOUNT_RULES.
 */
const ANY_FILE_AMOUNT_RULES = [
  {
    selector: "CallExpression[callee.name='Number'] > Identifier[name=/^amount/i]",
    message: 'Amounts are decimal strings: use src/contract/decimal.ts, never Number(amount).',
  },
  {
    selector:
      "CallExpression[callee.name='parseFloat'], MemberExpression[object.name='Number'][property.name='parseFloat']",
    message: 'Amounts are decimal strings: use src/contract/decimal.ts, never parseFloat.',
  },
];
const numberConversion = (what) =>
  `${what} turns a value into a JS number (a binary float). Amounts are decimal strings: compute with src/contract/decimal.ts. For a count, port, time or id, disable this line saying which (eslint.config.js, AMOUNT_RULES).`;
const AMOUNT_RULES = [
  ...ANY_FILE_AMOUNT_RULES,
  {
    selector:
      "CallExpression[callee.name='Number'], NewExpression[callee.name='Number'], CallExpression > Identifier.arguments[name=/^(Number|parseFloat|parseInt)$/]",
    message: numberConversion('Number()'),
  },
  {
    selector:
      "CallExpression[callee.name='parseInt'], MemberExpression[object.name='Number'][property.name='parseInt']",
    message: numberConversion('parseInt'),
  },
  { selector: "UnaryExpression[operator='+']", message: numberConversion('Unary +') },
  {
    selector: "MemberExpression[property.name='coerce']",
    message: numberConversion("zod's coerce"),
  },
  {
    selector: 'CallExpression[callee.property.name=/^(toNumber|toFixed|toPrecision)$/]',
    message:
      'Formatting or converting a number: amounts are formatted by src/contract/decimal.ts alone (formatAmount, round).',
  },
];
/**
 * Production files that handle no amount and convert numbers by nature, each
 * with its reason: they keep only ANY_FILE_AMOUNT_RULES (never parseFloat).
 */
const NUMBER_FILES = [
  // The decimal module: big.js's own toFixed writes the decimal strings; its string half rounds
  // digit by digit, each digit 0–9.
  'src/contract/decimal.ts',
  'src/contract/decimal-format.ts',
  // Ports, sizes, limits and intervals from the environment.
  'src/server/env.ts',
  // scrypt's cost parameters, stored with the hash.
  'src/server/auth/password.ts',
  // Header values: Accept-Encoding q-values, Content-Length.
  'src/server/http/**',
  // PGlite's type ids, process and event-loop statistics.
  'src/server/db/**',
  // Calendar parts of a date (year, month, day, hour…).
  'src/web/lib/dates.ts',
  // The 16-bit groups of an IPv4-mapped IPv6 address.
  'src/server/capabilities/webhooks/targets.ts',
  // X-Timestamp: unix seconds.
  'src/server/capabilities/webhooks/receiver.routes.ts',
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
    },
    // Import loops between files are scripts/folder-cycles.test.ts's to refuse: it reads
    // the files once, where import-x/no-cycle walked every file's imports again for each
    // file linted (a sixth of this lint's time).
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Amounts are decimal strings; arithmetic goes through src/contract/decimal.ts.
      'no-restricted-syntax': ['error', ...ANY_FILE_AMOUNT_RULES],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: TEST_FILES,
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'no-restricted-imports': ['error', { paths: testLibraries }],
      'no-restricted-syntax': ['error', ...AMOUNT_RULES],
    },
  },
  {
    files: NUMBER_FILES,
    ignores: TEST_FILES,
    rules: { 'no-restricted-syntax': ['error', ...ANY_FILE_AMOUNT_RULES] },
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
    // (an unhandled rejection, or work that outlives its request or test). The
    // lint's costliest rule (the type information it needs), so held to the code
    // that serves: the server and the SPA, not the stories, scripts or bench.
    files: ['src/server/**/*.{ts,tsx}', 'src/web/**/*.{ts,tsx}'],
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
