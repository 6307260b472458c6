import { defineConfig } from 'vitest/config';

// Three projects: pure code (contract, lib), the server through its real app
// and database ("storage", also run against PostgreSQL by `npm run test:pg`),
// and React components in jsdom.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/contract/**/*.test.ts', 'src/web/lib/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'storage',
          environment: 'node',
          include: ['src/server/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.tsx'],
        },
      },
    ],
  },
});
