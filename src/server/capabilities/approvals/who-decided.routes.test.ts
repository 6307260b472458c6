import { approvalDecisions } from '#contract/endpoints/approvals.ts';
import { describe, expect } from 'vitest';
import { ApprovalDecisionList } from '#contract/approval-decision.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { appTestWith } from '../../test/app-test.ts';
import { decideAsStaff, proposeBankAccount } from '../../test/staff-approvals.ts';
import type {} from '../../test/test-app.ts';

// Who decided what, as the console serves it for exports: through the real app and database.
const appTest = appTestWith()
  .extend(
    'subOrgA',
    { scope: 'file' },
    async ({ t }) => (await createSubOrg(t.db, t.orgId, 'Desk A')).id,
  )
  .extend(
    'subOrgB',
    { scope: 'file' },
    async ({ t }) => (await createSubOrg(t.db, t.orgId, 'Desk B')).id,
  )
  .extend('creator', { scope: 'file' }, ({ t }) => t.signIn('initiator', { name: 'Ina Initiator' }))
  .extend('approver', { scope: 'file' }, ({ t }) => t.signIn('approver', { name: 'Abe Approver' }));

/** A bank account `creator` proposes in `subOrgId`: the entity decided on. */
const proposeAccount = (creator: StaffSession, subOrgId: string, accountNumber: string) =>
  proposeBankAccount(creator, subOrgId, { accountName: 'Decisions LLC', accountNumber });

const decisionsUrl = (ids: string[]) => `${approvalDecisions.path}?entityIds=${ids.join(',')}`;

describe('GET /api/console/approval_decisions/', () => {
  appTest(
    'names who approved or rejected each entity and when; undecided ones are absent',
    async ({ t, subOrgA, subOrgB, creator, approver }) => {
      const approved = await proposeAccount(creator, subOrgA, '100200300');
      const rejected = await proposeAccount(creator, subOrgB, '100200301');
      const pending = await proposeAccount(creator, subOrgA, '100200302');
      const before = Date.now();
      await decideAsStaff(approver, approved, 'approve');
      await decideAsStaff(approver, rejected, 'reject', 'wrong beneficiary');

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
    },
  );

  appTest(
    "holds a member to their sub-orgs: another desk's decisions are not shown",
    async ({ t, subOrgA, subOrgB, creator, approver }) => {
      const inside = await proposeAccount(creator, subOrgA, '200300400');
      const outside = await proposeAccount(creator, subOrgB, '200300401');
      await decideAsStaff(approver, inside, 'approve');
      await decideAsStaff(approver, outside, 'approve');

      const deskA = await t.signIn('viewer', { subOrgIds: [subOrgA] });
      const res = await deskA.json(decisionsUrl([inside, outside]));
      expect(res.status).toBe(200);
      const ids = ApprovalDecisionList.parse(res.body).results.map((d) => d.entityId);
      expect(ids).toEqual([inside]);
    },
  );

  appTest(
    'refuses a missing or oversized id list with a 400 naming entityIds',
    async ({ approver }) => {
      const missing = await approver.json(approvalDecisions.path);
      expect(missing.status).toBe(400);
      expect(ApiErrorBody.parse(missing.body).message).toContain('entityIds');

      const tooMany = await approver.json(
        decisionsUrl(Array.from({ length: 101 }, (_, i) => `id-${i}`)),
      );
      expect(tooMany.status).toBe(400);
      expect(ApiErrorBody.parse(tooMany.body).message).toContain('at most 100');
    },
  );

  appTest('is for signed-in staff only', async ({ t }) => {
    const res = await t.anonymous(decisionsUrl(['x']));
    expect(res.status).toBe(401);
  });
});
