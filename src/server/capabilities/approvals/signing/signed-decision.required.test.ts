import { describe, expect } from 'vitest';
import { ApprovalCardResponse } from '#contract/approval-card.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { approvalSigningChallenge } from '#contract/endpoints/approval-signatures.ts';
import { paths } from '#contract/paths.ts';
import { appTestWith } from '../../../test/app-test.ts';
import { proposeBankAccount } from '../../../test/staff-approvals.ts';

/**
 * APPROVAL_SIGNING=required: every staff decision is signed, so a member
 * without a passkey is told to register one, at the challenge and at the
 * decision, and nothing is decided.
 */
const appTest = appTestWith({ approvalSigning: 'required' });

const send = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('APPROVAL_SIGNING=required', () => {
  appTest(
    'a member without a passkey is told to register one: 403 SIGNED_INTENT_REQUIRED, nothing decided',
    async ({ initiator, approver, subOrgId }) => {
      const id = await proposeBankAccount(initiator, subOrgId, { accountNumber: '880000111' });
      const card = await approver.json(pathOf(approvalCard, { entityId: id }));
      const { digest } = ApprovalCardResponse.parse(card.body);

      const challenge = await approver.json(
        pathOf(approvalSigningChallenge, { entityId: id }),
        send({ action: 'approve', digest }),
      );
      expect(challenge.status).toBe(403);
      expect(challenge.body).toMatchObject({ code: 'SIGNED_INTENT_REQUIRED' });
      expect(JSON.stringify(challenge.body)).toContain('register a passkey');

      const message = await approver.json(`${paths.approvalMessage()}?entityId=${id}`);
      const { approvalId } = ApprovalMessageResponse.parse(message.body);
      for (const body of [{ action: 'approve' }, { action: 'approve', intent: { digest } }]) {
        const res = await approver.json(paths.approvalAction(approvalId), send(body));
        expect(res.status, JSON.stringify(body)).toBe(403);
        expect(res.body).toMatchObject({ code: 'SIGNED_INTENT_REQUIRED' });
        expect(JSON.stringify(res.body)).toContain('register a passkey');
      }
      const after = await approver.json(paths.bankAccount(id));
      expect(after.body).toMatchObject({ status: 'PENDING' });
    },
  );
});
