import { randomInt } from 'node:crypto';
import { shortDigest } from '../src/contract/approval-card.ts';
import type { ApprovalSignatures } from '../src/contract/approval-signature.ts';
import type { StaffMember } from '../src/contract/auth.ts';
import { expect, signInRequest, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';
import { signCount, signerWithPasskey } from './passkeys.ts';
import { csrfOf } from './worker-members.ts';
import { DESKTOP_ONLY } from './widths.ts';

/**
 * A staff change decided on its held item's page, signed with a passkey: the
 * one way the console's own changes are decided. The worker's admin adds a
 * viewer to its sub-organization (applied at once); the worker's
 * organization-wide admin proposes raising them to approver (a proposal: a
 * member who may approve takes two admins). The story's own admin, with a
 * passkey on a virtual authenticator (e2e/passkeys.ts), opens it from the
 * Staff page, reads its card (the member, the role before → after), approves
 * it signed over that card, and the change is applied. The viewer and the
 * proposal are the story's own, found by the viewer's unique email.
 */

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a staff change proposed by one admin is opened from the Staff page by another, its card shown, approved signed, and applied', async ({
      page,
      browser,
      playwright,
      members,
      world,
      baseURL,
    }) => {
      // A member made under four eyes, a passkey, and a signed decision.
      test.slow();
      const base = baseURL ?? '';
      const origin = new URL(base).origin;
      const signer = await signerWithPasskey({
        fresh: () => playwright.request.newContext({ baseURL }),
        browser,
        admin: page,
        members,
        subOrgId: world.subOrg.id,
        baseURL: base,
        width,
        role: 'admin',
      });

      // The worker's admin adds a viewer: applied at once.
      const tag = randomInt(2 ** 40).toString(36);
      const email = `held-viewer-${tag}@example.com`;
      const name = `Held Viewer ${tag}`;
      const created = await page.request.post('/api/console/staff/', {
        headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(page.request) },
        data: { email, name, role: 'viewer', subOrgIds: [world.subOrg.id] },
      });
      expect(created.status(), await created.text()).toBe(201);
      const viewer = ((await created.json()) as { member: StaffMember }).member;

      // The organization-wide admin proposes raising them to approver.
      const proposer = await playwright.request.newContext({ baseURL });
      let proposalId: string;
      try {
        await signInRequest(proposer, members.orgAdmin, base);
        const proposed = await proposer.patch(`/api/console/staff/${viewer.id}/`, {
          headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(proposer) },
          data: { role: 'approver' },
        });
        expect(proposed.status(), await proposed.text()).toBe(200);
        const answer = (await proposed.json()) as {
          outcome: string;
          proposal: { id: string } | null;
        };
        expect(answer.outcome).toBe('proposed');
        proposalId = answer.proposal?.id ?? '';
      } finally {
        await proposer.dispose();
      }

      // The story's admin opens it from the Staff page, by the viewer's unique email.
      const { page: admin } = signer;
      await admin.goto('/staff');
      await expectHydrated(admin);
      const item = admin.locator(`[data-proposal-id="${proposalId}"]`);
      await expect(item).toContainText(email);
      await item.getByRole('link', { name: /^Review and decide/ }).click();
      await expect(admin).toHaveURL(new RegExp(`/approvals/held/${proposalId}$`));

      // Its card: the member, and the role before → after.
      const change = admin.getByTestId('card-change');
      await expect(change).toContainText(email);
      await expect(admin.locator('#held-item-page')).toContainText('Role: viewer → approver');
      await expectNoAxeViolations(admin);

      // Approved, signed over exactly that card.
      const before = await signCount(signer);
      await admin.getByRole('button', { name: 'Approve…' }).click();
      const dialog = admin.getByRole('dialog', { name: /^Approve / });
      const note = dialog.getByTestId('signing-note');
      await expect(note).toContainText('Your approval is signed with your passkey');
      const shown = (await note.locator('span[title]').getAttribute('title')) ?? '';
      expect(shown).toMatch(/^[0-9a-f]{64}$/);
      await expect(dialog.getByRole('region', { name: 'The card you sign' })).toContainText(
        'Role: viewer → approver',
      );
      await expectNoAxeViolations(admin);
      await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
      await expect(
        admin.getByRole('status').filter({ hasText: 'the decision is recorded' }),
      ).toHaveText('Approved: the decision is recorded.');
      expect(await signCount(signer)).toBe(before + 1);

      // The signature, checked again by the server, over the card shown.
      await expect(
        admin.getByRole('region', { name: 'Signatures' }).getByTestId('signatures-summary'),
      ).toContainText(
        `1 of 1 signature valid over intent ${shortDigest(shown)}: ${signer.name} (passkey)`,
      );
      const stored = await admin.request.get(`/api/console/approval_signatures/${proposalId}/`);
      expect(stored.status(), await stored.text()).toBe(200);
      expect(
        ((await stored.json()) as ApprovalSignatures).signatures.map((s) => [
          s.decidedBy,
          s.digest,
          s.valid,
        ]),
      ).toEqual([[signer.name, shown, true]]);

      // The change is applied: the member is an approver now.
      const found = await admin.request.get(
        `/api/console/staff/?${new URLSearchParams({ q: email })}`,
      );
      expect(found.status(), await found.text()).toBe(200);
      expect(
        ((await found.json()) as { results: StaffMember[] }).results.map((m) => [m.id, m.role]),
      ).toEqual([[viewer.id, 'approver']]);
      await expectNoAxeViolations(admin);
      await signer.context.close();
    });
  });
}
