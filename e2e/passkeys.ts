import { randomInt } from 'node:crypto';
import type {
  APIRequestContext,
  Browser,
  BrowserContext,
  CDPSession,
  Page,
} from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, signInRequest, type WorkerMembers } from './auth.ts';
import { expectHydrated } from './keyboard.ts';
import { csrfOf } from './worker-members.ts';

/**
 * A story's own member with a passkey, in Chromium with a virtual
 * authenticator (the DevTools protocol's WebAuthn domain). A member with a
 * passkey signs every decision, so the worker's shared members, who decide
 * unsigned in other stories, never get one: each story makes its own.
 *
 * Chromium refuses WebAuthn on an IP origin, so the member's browser opens
 * the console as http://localhost:<port> (e2e/passkeys.spec.ts says why the
 * server answers it as its own).
 */

export interface Signer {
  name: string;
  page: Page;
  context: BrowserContext;
  cdp: CDPSession;
  authenticatorId: string;
}

/**
 * The story's approver: proposed by the worker's admin, approved by its
 * organization-wide admin, its password chosen and its authenticator-app
 * factor set up at the first sign-in, as a new member does; then, signed in,
 * it registers a passkey on the account page.
 */
export async function signerWithPasskey(options: {
  /** A fresh API context with no cookies: the organization-wide admin who approves the new member. */
  fresh: () => Promise<APIRequestContext>;
  browser: Browser;
  admin: Page;
  members: WorkerMembers;
  /** The worker's sub-organization: its admin grants no other, and the transfers approved are there. */
  subOrgId: string;
  baseURL: string;
  width: number;
  /** The member's role: an approver unless said. */
  role?: 'approver' | 'admin';
}): Promise<Signer & { email: string; password: string }> {
  const { fresh, browser, admin, members, subOrgId, baseURL, width, role = 'approver' } = options;
  const origin = new URL(baseURL).origin;
  const tag = `${width}-${randomInt(2 ** 40).toString(36)}`;
  const email = `signer-${tag}@example.com`;
  const name = `Signer ${tag}`;
  const password = `a signer passphrase ${tag}`;

  const created = await admin.request.post('/api/console/staff/', {
    headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(admin.request) },
    data: { email, name, role, subOrgIds: [subOrgId] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const answer = (await created.json()) as {
    outcome: 'applied' | 'proposed';
    proposal: { id: string } | null;
    setup?: { token: string };
  };
  if (answer.outcome === 'proposed') {
    const checker = await fresh();
    try {
      await signInRequest(checker, members.orgAdmin, baseURL);
      const decided = await checker.post(
        `/api/console/staff/proposals/${answer.proposal?.id ?? ''}/decision/`,
        {
          headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(checker) },
          data: { action: 'approve' },
        },
      );
      expect(decided.status(), await decided.text()).toBe(200);
    } finally {
      await checker.dispose();
    }
  }

  const local = new URL(baseURL);
  local.hostname = 'localhost';
  const context = await browser.newContext({
    baseURL: local.origin,
    viewport: { width, height: 900 },
  });
  const page = await context.newPage();
  const headers = { Origin: local.origin };
  const setUp = await page.request.post('/auth/setup', {
    headers,
    data: { token: answer.setup?.token ?? '', password },
  });
  expect(setUp.status(), await setUp.text()).toBe(200);
  // The first sign-in sets up the authenticator app an approver must have.
  const login = await page.request.post('/auth/login', { headers, data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const step = (await login.json()) as { challengeId: string; enrolment: { secret: string } };
  const code = new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(step.enrolment.secret),
  }).generate();
  const done = await page.request.post('/auth/login/second-factor', {
    headers,
    data: { challengeId: step.challengeId, code },
  });
  expect(done.status(), await done.text()).toBe(200);

  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  await page.goto('/account');
  await expectHydrated(page);
  const panel = page.getByRole('region', { name: 'Passkeys' });
  await panel.getByRole('button', { name: 'Add a passkey' }).click();
  const add = page.getByRole('form', { name: 'Add a passkey' });
  await add.getByLabel('Name').fill('Signing laptop');
  await add.getByLabel('Current password').fill(password);
  await add.getByRole('button', { name: 'Create passkey' }).click();
  await expect(panel.getByText('Your passkey “Signing laptop” was added.')).toBeVisible();
  return { name, email, password, page, context, cdp, authenticatorId };
}

/** How many assertions the virtual authenticator's one passkey has made. */
export async function signCount(signer: Signer): Promise<number> {
  const { credentials } = await signer.cdp.send('WebAuthn.getCredentials', {
    authenticatorId: signer.authenticatorId,
  });
  expect(credentials).toHaveLength(1);
  return credentials[0]?.signCount ?? 0;
}
