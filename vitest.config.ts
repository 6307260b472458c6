import { defineConfig } from 'vitest/config';

// Four projects: pure code (contract, lib, the server's pure modules), the
// server through its real app and database ("storage", also run against
// PostgreSQL by `npm run test:pg`), the server tests that choose their own
// database ("server", run once), and React components in jsdom.

/**
 * Server tests that prove the same on either database, so the PostgreSQL
 * pass (`--project storage`) would only repeat them. A test that opens the
 * suite's database (test/test-database.ts, test/app-test.ts …) must not be
 * listed here. First pure server code, run with the unit tests: no
 * database, so no read or write checks to set up.
 */
const PURE_SERVER = [
  'src/server/capabilities/approvals/cost.test.ts',
  'src/server/capabilities/approvals/sandbox/policy.test.ts',
  'src/server/capabilities/policies/call-value.test.ts',
  'src/server/capabilities/policies/evaluate.test.ts',
  'src/server/capabilities/policies/upstream/index.test.ts',
  'src/server/capabilities/transactions/sandbox/pace.test.ts',
  'src/server/capabilities/ramps/sandbox/ramp-requote.test.ts',
  'src/server/custody/sandbox/fee-model.test.ts',
  'src/server/custody/upstream/bank-account-fingerprint.test.ts',
  'src/server/env.test.ts',
  'src/server/http/cached-probe.test.ts',
  'src/server/http/compress-json.test.ts',
  'src/server/http/data-preload.test.ts',
  'src/server/http/request-log.test.ts',
  'src/server/http/server-timeouts.test.ts',
  'src/server/http/web-stream.test.ts',
  'src/server/pretty-log.test.ts',
  'src/server/protocol/api-token.test.ts',
  'src/server/protocol/canonical-json.test.ts',
  'src/server/protocol/ecdsa-keys.test.ts',
  'src/server/db/data-dir-lock.test.ts',
  'src/server/db/read-cache.thread-version.test.ts',
];
/**
 * Then tests on a PGlite directory of their own, or a PostgreSQL of their
 * own: whatever database the pass is given, they would run the same again.
 */
const OWN_DATABASE = [
  'src/server/db/pglite-remote.test.ts',
  'src/server/db/database-outage.test.ts',
  'src/server/first-start.test.ts',
  'src/server/custody/upstream/upstream-server.test.ts',
];

export default defineConfig({
  test: {
    // Two cores: two test files at a time, each with its own database.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          // Pure SPA code anywhere (lib, a feature's api/ or export/), not only lib,
          // the lint-rule tests in scripts/, and the server's pure modules.
          include: [
            'src/contract/**/*.test.ts',
            'src/web/**/*.test.ts',
            'scripts/**/*.test.ts',
            ...PURE_SERVER,
          ],
          exclude: ['**/*.integration.test.ts'],
          // Pure code: files share a worker's modules instead of importing them
          // again each (half the project's CPU time, measured). So a unit test
          // must not rely on a module's fresh state, nor mock a module.
          isolate: false,
        },
      },
      {
        test: {
          name: 'storage',
          environment: 'node',
          // The SPA's client is tested here too, against the real app in process.
          include: ['src/server/**/*.test.ts', 'src/web/**/*.integration.test.ts'],
          exclude: [...PURE_SERVER, ...OWN_DATABASE],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // The migrated template made once, before any file (test/test-database.ts).
          globalSetup: ['src/server/test/global-setup.ts'],
          // Every cached read checked against the tables it declares; READ_CACHE=off honoured.
          setupFiles: ['src/server/test/read-cache-setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: OWN_DATABASE,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: ['src/server/test/global-setup.ts'],
          setupFiles: ['src/server/test/read-cache-setup.ts'],
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.tsx'],
          setupFiles: ['src/web/test/setup.ts'],
          // userEvent types key by key in jsdom; on a busy two-core machine a
          // form test can pass 5 s without being wrong. A limit, not a target.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
