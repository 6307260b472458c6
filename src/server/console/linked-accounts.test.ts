import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { ApprovalDecisionList } from '#contract/approval-decision.ts';
import { CSRF_HEADER, SESSION_COOKIE, StaffChangeAnswer, type StaffRole } from '#contract/auth.ts';
import { ChangeRequestHistory, changeRequestPaths } from '#contract/change-request.ts';
import { paths } from '#contract/paths.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { createSession } from '../auth/session.store.ts';
import { findStaffByEmail, toWireStaff } from '../auth/staff.store.ts';
import { assetRows } from '../custody/sandbox/seed/reference-data.ts';
import { auditLog } from '../db/schema/console.ts';
import { assets } from '../db/schema/sandbox.ts';
import { createContact, createVault } from '../test/fixtures.ts';
import { TEST_ORIGIN, type StaffSession } from '../test/staff-session.ts';
import { appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';

/**
 * Member management cannot be used to approve
 * one's own work under another name unnoticed. A decision between a member
 * and the member who created their account is allowed, audited with a flag,
 * and shown flagged on the item's decisions and history.
 */

/** An organization-level vault holding ether (the assets it needs put in first). */
async function orgVault(t: TestApp): Promise<string> {
  await t.db.insert(assets).values(assetRows());
  const vault = await createVault(t.db, { orgId: t.orgId, subOrgId: null }, [
    { asset: 'ETH', chain: 'ETHEREUM', amount: '10' },
  ]);
  return vault.id;
}

const appTest = appTestWith()
  .extend('vaultId', { scope: 'file' }, ({ t }) => orgVault(t))
  .extend(
    'contactId',
    { scope: 'file' },
    async ({ t }) => (await createContact(t.db, { orgId: t.orgId, subOrgId: null })).id,
  );

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

let counter = 0;

/**
 * A member the given admin creates through the console, signed in. An
 * approver's creation is a proposal: an admin linked to neither approves it.
 */
async function createdBy(t: TestApp, admin: StaffSession, role: StaffRole): Promise<StaffSession> {
  counter += 1;
  const res = await admin.json(
    '/api/console/staff/',
    post({ email: `linked-${counter}@bank.test`, name: `Linked ${role} ${counter}`, role }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const answer = StaffChangeAnswer.parse(res.body);
  let member = answer.member;
  if (answer.proposal) {
    const other = await t.signIn('admin');
    const decided = await other.json(
      `/api/console/staff/proposals/${answer.proposal.id}/decision/`,
      post({ action: 'approve' }),
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const row = await findStaffByEmail(t.db, `linked-${counter}@bank.test`);
    member = row ? toWireStaff(row) : null;
  }
  if (!member) throw new Error('the member was not created');
  const { token, row } = await createSession(t.db, member.id, t.clock.now());
  const cookie = `${SESSION_COOKIE}=${token}`;
  const init = (given: RequestInit = {}): RequestInit => {
    const headers = new Headers(given.headers);
    headers.set('cookie', cookie);
    headers.set(CSRF_HEADER, row.csrfToken);
    headers.set('origin', TEST_ORIGIN);
    return { ...given, headers };
  };
  const request = (url: string, given?: RequestInit) => t.anonymous(url, init(given));
  return {
    member: { ...admin.member, id: member.id, name: member.name, createdBy: admin.member.id },
    cookie,
    csrfToken: row.csrfToken,
    init,
    request: async (url, given) => request(url, given),
    json: async (url, given) => {
      const answer = await request(url, given);
      const text = await answer.text();
      return { status: answer.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
  };
}

async function proposeAccount(member: StaffSession): Promise<string> {
  counter += 1;
  const res = await member.json(
    paths.bankAccounts(),
    post({
      paymentMethod: 'US_ACH',
      accountName: `Linked Payee ${counter}`,
      accountNumber: `4455${counter}6677`,
      routingNumber: '021000021',
      bankName: 'Bank',
      country: 'US',
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { id: string }).id;
}

async function decide(member: StaffSession, entityId: string, action: 'approve' | 'reject') {
  const message = await member.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  return member.json(
    paths.approvalAction(approvalId),
    post({ action, ...(action === 'reject' ? { reason: 'checked' } : {}) }),
  );
}

async function flags(t: TestApp, entityId: string) {
  return t.db
    .select()
    .from(auditLog)
    .where(
      and(eq(auditLog.entityId, entityId), eq(auditLog.action, 'change_request.linked_accounts')),
    );
}

async function decisionOf(member: StaffSession, entityId: string) {
  const res = await member.json(`/api/console/approval_decisions/?entityIds=${entityId}`);
  expect(res.status).toBe(200);
  return ApprovalDecisionList.parse(res.body).results[0];
}

describe('a decision between members linked by member management', () => {
  appTest(
    'by the admin who created the proposer is allowed, flagged in the audit log, the decisions and the history',
    async ({ t }) => {
      const initiator = await createdBy(t, t.admin, 'initiator');
      const accountId = await proposeAccount(initiator);
      const res = await decide(t.admin, accountId, 'approve');
      expect(res).toMatchObject({ status: 200, body: { status: 'APPROVED' } });

      const [flag, ...more] = await flags(t, accountId);
      expect(more).toHaveLength(0);
      expect(flag).toMatchObject({
        actorId: t.admin.member.id,
        entityType: 'BANK_ACCOUNT',
        outcome: 'success',
      });
      expect(flag?.summary).toBe(
        `Flagged: ${t.admin.member.name} approved a bank account ${initiator.member.name} created, and ${t.admin.member.name} created ${initiator.member.name}'s console account`,
      );
      // Filed beside the decision's own row, under the same request.
      const [decisionRow] = await t.db
        .select()
        .from(auditLog)
        .where(
          and(eq(auditLog.entityId, accountId), eq(auditLog.action, 'change_request.approve')),
        );
      expect(decisionRow?.requestId).toBe(flag?.requestId);

      expect(await decisionOf(initiator, accountId)).toMatchObject({
        decidedBy: { id: t.admin.member.id },
        linkedAccounts: true,
      });
      const history = ChangeRequestHistory.parse(
        (await initiator.json(changeRequestPaths.bankAccountHistory(accountId))).body,
      );
      expect(history.results.at(-1)).toMatchObject({ status: 'APPROVED', linkedAccounts: true });
    },
  );

  appTest(
    'by a member whose account the proposer created is flagged too, on a transaction as on a bank account',
    async ({ t, vaultId, contactId }) => {
      const approver = await createdBy(t, t.admin, 'approver');
      const created = await t.admin.json(
        paths.transactions(),
        post({
          category: 'TRANSFER',
          source: { type: 'VAULT', id: vaultId },
          destination: { type: 'CONTACT', id: contactId },
          amount: '0.01',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
        }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const transactionId = (created.body as { id: string }).id;
      expect(await decide(approver, transactionId, 'reject')).toMatchObject({ status: 200 });
      const [flag] = await flags(t, transactionId);
      expect(flag).toMatchObject({ actorId: approver.member.id, entityType: 'TRANSACTION' });
      expect(flag?.summary).toContain(
        `rejected a transaction ${t.admin.member.name} created, and ${t.admin.member.name} created ${approver.member.name}'s console account`,
      );
      expect(await decisionOf(t.admin, transactionId)).toMatchObject({ linkedAccounts: true });
    },
  );

  appTest('is not flagged between members no member management links', async ({ t }) => {
    const initiator = await createdBy(t, t.admin, 'initiator');
    const stranger = await t.signIn('approver');
    const accountId = await proposeAccount(initiator);
    expect(await decide(stranger, accountId, 'approve')).toMatchObject({ status: 200 });
    expect(await flags(t, accountId)).toHaveLength(0);
    const decision = await decisionOf(initiator, accountId);
    expect(decision?.decidedBy.id).toBe(stranger.member.id);
    expect(decision?.linkedAccounts).toBeUndefined();
    // Nor between two members the same admin created: every member of a team shares one.
    const sibling = await createdBy(t, t.admin, 'approver');
    const another = await proposeAccount(initiator);
    expect(await decide(sibling, another, 'approve')).toMatchObject({ status: 200 });
    expect(await flags(t, another)).toHaveLength(0);
  });

  appTest('is still held to four-eyes: a member never decides what they created', async ({ t }) => {
    const accountId = await proposeAccount(t.admin);
    expect(await decide(t.admin, accountId, 'approve')).toMatchObject({
      status: 403,
      body: { code: 'FOUR_EYES' },
    });
    expect(await flags(t, accountId)).toHaveLength(0);
  });
});
