import path from 'node:path';
import { pino, type Logger } from 'pino';
import { createApp, type App, type CreateAppOptions } from '../app.ts';
import type { ApprovalSigning, SecondFactorPolicy } from '../auth/second-factor.ts';
import type { CustodyBackend } from '../custody/backend.ts';
import { createSandboxBackend } from '../wiring/sandbox-backend.ts';
import { seedSandbox, type SeedSummary } from '../custody/sandbox/seed.ts';
import type { Database, DatabaseHandle } from '../db/client.ts';
import type { StaffRole } from '#contract/auth.ts';
import { createOrg } from './fixtures.ts';
import {
  actAsAdmin,
  createManualClock,
  signInStaff,
  type ManualClock,
  type StaffSession,
} from './staff-session.ts';
import { createTestDatabase } from './test-database.ts';
import { originPolicy } from '../http/public-origin.ts';

export interface TestApp {
  app: App;
  db: Database;
  database: DatabaseHandle;
  /** The organization the app's requests act in. */
  orgId: string;
  seed?: SeedSummary;
  /** The clock sessions expire against; tests move it by hand. */
  clock: ManualClock;
  /** The clock sessions and API-client tokens are judged by: `clock` here. */
  authClock: ManualClock;
  /**
   * `app.request` acts as an admin made for this app (every /api call needs a
   * caller) unless the request brings a Cookie or Api-Key;
   * `anonymous` is the unpatched request, for tests of refusing one.
   */
  admin: StaffSession;
  anonymous: App['request'];
  /** A new member of that role (all sub-orgs unless given), signed in. */
  signIn(
    role: StaffRole,
    options?: { subOrgIds?: string[] | null; name?: string; createdBy?: string },
  ): Promise<StaffSession>;
  /** `app.request` parsed as JSON, with the status. */
  getJson(
    url: string,
    init?: RequestInit,
  ): Promise<{ status: number; body: unknown; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * The real app over a fresh real database, for one test file. With `seed`,
 * the database holds the first-start seed data; otherwise it holds one empty
 * organization that the test fills with its own rows.
 */
export async function createTestApp(
  options: {
    seed?: boolean;
    staticDir?: string;
    /** The server render of signed-in pages (app.ts); none unless given. */
    pageRenderer?: CreateAppOptions['pageRenderer'];
    demoAccounts?: boolean;
    /** TRUST_PROXY: false, true (one proxy) or how many proxies are in front. */
    trustProxy?: boolean | number;
    /** Wraps the sandbox backend, e.g. to take away an optional method as upstream lacks it. */
    wrapBackend?: (backend: CustodyBackend) => CustodyBackend;
    /** Where the app logs; silent unless a test reads the log. */
    logger?: Logger;
    /** PUBLIC_URL: the only Host answered; http://localhost (what app.request addresses) unless given. */
    publicUrl?: string;
    /** STAFF_SECOND_FACTOR; `privileged`, the server's default, unless given. */
    secondFactor?: SecondFactorPolicy;
    /** STAFF_PASSKEY_PROMPT; on, the server's default, unless given. */
    passkeyPrompt?: boolean;
    /** APPROVAL_SIGNING; `registered`, the server's default, unless given. */
    approvalSigning?: ApprovalSigning;
    /** How long a body may take to arrive (app.ts); the app's default unless given. */
    bodyReadTimeoutMs?: number;
    /** Approvable kinds beyond the core's own (app.ts): a test's kind. */
    approvableKinds?: CreateAppOptions['approvableKinds'];
    /** Which team chat webhooks may be added; public ones only unless given. */
    chatTargets?: CreateAppOptions['chatTargets'];
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const clock = createManualClock();
  let orgId: string;
  let seed: SeedSummary | undefined;
  if (options.seed) {
    seed = await seedSandbox(database.db, { now: clock.now() });
    orgId = seed.organizationId ?? '';
  } else {
    orgId = (await createOrg(database.db)).id;
  }
  const origin = options.publicUrl ? originPolicy(options.publicUrl) : undefined;
  const app = createApp({
    config: { staticDir: options.staticDir ?? path.join(process.cwd(), '.tmp', 'no-spa-here') },
    ...(options.pageRenderer ? { pageRenderer: options.pageRenderer } : {}),
    backend: (options.wrapBackend ?? ((b) => b))(createSandboxBackend({ db: database.db, orgId })),
    database,
    logger: options.logger ?? pino({ level: 'silent' }),
    ...(origin ? { origin: () => origin } : {}),
    ...(options.bodyReadTimeoutMs ? { bodyReadTimeoutMs: options.bodyReadTimeoutMs } : {}),
    ...(options.approvableKinds ? { approvableKinds: options.approvableKinds } : {}),
    ...(options.chatTargets ? { chatTargets: options.chatTargets } : {}),
    auth: {
      db: database.db,
      clock,
      demoAccounts: options.demoAccounts ?? true,
      trustProxy: options.trustProxy ?? false,
      ...(options.secondFactor ? { secondFactor: options.secondFactor } : {}),
      ...(options.passkeyPrompt === undefined ? {} : { passkeyPrompt: options.passkeyPrompt }),
      ...(options.approvalSigning ? { approvalSigning: options.approvalSigning } : {}),
    },
  });
  const { admin, anonymous } = await actAsAdmin(app, database.db, clock);
  return {
    app,
    db: database.db,
    database,
    orgId,
    ...(seed ? { seed } : {}),
    clock,
    authClock: clock,
    admin,
    anonymous,
    signIn: (role, signInOptions = {}) =>
      signInStaff({ request: anonymous }, database.db, clock, { role, ...signInOptions }),
    async getJson(url, init) {
      const res = await app.request(url, init);
      const text = await res.text();
      return {
        status: res.status,
        body: text ? (JSON.parse(text) as unknown) : undefined,
        headers: res.headers,
      };
    },
    close: () => database.close(),
  };
}
