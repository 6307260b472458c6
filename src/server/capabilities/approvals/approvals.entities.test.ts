import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { BankAccountCreateRequest } from '#contract/bank-account.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { Transaction } from '#contract/transaction.ts';
import { contacts, transactionStatusEvents } from '../../db/schema/sandbox.ts';
import { createSandboxBackend } from '../../wiring/sandbox-backend.ts';
import { createTestApiUser, signedInit, type TestApiUser } from '../../test/api-client.ts';
import { changeRequestOf, createChangeRequest, decideAs } from '../../test/change-requests.ts';
import { createContact, createTransaction, createVault } from '../../test/fixtures.ts';
import { appTestWith } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';
import { ACH } from '../../test/create-requests.ts';

const appTest = appTestWith()
  .extend('alice', { scope: 'file' }, ({ t }) => createTestApiUser(t, 'alice'))
  .extend('bob', { scope: 'file' }, ({ t }) => createTestApiUser(t, 'bob'));

async function pendingTransaction(t: TestApp, createdBy: TestApiUser) {
  const row = await createTransaction(t.db, {
    orgId: t.orgId,
    status: 'PENDING',
    createdById: createdBy.id,
    createdByType: 'API_USER',
  });
  await createChangeRequest(t.db, {
    orgId: t.orgId,
    entityType: 'TRANSACTION',
    entityId: row.id,
    createdById: createdBy.id,
  });
  return row;
}

async function transactionAs(t: TestApp, user: TestApiUser, id: string) {
  const url = paths.transaction(id);
  return Transaction.parse(await (await t.app.request(url, signedInit(user, 'GET', url))).json());
}

describe('approving a transaction', () => {
  appTest(
    'moves it PENDING → APPROVED for the simulator to sign, with the step on its timeline',
    async ({ t, alice, bob }) => {
      const tx = await pendingTransaction(t, alice);
      const res = await decideAs(t.app, bob, tx.id, { action: 'approve' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ success: true, status: 'APPROVED', entityId: tx.id });
      expect((await transactionAs(t, alice, tx.id)).status).not.toBe('PENDING');
      const events = await t.db
        .select({ status: transactionStatusEvents.status })
        .from(transactionStatusEvents)
        .where(eq(transactionStatusEvents.transactionId, tx.id));
      expect(events.map((e) => e.status)).toEqual(expect.arrayContaining(['PENDING', 'APPROVED']));
    },
  );

  appTest('rejecting it DECLINES it, the reason kept as its error', async ({ t, alice, bob }) => {
    const tx = await pendingTransaction(t, alice);
    const res = await decideAs(t.app, bob, tx.id, {
      action: 'reject',
      reason: 'Unknown counterparty',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await transactionAs(t, alice, tx.id)).toMatchObject({
      status: 'DECLINED',
      error: 'declined: Unknown counterparty',
    });
  });

  appTest(
    'refuses, changing nothing, when the transaction has left PENDING another way: 409',
    async ({ t, alice, bob }) => {
      const tx = await createTransaction(t.db, {
        orgId: t.orgId,
        status: 'FAILED',
        createdById: alice.id,
      });
      await createChangeRequest(t.db, {
        orgId: t.orgId,
        entityType: 'TRANSACTION',
        entityId: tx.id,
        createdById: alice.id,
      });
      const res = await decideAs(t.app, bob, tx.id, { action: 'approve' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'CONFLICT' });
      expect((await changeRequestOf(t.db, tx.id))?.status).toBe('PENDING');
    },
  );
});

describe('approving contacts and vaults', () => {
  appTest(
    'a contact goes APPROVED or DECLINED with its change request',
    async ({ t, alice, bob }) => {
      for (const [action, status] of [
        ['approve', 'APPROVED'],
        ['reject', 'DECLINED'],
      ] as const) {
        const contact = await createContact(t.db, { orgId: t.orgId, status: 'PENDING' });
        await createChangeRequest(t.db, {
          orgId: t.orgId,
          entityType: 'CONTACT',
          entityId: contact.id,
          createdById: alice.id,
        });
        const res = await decideAs(t.app, bob, contact.id, { action, reason: 'checked' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const [row] = await t.db.select().from(contacts).where(eq(contacts.id, contact.id));
        expect(row?.status).toBe(status);
      }
    },
  );

  appTest(
    'a vault has no status: the decided change request is the record',
    async ({ t, alice, bob }) => {
      const vault = await createVault(t.db, { orgId: t.orgId });
      await createChangeRequest(t.db, {
        orgId: t.orgId,
        entityType: 'VAULT',
        entityId: vault.id,
        createdById: alice.id,
      });
      expect((await decideAs(t.app, bob, vault.id, { action: 'approve' })).status).toBe(200);
      expect(await changeRequestOf(t.db, vault.id)).toMatchObject({
        status: 'APPROVED',
        decidedById: bob.id,
      });
    },
  );
});

describe('staff members decide without a signature, never their own (four-eyes)', () => {
  appTest(
    'a member cannot decide a bank account they created; another member can',
    async ({ t }) => {
      const initiator = await t.signIn('admin');
      const created = await initiator.json(paths.bankAccounts(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(ACH),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const entityId = (created.body as { id: string }).id;
      expect(await changeRequestOf(t.db, entityId)).toMatchObject({
        createdById: initiator.member.id,
        createdByType: 'STAFF',
      });

      const message = ApprovalMessageResponse.parse(
        (await initiator.json(`${paths.approvalMessage()}${toQueryString({ entityId })}`)).body,
      );
      const decide = (session: typeof initiator, body: object) =>
        session.json(paths.approvalAction(message.approvalId), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      const own = await decide(initiator, { action: 'approve' });
      expect(own.status).toBe(403);
      expect(own.body).toMatchObject({
        code: 'FOUR_EYES',
        message: expect.stringMatching(/you created this request; another member must decide/),
      });

      const approver = await t.signIn('approver');
      const res = await decide(approver, {
        action: 'reject',
        reason: 'Duplicate of an existing account',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await changeRequestOf(t.db, entityId)).toMatchObject({
        status: 'REJECTED',
        decidedById: approver.member.id,
        decidedByType: 'STAFF',
      });
    },
  );
});

describe('nobody at all', () => {
  appTest(
    'cannot approve: 401 "approving needs an API user or a signed-in staff member"',
    async ({ t, alice }) => {
      const backend = createSandboxBackend({ db: t.db, orgId: t.orgId });
      // Anonymous creation is only possible below the HTTP layer since sign-in is required.
      const account = await backend.createBankAccount({}, BankAccountCreateRequest.parse(ACH));
      const request = await changeRequestOf(t.db, account.id ?? '');
      expect(request).toMatchObject({
        createdById: 'sandbox-anonymous',
        createdByType: 'ANONYMOUS',
      });
      await expect(
        backend.decideApproval({}, request?.approvalId ?? '', { action: 'approve' }),
      ).rejects.toMatchObject({
        status: 401,
        code: 'UNAUTHORIZED',
        message: 'approving needs an API user or a signed-in staff member',
      });
      const url = paths.approvalAction(request?.approvalId ?? '');
      const res = await t.anonymous(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ action: 'approve' }),
      });
      expect(res.status).toBe(401);
      // Whatever anonymous callers created, an API user may decide.
      expect((await decideAs(t.app, alice, account.id ?? '', { action: 'approve' })).status).toBe(
        200,
      );
    },
  );
});
