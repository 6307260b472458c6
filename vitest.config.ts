import { defineConfig } from 'vitest/config';

// Three projects: pure code (contract, lib), the server through its real app
// and database ("storage", also run against PostgreSQL by `npm run test:pg`),
// and React components in jsdom.
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
          // and the lint-rule tests in scripts/.
          include: ['src/contract/**/*.test.ts', 'src/web/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts'],
        },
      },
      {
        test: {
          name: 'storage',
          environment: 'node',
          // The SPA's client is tested here too, against the real app in process.
          include: ['src/server/**/*.test.ts', 'src/web/**/*.integration.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Every cached read checked against the tables it declares; READ_CACHE=off honoured.
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
