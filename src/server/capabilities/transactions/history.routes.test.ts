import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeRequestHistory, changeRequestPaths } from '#contract/change-request.ts';
import { paths } from '#contract/paths.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { createChangeRequest } from '../../test/change-requests.ts';
import { createSubOrg, createTransaction, createVault } from '../../test/fixtures.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

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

async function decide(by: StaffSession, entityId: string, action: 'approve' | 'reject') {
  const message = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  const res = await by.json(paths.approvalAction(approvalId), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ action, ...(action === 'reject' ? { reason: 'Not ours' } : {}) }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('GET /api/console/transactions/{id}/history/', () => {
  let t: TestApp;
  let subOrgId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subOrgId = (await createSubOrg(t.db, t.orgId)).id;
  });
  afterAll(() => t.close());

  it('names who created and who approved, when; a viewer may read it', async () => {
    const creator = await t.signIn('initiator', { name: 'Ivo Initiator' });
    const approver = await t.signIn('approver', { name: 'Ada Approver' });
    const viewer = await t.signIn('viewer');
    const id = await pendingBy(t, creator, subOrgId);
    await decide(approver, id, 'approve');

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
  });

  it('is 404 outside the member’s sub-organizations, 401 signed out', async () => {
    const creator = await t.signIn('initiator');
    const id = await pendingBy(t, creator, subOrgId);
    const elsewhere = await createSubOrg(t.db, t.orgId, 'Elsewhere');
    const outsider = await t.signIn('viewer', { subOrgIds: [elsewhere.id] });
    expect((await outsider.json(changeRequestPaths.transactionHistory(id))).status).toBe(404);
    expect((await t.anonymous(changeRequestPaths.transactionHistory(id))).status).toBe(401);
  });
});

describe('transaction history without the backend’s change requests (upstream)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      wrapBackend: (backend) => ({ ...backend, changeRequestHistory: undefined }),
    });
  });
  afterAll(() => t.close());

  it('is rebuilt from the audit log: the decision and who made it', async () => {
    const subOrgId = (await createSubOrg(t.db, t.orgId)).id;
    const creator = await t.signIn('initiator');
    const approver = await t.signIn('approver', { name: 'Dee Decider' });
    const id = await pendingBy(t, creator, subOrgId);
    await decide(approver, id, 'reject');
    const history = ChangeRequestHistory.parse(
      (await creator.json(changeRequestPaths.transactionHistory(id))).body,
    );
    expect(history.source).toBe('audit_log');
    expect(history.results.at(-1)).toMatchObject({
      status: 'REJECTED',
      decidedBy: { id: approver.member.id, name: 'Dee Decider' },
    });
  });
});
