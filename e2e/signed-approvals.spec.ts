import { randomInt } from 'node:crypto';
import type { Page } from '@playwright/test';
import { shortDigest } from '../src/contract/approval-card.ts';
import type { ApprovalSignatures } from '../src/contract/approval-signature.ts';
import { DEFAULT_POLICY, type Policy } from '../src/contract/policies.ts';
import { expect, signOut, type WorkerWorld } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';
import { expectBulkApproved } from './inbox.ts';
import { signCount, signerWithPasskey } from './passkeys.ts';
import { test } from './policy-turn.ts';
import { approveByApi, memberPage } from './transfers.ts';
import { csrfOf } from './worker-members.ts';
import { DESKTOP_ONLY } from './widths.ts';
import { holdFeesCalm } from './worker-world.ts';

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
 * A fee that rises past the ceiling an approver signed voids that approval:
 * the fee market is raised for the worker's own sub-organization alone (the
 * sandbox's fee surge), so no other story's fees move.
 *
 * Chromium refuses WebAuthn on an IP origin, so the approver's browser opens
 * the console as http://localhost:<port> (e2e/passkeys.spec.ts says why the
 * server answers it as its own).
 */

const DONE = 'Approved. The timeline follows it to the chain.';

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
      await expectBulkApproved(dialog, 3);

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

/** Two approvals by approvers or admins for the worker's own sub-organization's transfers only. */
const twoForTheWorld = (subOrgId: string): Policy => ({
  rules: [
    {
      id: 'signed-surge',
      name: 'Two for surged transfers',
      match: { categories: ['TRANSFER'], subOrgIds: [subOrgId] },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['approver', 'admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
});

/**
 * The sandbox's fee market of Ethereum for the sub-organization's items, held at
 * the calm market times `factor` (as the worker's world holds it at 1).
 */
const surgeFees = (admin: Page, baseURL: string, subOrgId: string, factor: string) =>
  holdFeesCalm(admin.request, new URL(baseURL).origin, subOrgId, factor, ['ETHEREUM']);

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a fee risen past the signed ceiling voids the earlier approval, visibly, and a new signed approval over the new card is needed', async ({
      page,
      browser,
      playwright,
      members,
      world,
      baseURL,
      policyTurn,
    }) => {
      test.slow();
      const base = baseURL ?? '';
      const signer = await signerWithPasskey({
        fresh: () => playwright.request.newContext({ baseURL }),
        browser,
        admin: page,
        members,
        subOrgId: world.subOrg.id,
        baseURL: base,
        width,
      });
      const { page: approver } = signer;

      // Two approvals for this worker's transfers, frozen on the one made during the turn.
      // The worker's admin proposes it (signed in already): it is then never theirs to approve.
      await policyTurn.take(twoForTheWorld(world.subOrg.id));
      let id: string;
      try {
        id = await proposeTransfer(page, base, world, uniqueAmount());
      } finally {
        await policyTurn.end();
      }

      // The signer approves, signed over the card as it is now.
      await approver.goto(`/transactions/${id}`);
      await expectHydrated(approver);
      await approver.getByRole('button', { name: 'Approve…' }).click();
      const dialog = approver.getByRole('dialog', { name: 'Approve this transaction?' });
      const note = dialog.getByTestId('signing-note');
      await expect(note).toContainText('Your approval is signed with your passkey');
      const first = (await note.locator('span[title]').getAttribute('title')) ?? '';
      await dialog.getByRole('button', { name: 'Approve transaction' }).click();
      await expect(approver.getByText(/Your approval is recorded: 1 of 2/)).toBeVisible();
      const afterFirst = await signCount(signer);

      // The fee market of this worker's sub-organization alone rises fivefold: past the
      // ceiling signed (the fee shown plus a quarter).
      await surgeFees(page, base, world.subOrg.id, '5');
      try {
        // Another approver's vote is counted against the card as it is now: the signer's
        // approval stops counting, and nothing is sent on it.
        // (The worker's organization-wide admin, signed in for the turn already.)
        await approveByApi(policyTurn.author, base, id);

        await approver.goto(`/transactions/${id}`);
        await expectHydrated(approver);
        const voided = approver.getByTestId('card-voided');
        await expect(voided).toContainText(`No longer counts: ${signer.name}’s approval`);
        await expect(voided).toContainText(/the fee ceiling rose from [0-9.]+ ETH to [0-9.]+ ETH/);
        const signatures = approver.getByRole('region', { name: 'Signatures' });
        await expect(signatures.getByTestId('signatures-list')).toContainText(
          /No longer counts: the fee ceiling rose from [0-9.]+ ETH to [0-9.]+ ETH/,
        );

        // The signer may approve again: a new signature, over the new card.
        await approver.getByRole('button', { name: 'Approve…' }).click();
        const again = approver.getByRole('dialog', { name: 'Approve this transaction?' });
        const renewed = again.getByTestId('signing-note');
        await expect(renewed).toContainText('Your approval is signed with your passkey');
        const second = (await renewed.locator('span[title]').getAttribute('title')) ?? '';
        expect(second).not.toBe(first);
        await again.getByRole('button', { name: 'Approve transaction' }).click();
        await expect(approver.getByText(DONE)).toBeVisible();
        expect(await signCount(signer)).toBe(afterFirst + 1);

        const stored = await signaturesOf(approver, id);
        expect(
          stored.signatures
            .filter((s) => s.decidedBy === signer.name)
            .map((s) => [s.digest, s.valid, s.counts]),
        ).toEqual([
          [first, true, false],
          [second, true, true],
        ]);
        await expectNoAxeViolations(approver);
      } finally {
        await surgeFees(page, base, world.subOrg.id, '1');
        await signer.context.close();
      }
    });
  });
}
