import { describe, expect } from 'vitest';
import { ApprovalInboxResponse } from '#contract/approval-inbox.ts';
import { ApprovalProgressList } from '#contract/approval-progress.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { pathOf, toQueryString } from '#contract/endpoint.ts';
import { approvalInbox } from '#contract/endpoints/approvals.ts';
import { approvalProgress } from '#contract/endpoints/policies.ts';
import { reviewTransactionPolicy } from '#contract/endpoints/policy-writes.ts';
import { paths } from '#contract/paths.ts';
import { DEFAULT_POLICY, PolicyPreviewResponse, type Policy } from '#contract/policies.ts';
import type { PolicyKind } from '#contract/policy-kind.ts';
import { Contact } from '#contract/reference.ts';
import { Transaction } from '#contract/transaction.ts';
import type { EngineFixture, EngineTestApp } from '../../test/engine-test-app.ts';
import { engineTest } from '../../test/engine-test.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import { publishPolicy } from '../../test/policies.ts';
import { signInStaff, type StaffSession } from '../../test/staff-session.ts';

/**
 * What a member sees of the approval policies before and while an item
 * waits: the create form's review asks what a draft would need, the
 * pages and the inbox read the approvals collected and who may still add
 * one; contacts answer to the accounts policy as bank accounts do.
 */

/**
 * The file's members, signed in together: who may still approve is read
 * against all of them. Eve is held to a sub-organization of her own.
 */
async function signInStaffOf(t: EngineTestApp) {
  const other = await createSubOrg(t.db, t.orgId, 'Elsewhere');
  const as = (role: 'initiator' | 'approver' | 'admin', name: string, subOrgIds?: string[]) =>
    signInStaff(t.app, t.db, t.authClock, { role, name, subOrgIds: subOrgIds ?? null });
  return {
    ivy: await as('initiator', 'Ivy Initiator'),
    ada: await as('approver', 'Ada Approver'),
    bo: await as('approver', 'Bo Approver'),
    cy: await as('admin', 'Cy Admin'),
    dee: await as('admin', 'Dee Admin'),
    editor: await as('admin', 'Policy Editor'),
    reviewer: await as('admin', 'Policy Reviewer'),
    elsewhere: await as('approver', 'Eve Elsewhere', [other.id]),
  };
}
type Staff = Awaited<ReturnType<typeof signInStaffOf>>;

const progressTest = engineTest.extend('staff', { scope: 'file' }, ({ t }) => signInStaffOf(t));

function usePolicy(t: EngineTestApp, staff: Staff, kind: PolicyKind, policy: Policy) {
  return publishPolicy(t.db, kind, policy, {
    editor: staff.editor,
    reviewer: staff.reviewer,
    now: t.authClock.now(),
  });
}

const twoOf = (kinds: Array<'approver' | 'admin'>) => ({
  action: 'ALLOW' as const,
  approvals: 2,
  approvers: { kinds, memberIds: [] },
  apiClientMayApproveOwn: false,
});

const transfers: Policy = {
  rules: [
    {
      id: 'big',
      name: 'Big transfers',
      match: { categories: ['TRANSFER'], amountUsdAtLeast: '10000' },
      outcome: twoOf(['approver', 'admin']),
    },
    {
      id: 'no-usdc',
      name: 'No USDC to contacts',
      match: { assets: ['USDC'], destinationKinds: ['CONTACT'] },
      outcome: { action: 'BLOCK' },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

const send = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** ETH is $3,000 in the sandbox: 5 ETH is $15,000. */
const transferBody = (f: EngineFixture, amount: string, asset = 'ETH') => ({
  category: 'TRANSFER',
  source: { type: 'VAULT', id: f.treasury.id },
  destination: { type: 'CONTACT', id: f.contacts.eth.id },
  amount,
  asset,
  blockChain: 'ETHEREUM',
});

async function decide(
  by: StaffSession,
  entityId: string,
  action: 'approve' | 'reject' = 'approve',
) {
  const message = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  expect(message.status, JSON.stringify(message.body)).toBe(200);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  return by.json(
    paths.approvalAction(approvalId),
    send({ action, ...(action === 'reject' ? { reason: 'not this one' } : {}) }),
  );
}

async function progressOf(by: StaffSession, ...entityIds: string[]) {
  const res = await by.json(
    `${pathOf(approvalProgress)}${toQueryString({ entityIds: entityIds.join(',') })}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ApprovalProgressList.parse(res.body).results;
}

describe("the create form's review", () => {
  progressTest(
    'names the rule and what it needs before anything is sent',
    async ({ t, f, staff }) => {
      const { ivy } = staff;
      await usePolicy(t, staff, 'transactions', transfers);
      const before = await t.get(`${paths.transactions()}?limit=100`);
      const big = await ivy.json(pathOf(reviewTransactionPolicy), send(transferBody(f, '5')));
      expect(big.status, JSON.stringify(big.body)).toBe(200);
      expect(PolicyPreviewResponse.parse(big.body)).toMatchObject({
        requirement: { ruleName: 'Big transfers', outcome: { approvals: 2 } },
        summary: '2 approvals from approvers or admins',
      });
      const small = PolicyPreviewResponse.parse(
        (await ivy.json(pathOf(reviewTransactionPolicy), send(transferBody(f, '0.1')))).body,
      );
      expect(small).toMatchObject({ requirement: { ruleName: 'Default' } });
      const blocked = PolicyPreviewResponse.parse(
        (await ivy.json(pathOf(reviewTransactionPolicy), send(transferBody(f, '10', 'USDC')))).body,
      );
      expect(blocked.requirement).toMatchObject({
        ruleName: 'No USDC to contacts',
        outcome: { action: 'BLOCK' },
      });
      // Asking creates nothing.
      const after = await t.get(`${paths.transactions()}?limit=100`);
      expect((after.body.results as unknown[]).length).toBe(
        (before.body.results as unknown[]).length,
      );
    },
  );

  progressTest(
    'refuses a draft that is not a create body, naming the field',
    async ({ f, staff }) => {
      const { ivy } = staff;
      const res = await ivy.json(
        pathOf(reviewTransactionPolicy),
        send({ ...transferBody(f, '5'), amount: 'lots' }),
      );
      expect(res.status).toBe(400);
      expect(ApiErrorBody.parse(res.body).fields?.map((e) => e.field)).toContain('amount');
    },
  );

  progressTest('is for those who may create transactions', async ({ t, f }) => {
    const viewer = await signInStaff(t.app, t.db, t.authClock, { role: 'viewer' });
    const res = await viewer.json(pathOf(reviewTransactionPolicy), send(transferBody(f, '5')));
    expect(res.status).toBe(403);
  });
});

describe('approvals collected, shown', () => {
  progressTest(
    'names who approved and when, and who may still approve',
    async ({ t, f, staff }) => {
      const { ivy, ada, bo, cy } = staff;
      await usePolicy(t, staff, 'transactions', transfers);
      const made = await ivy.json(paths.transactions(), send(transferBody(f, '5')));
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const id = Transaction.parse(made.body).id ?? '';

      const [fresh] = await progressOf(bo, id);
      expect(fresh).toMatchObject({
        ruleName: 'Big transfers',
        required: 2,
        state: 'PENDING',
        approvals: [],
        eligible: 'approvers or admins',
      });
      expect(fresh?.stillEligible.map((m) => m.name)).toContain('Ada Approver');

      expect((await decide(ada, id)).status).toBe(200);
      const [one] = await progressOf(bo, id);
      expect(one?.approvals).toEqual([
        {
          type: 'STAFF',
          id: ada.member.id,
          name: 'Ada Approver',
          at: expect.stringMatching(/^\d{4}-/) as unknown as string,
        },
      ]);
      const still = one?.stillEligible.map((m) => m.name) ?? [];
      // Neither the initiator, nor who approved, nor a member who cannot see the item.
      expect(still).toEqual(expect.arrayContaining(['Bo Approver', 'Cy Admin', 'Dee Admin']));
      expect(still).not.toContain('Ada Approver');
      expect(still).not.toContain('Ivy Initiator');
      expect(still).not.toContain('Eve Elsewhere');

      // The inbox carries the same for each item.
      const inbox = await bo.json(`${pathOf(approvalInbox)}?limit=100`);
      const item = ApprovalInboxResponse.parse(inbox.body).results.find((i) => i.id === id);
      expect(item?.progress).toMatchObject({ required: 2, approvals: [{ name: 'Ada Approver' }] });

      expect((await decide(cy, id)).status).toBe(200);
      const [done] = await progressOf(bo, id);
      expect(done).toMatchObject({ state: 'APPROVED', approvals: [{}, { name: 'Cy Admin' }] });
    },
  );

  progressTest('leaves out what the member may not see', async ({ t, f, staff }) => {
    const { ivy, elsewhere } = staff;
    await usePolicy(t, staff, 'transactions', transfers);
    const made = await ivy.json(paths.transactions(), send(transferBody(f, '5')));
    const id = Transaction.parse(made.body).id ?? '';
    expect(await progressOf(elsewhere, id, 'no-such-id')).toEqual([]);
  });
});

describe('contacts answer to the accounts policy', () => {
  const address = () =>
    `0x${(Date.now() * 7 + Math.floor(Math.random() * 1e9)).toString(16).padStart(40, 'c').slice(-40)}`;

  progressTest(
    'a contact and a change to its assets each need the two admins the rule asks for',
    async ({ t, staff }) => {
      const { ivy, ada, bo, cy, dee } = staff;
      await usePolicy(t, staff, 'accounts', {
        rules: [{ id: 'two-admins', name: 'Two admins', match: {}, outcome: twoOf(['admin']) }],
        fallback: DEFAULT_POLICY.fallback,
      });
      try {
        const made = await ivy.json(
          paths.contacts(),
          send({ name: 'Two-admin payee', address: address(), blockChain: 'ETHEREUM' }),
        );
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        const id = Contact.parse(made.body).id ?? '';
        const contact = async () => Contact.parse((await t.get(`${paths.contacts()}${id}/`)).body);

        const approver = await decide(ada, id);
        expect(approver.status).toBe(403);
        expect(ApiErrorBody.parse(approver.body)).toMatchObject({ code: 'POLICY_NOT_ELIGIBLE' });
        expect((await decide(cy, id)).body).toMatchObject({
          status: 'PENDING',
          policy: { ruleName: 'Two admins', approvals: 1, required: 2 },
        });
        expect((await contact()).status).toBe('PENDING');
        const [half] = await progressOf(bo, id);
        expect(half).toMatchObject({ entityType: 'CONTACT', approvals: [{ name: 'Cy Admin' }] });
        expect((await decide(dee, id)).status).toBe(200);
        expect((await contact()).status).toBe('APPROVED');

        // The asset-list change is judged afresh: two admins again, none counted yet.
        const changed = await ivy.json(
          `${paths.contacts()}${id}/`,
          send({ assetList: ['ETH'] }, 'PUT'),
        );
        expect(changed.status, JSON.stringify(changed.body)).toBe(200);
        const [fresh] = await progressOf(bo, id);
        expect(fresh).toMatchObject({ state: 'PENDING', approvals: [], required: 2 });
        expect((await decide(cy, id)).body).toMatchObject({ status: 'PENDING' });
        expect((await contact()).pendingAssetList).toEqual(['ETH']);
        expect((await decide(dee, id)).status).toBe(200);
        const after = await contact();
        expect(after.assetList).toEqual(['ETH']);
        expect(after.pendingAssetList ?? null).toBeNull();
      } finally {
        await usePolicy(t, staff, 'accounts', DEFAULT_POLICY);
      }
    },
  );

  progressTest(
    'a blocking accounts rule refuses a contact, naming the rule',
    async ({ t, staff }) => {
      const { ivy } = staff;
      await usePolicy(t, staff, 'accounts', {
        rules: [{ id: 'none', name: 'No new payees', match: {}, outcome: { action: 'BLOCK' } }],
        fallback: DEFAULT_POLICY.fallback,
      });
      try {
        const res = await ivy.json(
          paths.contacts(),
          send({ name: 'Refused payee', address: address(), blockChain: 'ETHEREUM' }),
        );
        expect(res.status).toBe(403);
        expect(ApiErrorBody.parse(res.body)).toMatchObject({ code: 'POLICY_BLOCKED' });
        expect(ApiErrorBody.parse(res.body).message).toContain('"No new payees"');
      } finally {
        await usePolicy(t, staff, 'accounts', DEFAULT_POLICY);
      }
    },
  );
});

describe('linked accounts, said before deciding', () => {
  progressTest(
    "tells a member deciding an item whose creator's account they made, or who made theirs, and no one else",
    async ({ t, f, staff }) => {
      const { cy, bo } = staff;
      const madeByCy = (role: 'initiator' | 'approver', name: string) =>
        signInStaff(t.app, t.db, t.authClock, { role, name, createdBy: cy.member.id });
      const ian = await madeByCy('initiator', 'Ian Made By Cy');
      const made = await ian.json(paths.transactions(), send(transferBody(f, '0.1')));
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const byIan = Transaction.parse(made.body).id ?? '';

      const [forCy] = await progressOf(cy, byIan);
      expect(forCy?.linkedToYou).toEqual({ name: 'Ian Made By Cy', direction: 'YOU_CREATED_THEM' });
      const [forBo] = await progressOf(bo, byIan);
      expect(forBo?.linkedToYou).toBeNull();

      // The other way round: Cy creates, a member whose account Cy made looks.
      const amy = await madeByCy('approver', 'Amy Made By Cy');
      const mine = await cy.json(paths.transactions(), send(transferBody(f, '0.1')));
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      const byCy = Transaction.parse(mine.body).id ?? '';
      const [forAmy] = await progressOf(amy, byCy);
      expect(forAmy?.linkedToYou).toEqual({ name: 'Cy Admin', direction: 'THEY_CREATED_YOU' });
      const [forBoToo] = await progressOf(bo, byCy);
      expect(forBoToo?.linkedToYou).toBeNull();
    },
  );
});
