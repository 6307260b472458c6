import { defineConfig } from 'vitest/config';

// Five projects: pure code (contract, lib, the server's pure modules), the
// server through its real app and database on PGlite ("app", run once), the
// part of it that can differ between PGlite and PostgreSQL ("storage", run
// again on PostgreSQL by `npm run test:pg`), the server tests that choose
// their own database ("server", run once), and React components in jsdom.

/**
 * Server tests that never open the suite's database: pure server code, run
 * with the unit tests (no database, so no read or write checks to set up).
 * A test that opens it (test/test-database.ts, test/app-test.ts …) must not
 * be listed here.
 */
export const PURE_SERVER = [
  'src/server/capabilities/approvals/cost.test.ts',
  'src/server/capabilities/approvals/sandbox/policy.test.ts',
  'src/server/capabilities/approvals/sandbox/effects.test.ts',
  'src/server/capabilities/policies/call-value.test.ts',
  'src/server/capabilities/policies/evaluate.test.ts',
  'src/server/capabilities/ledger/upstream/movements.test.ts',
  'src/server/capabilities/notifications/digest.test.ts',
  'src/server/capabilities/notifications/messages.test.ts',
  'src/server/capabilities/notifications/recipients.test.ts',
  'src/server/capabilities/policies/upstream/index.test.ts',
  'src/server/capabilities/ramps/sandbox/ramp-requote.test.ts',
  'src/server/capabilities/ramps/sandbox/ramp-route.test.ts',
  'src/server/custody/sandbox/fee-model.test.ts',
  'src/server/custody/sandbox/pace.test.ts',
  'src/server/custody/sandbox/seed/ledger-past.test.ts',
  'src/server/custody/upstream/bank-account-fingerprint.test.ts',
  'src/server/env.test.ts',
  'src/server/http/cached-probe.test.ts',
  'src/server/http/compress-json.test.ts',
  'src/server/http/data-preload.test.ts',
  'src/server/http/inline-styles.test.ts',
  'src/server/http/request-log.test.ts',
  'src/server/http/server-timeouts.test.ts',
  'src/server/http/threaded-renderer.test.ts',
  'src/server/http/web-stream.test.ts',
  'src/server/pretty-log.test.ts',
  'src/server/protocol/api-token.test.ts',
  'src/server/protocol/canonical-json.test.ts',
  'src/server/protocol/ecdsa-keys.test.ts',
  'src/server/db/data-dir-lock.test.ts',
  'src/server/db/read-cache.thread-version.test.ts',
  'src/server/capabilities/ledger/statement.test.ts',
  'src/server/custody/sandbox/engine/staking-rewards.test.ts',
  'src/server/capabilities/payment-runs/check.test.ts',
  'src/server/capabilities/payment-runs/csv.test.ts',
  'src/server/custody/sandbox/fee-surges.test.ts',
  'src/server/runtime-dependencies.test.ts',
  'src/server/capabilities/live/hub.test.ts',
];
/**
 * Server tests on a PGlite directory of their own, or a PostgreSQL of their
 * own: whatever database the pass is given, they would run the same again.
 */
export const OWN_DATABASE = [
  'src/server/db/pglite-remote.test.ts',
  'src/server/db/database-outage.test.ts',
  'src/server/first-start.test.ts',
  'src/server/custody/upstream/upstream-server.test.ts',
  // The PGlite templates each test file's database is loaded from.
  'src/server/test/test-database.test.ts',
  // A server, or the CLI, opening a database directory of its own: on PGlite
  // the embedded default's own path (its worker thread, its directory), run
  // in the PGlite pass as before the app tests moved to PostgreSQL.
  'src/server/server.test.ts',
  'src/server/cli.test.ts',
  'src/server/cli/api-users.test.ts',
  'src/server/cli/approvals.test.ts',
  'src/server/cli/staff-credentials.test.ts',
  'src/server/cli/staff.test.ts',
  'src/server/cli/webhooks.test.ts',
];

/**
 * The app-on-a-database tests that can answer differently on PostgreSQL
 * than on PGlite, so the PostgreSQL pass (`--project storage`) runs them
 * again; every other app test runs once, on PGlite. PGlite is PostgreSQL
 * itself, one connection wide: what can differ is what a real server adds —
 * connections and pools that run at once (locks, races, a second server on
 * one database, what is applied once), the driver, how a statement commits
 * and fails, migrations, what the planner chooses, and the read cache, which
 * reuses reads on PostgreSQL by another rule than on PGlite. So: the db
 * layer and its read cache, the stores, and every test that races writes,
 * opens a second handle on its database or runs SQL of its own.
 * scripts/test-tiers.test.ts fails on a test file outside this list that
 * does any of those.
 */
export const BOTH_DATABASES = [
  // The db layer: migrations, the driver, commits, errors, stored times, the read cache.
  'src/server/db/client.test.ts',
  'src/server/db/read-cache.test.ts',
  'src/server/db/schema/one-of.test.ts',
  'src/server/http/database-errors.test.ts',
  'src/server/durability.test.ts',
  'src/server/clock.test.ts',
  'src/server/logger.test.ts',
  'src/server/capabilities/approvals/sandbox/pending.test.ts',
  'src/server/wiring/console.routes.test.ts',
  'src/server/capabilities/transactions/transactions-paging.test.ts',
  // The activity log: one hand-written query over change requests and status events.
  'src/server/capabilities/activity/activity.sdk.test.ts',
  // The overview's facts: the sandbox's sums in NUMERIC by quarter hour, and their statement count.
  'src/server/capabilities/overview/sandbox/index.test.ts',
  // The ledger's sums and pages over movements written in bulk by SQL of its own.
  'src/server/capabilities/ledger/ledger.routes.test.ts',
  // A month closed between movements written under the close's advisory lock, and late ones.
  'src/server/capabilities/ledger/periods/periods.property.test.ts',
  // The stores, and what each records once however many ask at once.
  'src/server/auth/session.store.test.ts',
  'src/server/auth/rate-limit.test.ts',
  'src/server/auth/second-factor.routes.test.ts',
  'src/server/auth/api-client-auth.test.ts',
  // An API user's scope, read from its own column with every signed request.
  'src/server/auth/api-client-scope.test.ts',
  'src/server/capabilities/policies/votes.store.test.ts',
  'src/server/console/staff-proposals.test.ts',
  'src/server/capabilities/webhooks/webhooks.test.ts',
  'src/server/capabilities/live/live.routes.test.ts',
  // Locks and races: the outflow cap, quorums, decisions and publishes at once.
  'src/server/capabilities/policies/outflow-lock.test.ts',
  'src/server/capabilities/policies/outflow-lock.upstream.test.ts',
  'src/server/capabilities/policies/guard.quorum.test.ts',
  'src/server/capabilities/policies/guard.test.ts',
  'src/server/capabilities/policies/policies.routes.test.ts',
  'src/server/capabilities/approvals/approvals.routes.test.ts',
  // A run's submit and its frozen rule, one transaction (a trigger of its own refuses the rule).
  'src/server/capabilities/payment-runs/payment-runs.routes.test.ts',
  // A held kind's effect and its signature, one transaction: a crash keeps neither.
  'src/server/capabilities/approvals/core/held.test.ts',
  'src/server/capabilities/ramps/ramps.refusals.test.ts',
  // The engine's transactions: creates, lifecycles and replacements at once,
  // the lock order, the simulator's batches, thread and restart.
  'src/server/custody/sandbox/engine/create.test.ts',
  'src/server/custody/sandbox/engine/lifecycle.test.ts',
  'src/server/custody/sandbox/engine/replace.test.ts',
  'src/server/custody/sandbox/engine/lock-order.test.ts',
  'src/server/custody/sandbox/engine/invariants.property.test.ts',
  'src/server/custody/sandbox/engine/simulator.test.ts',
  'src/server/custody/sandbox/engine/simulator-thread.test.ts',
  'src/server/custody/sandbox/engine/restart.test.ts',
];

/** What every project on a database shares. */
const DATABASE_TIER = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // The migrated template made once, before any file (test/test-database.ts).
  globalSetup: ['src/server/test/global-setup.ts'],
  // Every cached read checked against the tables it declares; READ_CACHE=off honoured.
  setupFiles: ['src/server/test/read-cache-setup.ts'],
};

/**
 * The app-on-a-database projects: a worker's files share its modules instead
 * of importing the whole server again each (most of a small file's time was
 * that import). So each file must close what it opens, which
 * test/left-open.ts checks after every file, and must not rely on a module's
 * fresh state nor mock a module.
 */
const SHARED_WORKER = {
  ...DATABASE_TIER,
  isolate: false,
  setupFiles: [...DATABASE_TIER.setupFiles, 'src/server/test/left-open.ts'],
};

/** What the React component projects share. */
const WEB = {
  environment: 'jsdom' as const,
  setupFiles: ['src/web/test/setup.ts'],
  // userEvent types key by key in jsdom; on a busy two-core machine a
  // form test can pass 5 s without being wrong. A limit, not a target.
  testTimeout: 30_000,
};

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
          name: 'app',
          environment: 'node',
          // The SPA's client is tested here too, against the real app in process.
          include: ['src/server/**/*.test.ts', 'src/web/**/*.integration.test.ts'],
          exclude: [...PURE_SERVER, ...OWN_DATABASE, ...BOTH_DATABASES],
          ...SHARED_WORKER,
        },
      },
      {
        test: {
          name: 'storage',
          environment: 'node',
          include: BOTH_DATABASES,
          ...SHARED_WORKER,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: OWN_DATABASE,
          ...DATABASE_TIER,
        },
      },
      {
        test: {
          name: 'web',
          ...WEB,
          include: ['src/web/**/*.test.tsx'],
          // Each file keeps its own jsdom window and modules. Shared (isolate: false) the
          // project took three fifths less CPU, but a file's leftovers then reached the next:
          // in two of seven runs a signed-decision test's card re-read never arrived after
          // another file had run first, depending on the order. Isolation is the price of
          // tests that cannot see each other.
        },
      },
    ],
  },
});
