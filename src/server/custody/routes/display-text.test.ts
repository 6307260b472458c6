import { describe, expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { listStaff, updateStaff } from '#contract/endpoints/staff.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { appTest } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * Bidi and invisible characters (Unicode Cf) in the text
 * approvers read are refused by the API, each with a 400 naming the field,
 * the rule and the character, before anything is created.
 */

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function expectRefused(
  t: TestApp,
  url: string,
  init: RequestInit,
  field: string,
  char: string,
) {
  const res = await t.admin.json(url, init);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  const error = ApiErrorBody.parse(res.body);
  expect(error.code).toBe('VALIDATION_ERROR');
  const problem = error.fields?.find((f) => f.field === field);
  expect(problem?.message).toMatch(
    new RegExp(`^${field} must not contain .*invisible or text-direction characters.*${char}$`),
  );
}

describe('text approvers read', () => {
  appTest("is refused with a Cf character in a bank account's name or bank name", async ({ t }) => {
    const account = {
      paymentMethod: 'US_ACH',
      accountName: 'Acme Ltd',
      accountNumber: '000123456789',
      routingNumber: '021000021',
      bankName: 'JPMorgan Chase',
      country: 'US',
    };
    await expectRefused(
      t,
      paths.bankAccounts(),
      post({ ...account, accountName: 'Acme \u202Edtl' }),
      'accountName',
      'U\\+202E',
    );
    await expectRefused(
      t,
      paths.bankAccounts(),
      post({ ...account, bankName: 'Chase\u200B' }),
      'bankName',
      'U\\+200B',
    );
    const list = await t.admin.json(paths.bankAccounts());
    expect((list.body as { results: unknown[] }).results).toHaveLength(0);
  });

  appTest("is refused with a Cf character in a transaction's memo or externalId", async ({ t }) => {
    const transfer = {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: 'vault-1' },
      destination: { type: 'CONTACT', id: 'contact-1' },
      amount: '1',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
    };
    await expectRefused(
      t,
      paths.transactions(),
      post({ ...transfer, memo: 'payroll \u2066march\u2069' }),
      'memo',
      'U\\+2066',
    );
    await expectRefused(
      t,
      paths.transactions(),
      post({ ...transfer, externalId: 'inv-1\u200D' }),
      'externalId',
      'U\\+200D',
    );
  });

  appTest(
    "is refused with a Cf character in a staff member's name, on create and on change",
    async ({ t }) => {
      await expectRefused(
        t,
        listStaff.path,
        post({
          email: 'rtl@bank.test',
          name: 'Ann\u202E',
          role: 'viewer',
          password: 'x'.repeat(12),
        }),
        'name',
        'U\\+202E',
      );
      const member = await t.signIn('viewer');
      await expectRefused(
        t,
        pathOf(updateStaff, { staffId: member.member.id }),
        { ...post({ name: 'Bob\uFEFFby' }), method: 'PATCH' },
        'name',
        'U\\+FEFF',
      );
    },
  );
});
