import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { pino } from 'pino';
import { test } from 'vitest';
import type { StaffRole } from '#contract/auth.ts';
import { createApp, type App } from '../app.ts';
import { originPolicy, type OriginPolicy } from '../http/public-origin.ts';
import type { DatabaseHandle } from '../db/client.ts';
import {
  createManualClock,
  signInStaff,
  type ManualClock,
  type StaffSession,
} from './staff-session.ts';
import { createTestDatabase } from './test-database.ts';
import { createApiUser, type CreatedApiUser } from '../custody/sandbox/api-users.store.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  type EngineFixture,
  type EngineTestApp,
} from './engine-test-app.ts';
import { createUpstreamBackend } from '../wiring/upstream-backend.ts';
import { HTTP_SERVER_TIMEOUTS } from '../http/server-timeouts.ts';

/**
 * The upstream test bed: console B in sandbox mode is the custody API,
 * served on a free port with an API user of its own; console A runs in
 * upstream mode against it with that user's key, over real HTTP. Tests act
 * as staff on A and read the truth from B. `intercept` lets a test stand
 * between A and B (a lost answer, say) without mocking either side.
 */

export type FetchInterceptor = (
  send: typeof fetch,
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
) => Promise<Response>;

export interface TwoConsoles {
  /** B: the sandbox, with its engine on a test clock. */
  b: EngineTestApp;
  fixture: EngineFixture;
  bUrl: string;
  apiUser: CreatedApiUser;
  /** A: the console in upstream mode. */
  a: App;
  aDatabase: DatabaseHandle;
  /** A's clock: its sessions and its /readyz probe's freshness are judged by it. */
  clock: ManualClock;
  signIn(role: StaffRole, options?: { subOrgIds?: string[] | null }): Promise<StaffSession>;
  /** Set to stand between A and B for the next calls; null to stop. */
  intercept: FetchInterceptor | null;
  /** Stops B's HTTP server (A then finds nothing listening). */
  stopB(): Promise<void>;
  close(): Promise<void>;
}

export async function createTwoConsoles(
  options: { timeoutMs?: number; ledgerSyncEveryMs?: number; ledgerPageSize?: number } = {},
): Promise<TwoConsoles> {
  // B answers as its listen address too, known once it listens.
  const bOrigin: { policy?: OriginPolicy } = {};
  const b = await createEngineTestApp({
    origin: () => bOrigin.policy ?? originPolicy('http://localhost'),
  });
  const fixture = await createEngineFixture(b.db, b.orgId);
  const apiUser = await createApiUser(b.db, { orgId: b.orgId, name: 'Console A', now: new Date() });
  const server = await listen(b.app);
  const bUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // In-process reads of B (app.request) address http://localhost; A reaches it on its port.
  bOrigin.policy = originPolicy('http://localhost', {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
  });
  let serving = true;

  const aDatabase = await createTestDatabase();
  const clock = createManualClock();
  const bed: TwoConsoles = {
    b,
    fixture,
    bUrl,
    apiUser,
    a: undefined as unknown as App,
    aDatabase,
    clock,
    intercept: null,
    signIn: (role, signInOptions = {}) =>
      signInStaff({ request: bed.a.request }, aDatabase.db, clock, { role, ...signInOptions }),
    async stopB() {
      if (!serving) return;
      serving = false;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
    },
    async close() {
      await bed.stopB();
      await aDatabase.close();
      await b.close();
    },
  };
  const send: typeof fetch = (input, init) => globalThis.fetch(input, init);
  bed.a = createApp({
    config: { staticDir: path.join(process.cwd(), '.tmp', 'no-spa-here') },
    backend: createUpstreamBackend({
      baseUrl: bUrl,
      apiKey: apiUser.apiKey,
      privateKey: apiUser.privateKeyHex,
      timeoutMs: options.timeoutMs ?? 10_000,
      backoffMs: 5,
      db: aDatabase.db,
      ...(options.ledgerSyncEveryMs === undefined
        ? {}
        : { ledgerSyncEveryMs: options.ledgerSyncEveryMs }),
      ...(options.ledgerPageSize === undefined ? {} : { ledgerPageSize: options.ledgerPageSize }),
      fetch: (input, init) =>
        bed.intercept ? bed.intercept(send, input, init) : send(input, init),
    }),
    database: aDatabase,
    logger: pino({ level: 'silent' }),
    auth: { db: aDatabase.db, clock, demoAccounts: false, trustProxy: false },
  });
  return bed;
}

/** With the console's own server timeouts, as test/served.ts's `listen` says why. */
function listen(app: App): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, hostname: '127.0.0.1', port: 0, serverOptions: HTTP_SERVER_TIMEOUTS },
      () => resolve(server),
    );
    server.once('error', reject);
  });
}

/**
 * The upstream test bed as Vitest fixtures, each made once per file when a
 * test names it: `t` (the two consoles, closed after the file's last test;
 * `prepare` puts in what every test of the file relies on, on B, once they
 * are made) and A's signed-in `admin`, `initiator` and `approver` of all
 * sub-orgs. `twoConsolesTest()('…', async ({ t, approver }) => …)`.
 */
export function twoConsolesTest(
  options: { timeoutMs?: number; ledgerSyncEveryMs?: number; ledgerPageSize?: number } = {},
  prepare?: (t: TwoConsoles) => Promise<unknown>,
) {
  return test
    .extend(
      't',
      { scope: 'file' },
      // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from its first argument's pattern
      async ({}, { onCleanup }: { onCleanup: (fn: () => Promise<void>) => void }) => {
        const t = await createTwoConsoles(options);
        onCleanup(() => t.close());
        await prepare?.(t);
        return t;
      },
    )
    .extend('admin', { scope: 'file' }, ({ t }) => t.signIn('admin'))
    .extend('initiator', { scope: 'file' }, ({ t }) => t.signIn('initiator'))
    .extend('approver', { scope: 'file' }, ({ t }) => t.signIn('approver'));
}
