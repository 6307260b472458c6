import { randomInt } from 'node:crypto';
import type {
  APIRequestContext,
  Browser,
  BrowserContext,
  CDPSession,
  Page,
} from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { shortDigest } from '../src/contract/approval-card.ts';
import type { ApprovalSignatures } from '../src/contract/approval-signature.ts';
import {
  expect,
  signInRequest,
  signOut,
  test,
  type WorkerMembers,
  type WorkerWorld,
} from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';
import { memberPage } from './transfers.ts';
import { csrfOf } from './worker-members.ts';
import { DESKTOP_ONLY } from './widths.ts';

/**
 * Approvals signed with a passkey, in Chromium with a virtual authenticator
 * (the DevTools protocol's WebAuthn domain): an approver registers a passkey,
 * signs in with it as the second step, and approves a transfer, alone and
 * three at once; each approval is a signature over the card the dialog
 * showed, checked again by the server and shown on the item's page.
 *
 * The approver is the story's own, proposed by the worker's admin and
 * approved by its organization-wide admin (a member who may approve is a
 * staff change under four eyes): a member with a passkey signs every
 * decision, so the worker's shared approvers, who decide unsigned in other
 * stories, never get one. The transfers leave the worker's own funded vault
 * for its approved contact (e2e/worker-world.ts), each of an amount no other
 * story uses, and are found by their ids.
 *
 * Chromium refuses WebAuthn on an IP origin, so the approver's browser opens
 * the console as http://localhost:<port> (e2e/passkeys.spec.ts says why the
 * server answers it as its own).
 */

const DONE = 'Approved. The timeline follows it to the chain.';

interface Signer {
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
async function signerWithPasskey(options: {
  /** A fresh API context with no cookies: the organization-wide admin who approves the new member. */
  fresh: () => Promise<APIRequestContext>;
  browser: Browser;
  admin: Page;
  members: WorkerMembers;
  /** The worker's sub-organization: its admin grants no other, and the transfers approved are there. */
  subOrgId: string;
  baseURL: string;
  width: number;
}): Promise<Signer & { email: string; password: string }> {
  const { fresh, browser, admin, members, subOrgId, baseURL, width } = options;
  const origin = new URL(baseURL).origin;
  const tag = `${width}-${randomInt(2 ** 40).toString(36)}`;
  const email = `signer-${tag}@example.com`;
  const name = `Signer ${tag}`;
  const password = `a signer passphrase ${tag}`;

  const created = await admin.request.post('/api/console/staff/', {
    headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(admin.request) },
    data: { email, name, role: 'approver', subOrgIds: [subOrgId] },
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

/** A pending transfer of `amount` ETH from the worker's funded vault to its approved contact, by its initiator. */
async function proposeTransfer(
  initiator: Page,
  baseURL: string,
  world: WorkerWorld,
  amount: string,
): Promise<string> {
  const response = await initiator.request.post('/api/external/transactions/', {
    headers: {
      Origin: new URL(baseURL).origin,
      'X-CSRF-Token': await csrfOf(initiator.request),
    },
    data: {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: world.funded.id },
      destination: { type: 'CONTACT', id: world.ethereum.id },
      amount,
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      memo: `signed approval ${amount}`,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

/**
 * An amount of ETH no other story sends: 0.00 and six random digits, the last
 * never 0 (the card shows an amount without trailing zeros).
 */
const uniqueAmount = () => `0.00${randomInt(10_000, 100_000)}${randomInt(1, 10)}`;

async function signaturesOf(page: Page, id: string): Promise<ApprovalSignatures> {
  const response = await page.request.get(`/api/console/approval_signatures/${id}/`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as ApprovalSignatures;
}

/** How many assertions the virtual authenticator's one passkey has made. */
async function signCount(signer: Signer): Promise<number> {
  const { credentials } = await signer.cdp.send('WebAuthn.getCredentials', {
    authenticatorId: signer.authenticatorId,
  });
  expect(credentials).toHaveLength(1);
  return credentials[0]?.signCount ?? 0;
}

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('an approver registers a passkey, signs in with it, and approves a transfer signed over the card shown', async ({
      page,
      browser,
      playwright,
      members,
      world,
      baseURL,
    }) => {
      // A member made under four eyes, a passkey, two sign-ins and a signed approval.
      test.slow();
      const signer = await signerWithPasskey({
        fresh: () => playwright.request.newContext({ baseURL }),
        browser,
        admin: page,
        members,
        subOrgId: world.subOrg.id,
        baseURL: baseURL ?? '',
        width,
      });
      const { page: approver } = signer;

      // Signed out, the password leads to the passkey step, which signs in.
      await signOut(approver);
      await approver.getByLabel('Email').fill(signer.email);
      await approver.getByLabel('Password').fill(signer.password);
      await approver.getByRole('button', { name: 'Sign in' }).click();
      await expect(approver.getByRole('heading', { name: 'Use your passkey' })).toBeVisible();
      await approver.getByRole('button', { name: 'Use your passkey' }).click();
      await expect(approver.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
      const signedIn = await signCount(signer);

      const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
      const amount = uniqueAmount();
      const id = await proposeTransfer(initiator, baseURL ?? '', world, amount);
      await initiator.context().close();

      await approver.goto(`/transactions/${id}`);
      await expectHydrated(approver);
      await approver.getByRole('button', { name: 'Approve…' }).click();
      const dialog = approver.getByRole('dialog', { name: 'Approve this transaction?' });
      const card = dialog.getByRole('region', { name: 'The card you sign' });
      await expect(card).toContainText(`${amount} ETH`);
      await expect(card).toContainText(world.ethereum.name);
      const note = dialog.getByTestId('signing-note');
      await expect(note).toContainText('Your approval is signed with your passkey');
      const shown = (await note.locator('span[title]').getAttribute('title')) ?? '';
      expect(shown).toMatch(/^[0-9a-f]{64}$/);
      await expectNoAxeViolations(approver);
      await dialog.getByRole('button', { name: 'Approve transaction' }).click();
      await expect(approver.getByText(DONE)).toBeVisible();
      expect(await signCount(signer)).toBe(signedIn + 1);

      // The item's page shows the signature, checked again by the server, over the card shown.
      const panel = approver.getByRole('region', { name: 'Signatures' });
      await expect(panel.getByTestId('signatures-summary')).toContainText(
        `1 of 1 signature valid over intent ${shortDigest(shown)}: ${signer.name} (passkey)`,
      );
      const stored = await signaturesOf(approver, id);
      expect(
        stored.signatures.map((s) => [s.decidedBy, s.decision, s.digest, s.valid, s.counts]),
      ).toEqual([[signer.name, 'APPROVED', shown, true, true]]);
      await expectNoAxeViolations(approver);
      await signer.context.close();
    });

    test('a bulk approval of three transfers signs each one’s card', async ({
      page,
      browser,
      playwright,
      members,
      world,
      baseURL,
    }) => {
      test.slow();
      const signer = await signerWithPasskey({
        fresh: () => playwright.request.newContext({ baseURL }),
        browser,
        admin: page,
        members,
        subOrgId: world.subOrg.id,
        baseURL: baseURL ?? '',
        width,
      });
      const { page: approver } = signer;
      const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(await proposeTransfer(initiator, baseURL ?? '', world, uniqueAmount()));
      await initiator.context().close();
      const before = await signCount(signer);

      await approver.goto(`/approvals?subOrg=${world.subOrg.id}`);
      await expectHydrated(approver);
      for (const id of ids)
        await approver.locator(`[data-approval-id="${id}"]`).getByRole('checkbox').check();
      const bulk = approver.getByRole('group', { name: 'Approve several transactions' });
      await expect(bulk).toContainText('3 selected');
      await bulk.getByRole('button', { name: 'Approve selected…' }).click();
      const dialog = approver.getByRole('dialog', { name: 'Approve 3 transactions?' });
      await expectNoAxeViolations(approver);
      await dialog.getByRole('button', { name: 'Approve 3 transactions' }).click();
      await expect(dialog.getByRole('status')).toHaveText('Done: 3 approved.');

      // One assertion per item, each over that item's own card.
      expect(await signCount(signer)).toBe(before + 3);
      const digests: string[] = [];
      for (const id of ids) {
        const stored = await signaturesOf(approver, id);
        expect(stored.signatures.map((s) => [s.decidedBy, s.valid, s.credentialKind])).toEqual([
          [signer.name, true, 'passkey'],
        ]);
        digests.push(stored.signatures[0]?.digest ?? '');
      }
      expect(new Set(digests).size).toBe(3);

      await dialog.getByRole('button', { name: 'Close' }).click();
      await approver.goto(`/transactions/${ids[0] ?? ''}`);
      await expect(
        approver.getByRole('region', { name: 'Signatures' }).getByTestId('signatures-summary'),
      ).toContainText(
        `1 of 1 signature valid over intent ${shortDigest(digests[0] ?? '')}: ${signer.name} (passkey)`,
      );
      await expectNoAxeViolations(approver);
      await signer.context.close();
    });
  });
}
