import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeRequestHistory, changeRequestPaths } from '#contract/change-request.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function propose(t: TestApp, by: StaffSession, subOrgId: string) {
  const res = await by.json(
    paths.bankAccounts(),
    post({
      paymentMethod: 'SEPA',
      subOrgId,
      accountName: 'History GmbH',
      accountNumber: 'DE89 3704 0044 0532 0130 00',
      bankName: 'Commerzbank',
      country: 'DE',
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { id: string }).id;
}

async function decide(
  by: StaffSession,
  entityId: string,
  action: 'approve' | 'reject',
  reason?: string,
) {
  const message = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  const res = await by.json(paths.approvalAction(approvalId), post({ action, reason }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function history(by: StaffSession, id: string) {
  const res = await by.json(changeRequestPaths.bankAccountHistory(id));
  return { status: res.status, body: res.body };
}

describe('bank account history from the change requests', () => {
  let t: TestApp;
  let subOrgId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subOrgId = (await createSubOrg(t.db, t.orgId)).id;
  });
  afterAll(() => t.close());

  it('names who proposed and who declined, when, and the reason; a viewer may read it', async () => {
    const proposer = await t.signIn('initiator', { name: 'Paula Proposer' });
    const approver = await t.signIn('approver', { name: 'Dora Decider' });
    const viewer = await t.signIn('viewer');
    const id = await propose(t, proposer, subOrgId);

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

    await decide(approver, id, 'reject', 'Beneficiary name does not match the contract');
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
    // History holds no account number, masked or not.
    expect(JSON.stringify(after)).not.toMatch(/3704|3000|DE89/);
  });

  it('is 404 outside the member’s sub-organizations and for an unknown account, 401 signed out', async () => {
    const proposer = await t.signIn('initiator');
    const id = await propose(t, proposer, subOrgId);
    const elsewhere = await createSubOrg(t.db, t.orgId, 'Elsewhere');
    const outsider = await t.signIn('approver', { subOrgIds: [elsewhere.id] });

    const outside = await history(outsider, id);
    expect(outside.status).toBe(404);
    expect(ApiErrorBody.parse(outside.body).code).toBe('NOT_FOUND');
    expect((await history(proposer, 'no-such-account')).status).toBe(404);
    const anonymous = await t.anonymous(changeRequestPaths.bankAccountHistory(id));
    expect(anonymous.status).toBe(401);
  });
});

describe('bank account history without the backend’s change requests (upstream)', () => {
  let t: TestApp;
  let subOrgId: string;
  beforeAll(async () => {
    t = await createTestApp({
      wrapBackend: (backend) => ({ ...backend, changeRequestHistory: undefined }),
    });
    subOrgId = (await createSubOrg(t.db, t.orgId)).id;
  });
  afterAll(() => t.close());

  it('is rebuilt from the console’s audit log: who proposed and who approved, when', async () => {
    const proposer = await t.signIn('initiator', { name: 'Audit Proposer' });
    const approver = await t.signIn('approver', { name: 'Audit Approver' });
    const id = await propose(t, proposer, subOrgId);
    await decide(approver, id, 'approve');

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
  });
});
