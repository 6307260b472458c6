import { describe, expect } from 'vitest';
import { AuditListResponse } from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { appTestWith } from '../../test/app-test.ts';
import type {} from '../../test/test-app.ts';

// Four-eyes through the real app: two members, the same change-request endpoints API clients use.
const appTest = appTestWith().extend(
  'subOrgId',
  { scope: 'file' },
  async ({ t }) => (await createSubOrg(t.db, t.orgId)).id,
);

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function createAccount(subOrgId: string, by: StaffSession, accountNumber: string) {
  const res = await by.json(
    paths.bankAccounts(),
    json('POST', {
      paymentMethod: 'US_ACH',
      subOrgId,
      accountName: 'Four Eyes LLC',
      accountNumber,
      routingNumber: '021000021',
      bankName: 'Bank',
      country: 'US',
    }),
  );
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  const body = res.body as { id: string; accountNumber: string; status: string };
  // Even in the create answer, a browser sees the number masked.
  expect(body.accountNumber).toBe(`•••• ${accountNumber.slice(-4)}`);
  return body;
}

async function decide(by: StaffSession, entityId: string, action: 'approve' | 'reject') {
  const message = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  expect(message.status, JSON.stringify(message.body)).toBe(200);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  return by.json(paths.approvalAction(approvalId), json('POST', { action, reason: 'checked' }));
}

describe('four-eyes', () => {
  appTest(
    'refuses a member deciding what they created, whatever their role; another member may',
    async ({ t, subOrgId }) => {
      const creator = await t.signIn('admin', { name: 'Creator' });
      const approver = await t.signIn('approver', { name: 'Second Pair' });
      const account = await createAccount(subOrgId, creator, '000111222333');
      expect(account.status).toBe('PENDING');

      for (const action of ['approve', 'reject'] as const) {
        const own = await decide(creator, account.id, action);
        expect(own.status).toBe(403);
        expect(ApiErrorBody.parse(own.body)).toMatchObject({ code: 'FOUR_EYES' });
        expect(ApiErrorBody.parse(own.body).message).toMatch(/Four-eyes/);
      }

      const approved = await decide(approver, account.id, 'approve');
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect(approved.body).toMatchObject({ success: true, status: 'APPROVED' });
      const after = await approver.json(paths.bankAccount(account.id));
      expect(after.body).toMatchObject({ status: 'APPROVED' });

      // Who did what, in the audit trail, without the number.
      const audit = await t.admin.json(`/api/console/audit/?entityId=${account.id}&limit=100`);
      const entries = AuditListResponse.parse(audit.body).results;
      // One account, one id: the refused decisions are filed under the account too,
      // like the approval that succeeded, not under the approval id the refused call named.
      expect(entries.map((e) => [e.action, e.outcome, e.actorName])).toEqual([
        ['change_request.approve', 'success', 'Second Pair'],
        ['change_request.reject', 'denied', 'Creator'],
        ['change_request.approve', 'denied', 'Creator'],
        ['bank_account.create', 'success', 'Creator'],
      ]);
      expect(entries[3]?.summary).toMatch(/US_ACH US •••• 2333/);
      expect(JSON.stringify(entries)).not.toContain('000111222333');
      const refusals = await t.admin.json(
        `/api/console/audit/?actorId=${creator.member.id}&outcome=denied`,
      );
      expect(
        AuditListResponse.parse(refusals.body).results.map((e) => [
          e.action,
          e.entityType,
          e.entityId,
          e.summary,
        ]),
      ).toEqual([
        [
          'change_request.reject',
          'CHANGE_REQUEST',
          account.id,
          expect.stringMatching(/403 FOUR_EYES/),
        ],
        [
          'change_request.approve',
          'CHANGE_REQUEST',
          account.id,
          expect.stringMatching(/403 FOUR_EYES/),
        ],
      ]);
    },
  );

  appTest(
    'keeps a member out of sub-orgs beyond their scope when creating',
    async ({ t, subOrgId }) => {
      const restricted = await t.signIn('initiator', { subOrgIds: [subOrgId] });
      // No sub-org named: the member's only one is used.
      const res = await restricted.json(
        paths.bankAccounts(),
        json('POST', {
          paymentMethod: 'US_ACH',
          accountName: 'Scoped',
          accountNumber: '44445555',
          routingNumber: '021000021',
          bankName: 'Bank',
          country: 'US',
        }),
      );
      expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
      expect(res.body).toMatchObject({ subOrgId });
      const other = await createSubOrg(t.db, t.orgId, 'Elsewhere');
      const outside = await restricted.json(
        paths.bankAccounts(),
        json('POST', {
          paymentMethod: 'US_ACH',
          subOrgId: other.id,
          accountName: 'Scoped',
          accountNumber: '44445555',
          routingNumber: '021000021',
          bankName: 'Bank',
          country: 'US',
        }),
      );
      expect(outside.status).toBe(404);
    },
  );
});
