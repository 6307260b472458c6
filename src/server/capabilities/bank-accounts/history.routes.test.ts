import { describe, expect } from 'vitest';
import { ChangeRequestHistory, changeRequestPaths } from '#contract/change-request.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { appTestWith, withoutChangeRequestHistory } from '../../test/app-test.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import { decideAsStaff, proposeBankAccount } from '../../test/staff-approvals.ts';
import type { StaffSession } from '../../test/staff-session.ts';

const SEPA_ACCOUNT = {
  paymentMethod: 'SEPA',
  accountName: 'History GmbH',
  accountNumber: 'DE89 3704 0044 0532 0130 00',
  routingNumber: undefined,
  bankName: 'Commerzbank',
  country: 'DE',
};

async function history(by: StaffSession, id: string) {
  const res = await by.json(changeRequestPaths.bankAccountHistory(id));
  return { status: res.status, body: res.body };
}

const appTest = appTestWith();
/** The same app but for the change-request history an upstream API lacks: the audit log's instead. */
const upstreamTest = appTestWith({ wrapBackend: withoutChangeRequestHistory });

describe('bank account history from the change requests', () => {
  appTest(
    'names who proposed and who declined, when, and the reason; a viewer may read it',
    async ({ t, subOrgId, viewer }) => {
      const proposer = await t.signIn('initiator', { name: 'Paula Proposer' });
      const approver = await t.signIn('approver', { name: 'Dora Decider' });
      const id = await proposeBankAccount(proposer, subOrgId, SEPA_ACCOUNT);

      const pending = await history(viewer, id);
      expect(pending.status).toBe(200);
      const before = ChangeRequestHistory.parse(pending.body);
      expect(before.source).toBe('change_requests');
      expect(before.results).toEqual([
        expect.objectContaining({
          status: 'PENDING',
          proposedBy: { type: 'STAFF', id: proposer.member.id, name: 'Paula Proposer' },
          decidedBy: null,
          decidedAt: null,
          reason: null,
        }),
      ]);

      await decideAsStaff(approver, id, 'reject', 'Beneficiary name does not match the contract');
      const after = ChangeRequestHistory.parse((await history(viewer, id)).body);
      const [record] = after.results;
      expect(record).toMatchObject({
        status: 'REJECTED',
        proposedBy: { name: 'Paula Proposer' },
        decidedBy: { type: 'STAFF', id: approver.member.id, name: 'Dora Decider' },
        reason: 'Beneficiary name does not match the contract',
      });
      expect(Date.parse(record?.decidedAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(record?.proposedAt ?? ''),
      );
      // History holds no account number, masked or not: runs no time or id can hold
      // (a bare /3704/ once matched a time ending in 03.704Z).
      expect(JSON.stringify(after)).not.toMatch(/DE89|3704 ?0044|0532 ?0130|•+ ?3000/);
    },
  );

  appTest(
    'is 404 outside the member’s sub-organizations and for an unknown account, 401 signed out',
    async ({ t, subOrgId, initiator }) => {
      const id = await proposeBankAccount(initiator, subOrgId, SEPA_ACCOUNT);
      const elsewhere = await createSubOrg(t.db, t.orgId, 'Elsewhere');
      const outsider = await t.signIn('approver', { subOrgIds: [elsewhere.id] });

      const outside = await history(outsider, id);
      expect(outside.status).toBe(404);
      expect(ApiErrorBody.parse(outside.body).code).toBe('NOT_FOUND');
      expect((await history(initiator, 'no-such-account')).status).toBe(404);
      const anonymous = await t.anonymous(changeRequestPaths.bankAccountHistory(id));
      expect(anonymous.status).toBe(401);
    },
  );
});

describe('bank account history without the backend’s change requests (upstream)', () => {
  upstreamTest(
    'is rebuilt from the console’s audit log: who proposed and who approved, when',
    async ({ t, subOrgId }) => {
      const proposer = await t.signIn('initiator', { name: 'Audit Proposer' });
      const approver = await t.signIn('approver', { name: 'Audit Approver' });
      const id = await proposeBankAccount(proposer, subOrgId, SEPA_ACCOUNT);
      await decideAsStaff(approver, id, 'approve');

      const body = ChangeRequestHistory.parse((await history(approver, id)).body);
      expect(body.source).toBe('audit_log');
      expect(body.results).toEqual([
        expect.objectContaining({
          status: 'APPROVED',
          proposedBy: { type: 'STAFF', id: proposer.member.id, name: 'Audit Proposer' },
          decidedBy: { type: 'STAFF', id: approver.member.id, name: 'Audit Approver' },
          reason: null,
        }),
      ]);
    },
  );
});
