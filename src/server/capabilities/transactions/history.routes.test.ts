import { describe, expect } from 'vitest';
import { ChangeRequestHistory, changeRequestPaths } from '#contract/change-request.ts';
import { appTestWith, withoutChangeRequestHistory } from '../../test/app-test.ts';
import { createChangeRequest } from '../../test/change-requests.ts';
import { createSubOrg, createTransaction, createVault } from '../../test/fixtures.ts';
import { decideAsStaff } from '../../test/staff-approvals.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import type { TestApp } from '../../test/test-app.ts';

async function pendingBy(t: TestApp, creator: StaffSession, subOrgId: string) {
  const vault = await createVault(t.db, { orgId: t.orgId, subOrgId });
  const tx = await createTransaction(t.db, {
    orgId: t.orgId,
    subOrgId,
    vaultId: vault.id,
    status: 'PENDING',
    createdById: creator.member.id,
  });
  await createChangeRequest(t.db, {
    orgId: t.orgId,
    entityType: 'TRANSACTION',
    entityId: tx.id,
    createdById: creator.member.id,
    createdByType: 'STAFF',
  });
  return tx.id;
}

const appTest = appTestWith();
/** The same app but for the change-request history an upstream API lacks: the audit log's instead. */
const upstreamTest = appTestWith({ wrapBackend: withoutChangeRequestHistory });

describe('GET /api/console/transactions/{id}/history/', () => {
  appTest(
    'names who created and who approved, when; a viewer may read it',
    async ({ t, subOrgId, viewer }) => {
      const creator = await t.signIn('initiator', { name: 'Ivo Initiator' });
      const approver = await t.signIn('approver', { name: 'Ada Approver' });
      const id = await pendingBy(t, creator, subOrgId);
      await decideAsStaff(approver, id, 'approve');

      const res = await viewer.json(changeRequestPaths.transactionHistory(id));
      expect(res.status).toBe(200);
      const history = ChangeRequestHistory.parse(res.body);
      expect(history.results).toEqual([
        expect.objectContaining({
          status: 'APPROVED',
          proposedBy: { type: 'STAFF', id: creator.member.id, name: 'Ivo Initiator' },
          decidedBy: { type: 'STAFF', id: approver.member.id, name: 'Ada Approver' },
        }),
      ]);
    },
  );

  appTest(
    'is 404 outside the member’s sub-organizations, 401 signed out',
    async ({ t, subOrgId, initiator }) => {
      const id = await pendingBy(t, initiator, subOrgId);
      const elsewhere = await createSubOrg(t.db, t.orgId, 'Elsewhere');
      const outsider = await t.signIn('viewer', { subOrgIds: [elsewhere.id] });
      expect((await outsider.json(changeRequestPaths.transactionHistory(id))).status).toBe(404);
      expect((await t.anonymous(changeRequestPaths.transactionHistory(id))).status).toBe(401);
    },
  );
});

describe('transaction history without the backend’s change requests (upstream)', () => {
  upstreamTest(
    'is rebuilt from the audit log: the decision and who made it',
    async ({ t, subOrgId, initiator }) => {
      const approver = await t.signIn('approver', { name: 'Dee Decider' });
      const id = await pendingBy(t, initiator, subOrgId);
      await decideAsStaff(approver, id, 'reject', 'Not ours');
      const history = ChangeRequestHistory.parse(
        (await initiator.json(changeRequestPaths.transactionHistory(id))).body,
      );
      expect(history.source).toBe('audit_log');
      expect(history.results.at(-1)).toMatchObject({
        status: 'REJECTED',
        decidedBy: { id: approver.member.id, name: 'Dee Decider' },
      });
    },
  );
});
