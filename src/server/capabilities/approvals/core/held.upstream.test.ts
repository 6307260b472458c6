import { describe, expect } from 'vitest';
import { ApprovalInboxResponse } from '#contract/approval-inbox.ts';
import { ApprovalSignatures } from '#contract/approval-signature.ts';
import { pathOf } from '#contract/endpoint.ts';
import { approvalSignatures } from '#contract/endpoints/approval-signatures.ts';
import { approvalInbox } from '#contract/endpoints/approvals.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { DEFAULT_POLICY, PolicyState, PolicyVersion } from '#contract/policies.ts';
import { signIntent, withPasskey } from '../../../test/signed-intents.ts';
import { twoConsolesTest } from '../../../test/two-consoles.ts';

/**
 * The kinds the console holds itself, in upstream mode (A over a sandbox
 * custody API, B, over real HTTP): a staff change and a policy publish wait in
 * A's inbox with their cards, are decided through the same core route, signed
 * by a member with a passkey (refused unsigned), and applied once; the
 * signature is kept and checked again. Nothing of them reaches B: they are
 * the console's own changes.
 */
const upstreamTest = twoConsolesTest();

const send = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

describe('held kinds in upstream mode', () => {
  upstreamTest(
    'a staff change and a policy publish are decided signed over their cards, and applied',
    async ({ t, admin }) => {
      const signerApp = { app: t.a, db: t.aDatabase.db, authClock: t.clock };
      const ada = await withPasskey(signerApp, 'Ada Upstream Admin', 'admin');

      // A staff change: the admin raises a viewer to approver, proposed to another admin.
      const created = await admin.json(
        '/api/console/staff/',
        send('POST', { email: 'vic-upstream@example.test', name: 'Vic Viewer', role: 'viewer' }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const viewer = (created.body as { member: { id: string } }).member;
      const proposed = await admin.json(
        `/api/console/staff/${viewer.id}/`,
        send('PATCH', { role: 'approver' }),
      );
      expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
      const proposalId = (proposed.body as { proposal: { id: string } }).proposal.id;

      // A policy publish: the admin saves a draft, another admin publishes it.
      const saved = await admin.json(
        '/api/console/policies/accounts/draft/',
        send('PUT', { policy: DEFAULT_POLICY, revision: 0 }),
      );
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const publishId = PolicyVersion.parse(saved.body).publishItem ?? '';

      const inbox = await ada.session.json(`${pathOf(approvalInbox, {})}?limit=100`);
      expect(inbox.status, JSON.stringify(inbox.body)).toBe(200);
      const held = ApprovalInboxResponse.parse(inbox.body).results.filter(
        (item) => item.kind === 'HELD',
      );
      expect(held.map((item) => item.id).sort()).toEqual([proposalId, publishId].sort());
      expect(held.find((item) => item.id === proposalId)).toMatchObject({
        card: {
          intent: {
            kind: 'STAFF_CHANGE',
            change: {
              lines: [{ label: 'Role', before: 'viewer', after: 'approver' }],
            },
          },
        },
      });

      for (const id of [proposalId, publishId]) {
        const unsigned = await ada.session.json(
          pathOf(decideApprovable, { entityId: id }),
          send('POST', { action: 'approve' }),
        );
        expect(unsigned.status, JSON.stringify(unsigned.body)).toBe(403);
        expect(unsigned.body).toMatchObject({ code: 'SIGNED_INTENT_REQUIRED' });
        const signed = await ada.session.json(
          pathOf(decideApprovable, { entityId: id }),
          send('POST', { action: 'approve', intent: await signIntent(ada, id) }),
        );
        expect(signed.status, JSON.stringify(signed.body)).toBe(200);
        expect(signed.body).toMatchObject({ status: 'APPROVED' });
        const stored = ApprovalSignatures.parse(
          (await ada.session.json(pathOf(approvalSignatures, { entityId: id }))).body,
        );
        expect(stored.signatures.map((s) => [s.decidedBy, s.valid, s.counts])).toEqual([
          ['Ada Upstream Admin', true, true],
        ]);
      }

      // Applied: the member is an approver, and the draft is the policy in force.
      const team = await admin.json('/api/console/staff/?q=vic-upstream');
      expect(
        (team.body as { results: Array<{ id: string; role: string }> }).results.map((m) => [
          m.id,
          m.role,
        ]),
      ).toEqual([[viewer.id, 'approver']]);
      const state = PolicyState.parse((await admin.json('/api/console/policies/accounts/')).body);
      expect(state.draft).toBeNull();
      expect(state.active.publishedBy).toMatchObject({ id: ada.session.member.id });
    },
  );
});
