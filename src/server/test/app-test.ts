import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'vitest';
import type { CustodyBackend } from '../custody/backend.ts';
import { createSubOrg } from './fixtures.ts';
import { createTestApp, type TestApp } from './test-app.ts';

type TestAppOptions = NonNullable<Parameters<typeof createTestApp>[0]> & {
  /**
   * A build for the app to serve, file by file (`{ 'index.html': …,
   * '.vite/manifest.json': … }`): written to a directory of its own, the
   * app's staticDir, removed with the app.
   */
  staticFiles?: Record<string, string>;
};

/**
 * The server tests' Vitest fixtures, each made once per test file and only
 * when a test names it: `t`, the real app over a fresh database
 * (`createTestApp`, closed after the file's last test), and a signed-in
 * `viewer`, `initiator` and `approver` of all sub-orgs (`t.admin` is the
 * admin), and `subOrgId`, a sub-organization of the app's organization. `appTest('…', async ({ t, viewer }) => …)`; a file whose app needs
 * options makes its own: `const appTest = appTestWith({ seed: true })`, and
 * `prepare` puts in what every test of the file relies on (rows the app's
 * engine needs, say) once the app is made.
 */
export function appTestWith(
  options: TestAppOptions = {},
  prepare?: (t: TestApp) => Promise<unknown>,
) {
  return test
    .extend('t', { scope: 'file' }, appFixture(options, prepare))
    .extend('viewer', { scope: 'file' }, ({ t }) => t.signIn('viewer'))
    .extend('initiator', { scope: 'file' }, ({ t }) => t.signIn('initiator'))
    .extend('approver', { scope: 'file' }, ({ t }) => t.signIn('approver'))
    .extend('subOrgId', { scope: 'file' }, async ({ t }) => (await createSubOrg(t.db, t.orgId)).id);
}

/**
 * A file fixture making an app of its own (closed after the file's last
 * test): `t`'s, and another for a test that sets two consoles side by side,
 * `appTestWith(…).extend('upstream', { scope: 'file' }, appFixture({ demoAccounts: false }))`.
 */
export function appFixture(options: TestAppOptions, prepare?: (t: TestApp) => Promise<unknown>) {
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from its first argument's pattern
  return async ({}, { onCleanup }: { onCleanup: (fn: () => Promise<void>) => void }) => {
    const { staticFiles, ...appOptions } = options;
    const staticDir = staticFiles ? await writeBuild(staticFiles) : undefined;
    const app = await createTestApp(staticDir ? { ...appOptions, staticDir } : appOptions);
    onCleanup(async () => {
      await app.close();
      if (staticDir) await rm(staticDir, { recursive: true, force: true });
    });
    await prepare?.(app);
    return app;
  };
}

async function writeBuild(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'app-test-build-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

/**
 * The sandbox without the change-request history that an upstream custody
 * API does not have: `appTestWith({ wrapBackend: withoutChangeRequestHistory })`
 * for the console's fallback to its own audit log.
 */
export const withoutChangeRequestHistory = (backend: CustodyBackend): CustodyBackend => ({
  ...backend,
  changeRequestHistory: undefined,
});

export const appTest = appTestWith();
