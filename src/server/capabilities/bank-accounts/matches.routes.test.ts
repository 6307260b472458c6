import { describe, expect } from 'vitest';
import { BankAccountMatches } from '#contract/bank-account-matches.ts';
import { findBankAccountMatches } from '#contract/endpoints/bank-accounts.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { appTestWith } from '../../test/app-test.ts';
import type {} from '../../test/test-app.ts';

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

const IBAN = 'DE89 3704 0044 0532 0130 00';

async function propose(by: StaffSession, subOrgId: string, accountNumber = IBAN) {
  const res = await by.json(
    paths.bankAccounts(),
    post({
      paymentMethod: 'SEPA',
      subOrgId,
      accountName: 'Twice GmbH',
      accountNumber,
      bankName: 'Commerzbank',
      country: 'DE',
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { id: string }).id;
}

async function matches(by: StaffSession, body: unknown) {
  const res = await by.json(findBankAccountMatches.path, post(body));
  return { status: res.status, body: res.body };
}

const appTest = appTestWith()
  .extend('subOrgId', { scope: 'file' }, async ({ t }) => (await createSubOrg(t.db, t.orgId)).id)
  .extend(
    'otherSubOrgId',
    { scope: 'file' },
    async ({ t }) => (await createSubOrg(t.db, t.orgId)).id,
  );

describe('identical bank accounts, before a proposal', () => {
  appTest(
    'finds a pending account with the same rail and number, spaces or none, masked',
    async ({ t, subOrgId }) => {
      const initiator = await t.signIn('initiator');
      const id = await propose(initiator, subOrgId);
      const found = await matches(initiator, {
        paymentMethod: 'SEPA',
        accountNumber: 'de89370400440532013000',
      });
      expect(found.status).toBe(200);
      const body = BankAccountMatches.parse(found.body);
      expect(body.complete).toBe(true);
      expect(body.results.map((a) => a.id)).toContain(id);
      const match = body.results.find((a) => a.id === id);
      expect(match?.accountNumber).toBe('•••• 3000');
      expect(JSON.stringify(found.body)).not.toContain('0532013000');
    },
  );

  appTest(
    'ignores another rail, another number and a declined account',
    async ({ t, subOrgId }) => {
      const initiator = await t.signIn('initiator');
      const approver = await t.signIn('approver');
      const iban = 'DE02 5001 0517 0137 0750 30';
      const declined = await propose(initiator, subOrgId, iban);
      const message = await approver.json(`${paths.approvalMessage()}?entityId=${declined}`);
      const { approvalId } = ApprovalMessageResponse.parse(message.body);
      expect(
        (
          await approver.json(
            paths.approvalAction(approvalId),
            post({ action: 'reject', reason: 'Wrong holder' }),
          )
        ).status,
      ).toBe(200);
      const none = [
        { paymentMethod: 'SEPA', accountNumber: iban },
        { paymentMethod: 'SWIFT', accountNumber: IBAN },
        { paymentMethod: 'SEPA', accountNumber: 'DE02 1203 0000 0000 2020 51' },
      ];
      for (const body of none) {
        const found = await matches(initiator, body);
        expect(found.status).toBe(200);
        expect(BankAccountMatches.parse(found.body).results, JSON.stringify(body)).toEqual([]);
      }
    },
  );

  appTest('looks only inside the member’s scope', async ({ t, subOrgId, otherSubOrgId }) => {
    const initiator = await t.signIn('initiator');
    const iban = 'DE75 5121 0800 1245 1261 99';
    await propose(initiator, otherSubOrgId, iban);
    const scoped = await t.signIn('initiator', { subOrgIds: [subOrgId] });
    const found = await matches(scoped, { paymentMethod: 'SEPA', accountNumber: iban });
    expect(BankAccountMatches.parse(found.body).results).toEqual([]);
  });

  appTest('refuses a bad body naming the field, and a viewer by role', async ({ t }) => {
    const initiator = await t.signIn('initiator');
    const bad = await matches(initiator, { paymentMethod: 'CARRIER_PIGEON', accountNumber: '' });
    expect(bad.status).toBe(400);
    const fields = ApiErrorBody.parse(bad.body).fields?.map((f) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['paymentMethod', 'accountNumber']));
    const viewer = await t.signIn('viewer');
    expect((await matches(viewer, { paymentMethod: 'SEPA', accountNumber: IBAN })).status).toBe(
      403,
    );
  });
});
