import { approvalDecisions } from '../../../contract/endpoints/approvals.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalDecisionList } from '../../../contract/approval-decision.ts';
import { ApiErrorBody } from '../../../contract/common.ts';
import { paths } from '../../../contract/paths.ts';
import { ApprovalMessageResponse } from '../../../contract/approvals.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

// Who decided what, as the console serves it for exports: through the real app and database.
let t: TestApp;
let subOrgA: string;
let subOrgB: string;
let creator: StaffSession;
let approver: StaffSession;

beforeAll(async () => {
  t = await createTestApp();
  subOrgA = (await createSubOrg(t.db, t.orgId, 'Desk A')).id;
  subOrgB = (await createSubOrg(t.db, t.orgId, 'Desk B')).id;
  creator = await t.signIn('initiator', { name: 'Ina Initiator' });
  approver = await t.signIn('approver', { name: 'Abe Approver' });
});
afterAll(() => t.close());

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function proposeAccount(subOrgId: string, accountNumber: string): Promise<string> {
  const res = await creator.json(
    paths.bankAccounts(),
    post({
      paymentMethod: 'US_ACH',
      subOrgId,
      accountName: 'Decisions LLC',
      accountNumber,
      routingNumber: '021000021',
      bankName: 'Bank',
      country: 'US',
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { id: string }).id;
}

async function decide(entityId: string, action: 'approve' | 'reject', reason?: string) {
  const message = await approver.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  const res = await approver.json(paths.approvalAction(approvalId), post({ action, reason }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const decisionsUrl = (ids: string[]) => `${approvalDecisions.path}?entityIds=${ids.join(',')}`;

describe('GET /api/console/approval_decisions/', () => {
  it('names who approved or rejected each entity and when; undecided ones are absent', async () => {
    const approved = await proposeAccount(subOrgA, '100200300');
    const rejected = await proposeAccount(subOrgB, '100200301');
    const pending = await proposeAccount(subOrgA, '100200302');
    const before = Date.now();
    await decide(approved, 'approve');
    await decide(rejected, 'reject', 'wrong beneficiary');

    const viewer = await t.signIn('viewer');
    const res = await viewer.json(decisionsUrl([approved, rejected, pending, 'no-such-id']));
    expect(res.status).toBe(200);
    const { results } = ApprovalDecisionList.parse(res.body);
    const byId = new Map(results.map((d) => [d.entityId, d]));
    expect([...byId.keys()].sort()).toEqual([approved, rejected].sort());
    expect(byId.get(approved)).toMatchObject({
      entityType: 'BANK_ACCOUNT',
      decision: 'APPROVED',
      decidedBy: { type: 'STAFF', name: 'Abe Approver' },
    });
    expect(byId.get(rejected)).toMatchObject({
      decision: 'REJECTED',
      reason: 'wrong beneficiary',
      decidedBy: { type: 'STAFF', name: 'Abe Approver' },
    });
    const decidedAt = byId.get(approved)?.decidedAt ?? '';
    expect(decidedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(decidedAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("holds a member to their sub-orgs: another desk's decisions are not shown", async () => {
    const inside = await proposeAccount(subOrgA, '200300400');
    const outside = await proposeAccount(subOrgB, '200300401');
    await decide(inside, 'approve');
    await decide(outside, 'approve');

    const deskA = await t.signIn('viewer', { subOrgIds: [subOrgA] });
    const res = await deskA.json(decisionsUrl([inside, outside]));
    expect(res.status).toBe(200);
    const ids = ApprovalDecisionList.parse(res.body).results.map((d) => d.entityId);
    expect(ids).toEqual([inside]);
  });

  it('refuses a missing or oversized id list with a 400 naming entityIds', async () => {
    const missing = await approver.json(approvalDecisions.path);
    expect(missing.status).toBe(400);
    expect(ApiErrorBody.parse(missing.body).message).toContain('entityIds');

    const tooMany = await approver.json(
      decisionsUrl(Array.from({ length: 101 }, (_, i) => `id-${i}`)),
    );
    expect(tooMany.status).toBe(400);
    expect(ApiErrorBody.parse(tooMany.body).message).toContain('at most 100');
  });

  it('is for signed-in staff only', async () => {
    const res = await t.anonymous(decisionsUrl(['x']));
    expect(res.status).toBe(401);
  });
});
