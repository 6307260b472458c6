import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { BankAccount } from '#contract/bank-account.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { ApprovalActionResponse } from '#contract/approvals.ts';
import { signApprovalMessage } from '../../protocol/api-token.ts';
import { organizations } from '../../db/schema/sandbox.ts';
import { createTestApiUser, signedInit, type TestApiUser } from '../../test/api-client.ts';
import { changeRequestOf, decideAs } from '../../test/change-requests.ts';
import { createOrg } from '../../test/fixtures.ts';
import { appTestWith } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';
import { ACH } from '../../test/create-requests.ts';

const appTest = appTestWith()
  .extend('alice', { scope: 'file' }, ({ t }) => createTestApiUser(t, 'alice'))
  .extend('bob', { scope: 'file' }, ({ t }) => createTestApiUser(t, 'bob'));

async function createAccount(t: TestApp, user: TestApiUser) {
  const url = paths.bankAccounts();
  const res = await t.app.request(url, signedInit(user, 'POST', url, ACH));
  expect(res.status).toBe(200);
  return BankAccount.parse(await res.json());
}

async function statusOf(t: TestApp, user: TestApiUser, id: string) {
  const url = paths.bankAccount(id);
  return BankAccount.parse(await (await t.app.request(url, signedInit(user, 'GET', url))).json())
    .status;
}

function expectError(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = ApiErrorBody.parse(res.body);
  expect(body.code).toBe(code);
  return body;
}

describe('approving and rejecting a bank account', () => {
  appTest(
    'its creator approves it with a signature of the message (create-and-approve): APPROVED',
    async ({ t, alice }) => {
      const account = await createAccount(t, alice);
      const res = await decideAs(t.app, alice, account.id ?? '', { action: 'approve' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const request = await changeRequestOf(t.db, account.id ?? '');
      expect(ApprovalActionResponse.parse(res.body)).toEqual({
        success: true,
        status: 'APPROVED',
        id: request?.id,
        entityId: account.id,
      });
      expect(await statusOf(t, alice, account.id ?? '')).toBe('APPROVED');
      expect(request).toMatchObject({
        status: 'APPROVED',
        decidedById: alice.id,
        decidedByType: 'API_USER',
        reason: null,
        decidedAt: expect.any(Date),
      });
    },
  );

  appTest(
    'another API user rejects it with a reason: DECLINED, the reason recorded',
    async ({ t, alice, bob }) => {
      const account = await createAccount(t, alice);
      const res = await decideAs(t.app, bob, account.id ?? '', {
        action: 'reject',
        reason: 'Beneficiary name does not match the contract',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ success: true, status: 'REJECTED' });
      expect(await statusOf(t, alice, account.id ?? '')).toBe('DECLINED');
      expect(await changeRequestOf(t.db, account.id ?? '')).toMatchObject({
        status: 'REJECTED',
        decidedById: bob.id,
        reason: 'Beneficiary name does not match the contract',
      });
    },
  );

  appTest(
    'as the Python SDK sends it: padded token, dataSignatureHex in the action body, reason null',
    async ({ t, alice, bob }) => {
      const account = await createAccount(t, alice);
      const res = await decideAs(
        t.app,
        bob,
        account.id ?? '',
        { action: 'approve', reason: null },
        { sdk: 'python' },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await statusOf(t, alice, account.id ?? '')).toBe('APPROVED');
    },
  );

  appTest(
    'a reject needs a reason: 400 naming reason, and nothing changes',
    async ({ t, alice, bob }) => {
      const account = await createAccount(t, alice);
      const res = await decideAs(t.app, bob, account.id ?? '', { action: 'reject' });
      const error = expectError(res, 400, 'VALIDATION_ERROR');
      expect(error.fields).toEqual([{ field: 'reason', message: 'reason is required to reject' }]);
      expect(await statusOf(t, alice, account.id ?? '')).toBe('PENDING');
    },
  );

  appTest(
    'a decided request cannot be decided again: 409 ALREADY_DECIDED, for the message too',
    async ({ t, alice, bob }) => {
      const account = await createAccount(t, alice);
      const first = await decideAs(t.app, bob, account.id ?? '', { action: 'approve' });
      expect(first.status).toBe(200);
      const message = await changeRequestOf(t.db, account.id ?? '');
      const url = paths.approvalAction(first.approvalId ?? '');
      const again = await t.app.request(
        url,
        signedInit(bob, 'POST', url, {
          action: 'reject',
          reason: 'changed my mind',
          signature: signApprovalMessage(message?.approvalMessage ?? '', bob.privateKeyHex),
        }),
      );
      const body = expectError(
        { status: again.status, body: await again.json() },
        409,
        'ALREADY_DECIDED',
      );
      expect(body.message).toMatch(/already approved at .*cannot be decided again/);
      // GET approval_message for a decided entity answers 409 as well: nothing is left to sign.
      expectError(
        await decideAs(t.app, bob, account.id ?? '', { action: 'approve' }),
        409,
        'ALREADY_DECIDED',
      );
      expect(await statusOf(t, alice, account.id ?? '')).toBe('APPROVED');
    },
  );

  appTest('of two concurrent decisions exactly one wins', async ({ t, alice, bob }) => {
    const account = await createAccount(t, alice);
    const request = await changeRequestOf(t.db, account.id ?? '');
    const url = paths.approvalAction(request?.approvalId ?? '');
    const send = (user: TestApiUser, action: 'approve' | 'reject') =>
      t.app.request(
        url,
        signedInit(user, 'POST', url, {
          action,
          reason: 'race',
          signature: signApprovalMessage(request?.approvalMessage ?? '', user.privateKeyHex),
        }),
      );
    const statuses = (await Promise.all([send(alice, 'approve'), send(bob, 'reject')])).map(
      (r) => r.status,
    );
    expect(statuses.sort()).toEqual([200, 409]);
    const decided = await changeRequestOf(t.db, account.id ?? '');
    expect(await statusOf(t, alice, account.id ?? '')).toBe(
      decided?.status === 'APPROVED' ? 'APPROVED' : 'DECLINED',
    );
  });
});

describe('the signature of an API user', () => {
  appTest('is required: 400 naming signature', async ({ t, alice, bob }) => {
    const account = await createAccount(t, alice);
    const res = await decideAs(t.app, bob, account.id ?? '', {
      action: 'approve',
      signature: null,
    });
    expect(expectError(res, 400, 'VALIDATION_ERROR').fields?.[0]?.field).toBe('signature');
  });

  appTest(
    "must be the approver's own signature of this exact message: else 403 INVALID_APPROVAL_SIGNATURE",
    async ({ t, alice, bob }) => {
      const account = await createAccount(t, alice);
      const request = await changeRequestOf(t.db, account.id ?? '');
      const wrong = [
        signApprovalMessage(request?.approvalMessage ?? '', alice.privateKeyHex),
        signApprovalMessage(`${request?.approvalMessage ?? ''} `, bob.privateKeyHex),
        'deadbeef',
      ];
      for (const signature of wrong) {
        const res = await decideAs(t.app, bob, account.id ?? '', { action: 'approve', signature });
        expectError(res, 403, 'INVALID_APPROVAL_SIGNATURE');
      }
      expectError(
        await decideAs(t.app, bob, account.id ?? '', { action: 'approve', signature: 'not hex' }),
        400,
        'VALIDATION_ERROR',
      );
      expect(await statusOf(t, alice, account.id ?? '')).toBe('PENDING');
    },
  );
});

describe("the organization's self-approval policy", () => {
  appTest('off: an API user cannot decide its own request (403), another can', async ({ t }) => {
    const org = await createOrg(t.db, 'Strict Org');
    await t.db
      .update(organizations)
      .set({ apiUserSelfApproval: false })
      .where(eq(organizations.id, org.id));
    const carol = await createTestApiUser(t, 'carol', org.id);
    const dave = await createTestApiUser(t, 'dave', org.id);
    const account = await createAccount(t, carol);
    expect(account.orgId).toBe(org.id);

    for (const action of ['approve', 'reject'] as const) {
      const own = await decideAs(t.app, carol, account.id ?? '', { action, reason: 'mine' });
      expect(expectError(own, 403, 'SELF_APPROVAL_NOT_ALLOWED').message).toMatch(
        /another API user/,
      );
    }
    expect((await decideAs(t.app, dave, account.id ?? '', { action: 'approve' })).status).toBe(200);
    expect(await statusOf(t, carol, account.id ?? '')).toBe('APPROVED');
  });

  appTest("keeps another organization's approvals out of sight: 404", async ({ t, alice }) => {
    const other = await createOrg(t.db, 'Other Org');
    const eve = await createTestApiUser(t, 'eve', other.id);
    const account = await createAccount(t, alice);
    expectError(
      await decideAs(t.app, eve, account.id ?? '', { action: 'approve' }),
      404,
      'NOT_FOUND',
    );
    const request = await changeRequestOf(t.db, account.id ?? '');
    const url = paths.approvalAction(request?.approvalId ?? '');
    const res = await t.app.request(
      url,
      signedInit(eve, 'POST', url, { action: 'approve', signature: 'aa' }),
    );
    expect(res.status).toBe(404);
  });
});

describe('approval lookups', () => {
  appTest(
    'answer 404 for an unknown entity or approval and 400 without entityId',
    async ({ t, alice }) => {
      const unknown = `${paths.approvalMessage()}${toQueryString({ entityId: 'no-such-entity' })}`;
      const res = await t.app.request(unknown, signedInit(alice, 'GET', unknown));
      expect(res.status).toBe(404);
      const bare = paths.approvalMessage();
      const missing = await t.app.request(bare, signedInit(alice, 'GET', bare));
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        fields: [{ field: 'entityId' }],
      });
      const action = paths.approvalAction('no-such-approval');
      const none = await t.app.request(
        action,
        signedInit(alice, 'POST', action, { action: 'approve', signature: 'aa' }),
      );
      expect(none.status).toBe(404);
    },
  );
});
