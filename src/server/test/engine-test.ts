import { test } from 'vitest';
import { createTestApiUser } from './api-client.ts';
import { createRequests } from './create-requests.ts';
import { createEngineFixture, createEngineTestApp } from './engine-test-app.ts';

/**
 * The engine's tests' Vitest fixtures, each made once per test file: `t`, the
 * app over a fresh database on a TestClock (closed after the file's last
 * test); `f`, the vaults and contacts of `createEngineFixture`; `requests`,
 * the create tests' request builders; `client`, an API user signing as the
 * provider's SDKs do. A test names the ones it uses:
 * `engineTest('…', async ({ t, f }) => …)`.
 */
export const engineTest = test
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from its first argument's pattern
  .extend('t', { scope: 'file' }, async ({}, { onCleanup }) => {
    const app = await createEngineTestApp();
    onCleanup(() => app.close());
    return app;
  })
  .extend('f', { scope: 'file' }, ({ t }) => createEngineFixture(t.db, t.orgId))
  .extend('requests', { scope: 'file' }, ({ t, f }) => createRequests(t, f))
  .extend('client', { scope: 'file' }, ({ t }) => createTestApiUser(t, 'api client'));
