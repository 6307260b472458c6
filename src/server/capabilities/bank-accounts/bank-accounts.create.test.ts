import { count, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { BankAccount, type BankAccountCreateInput } from '#contract/bank-account.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { bankAccounts, changeRequests } from '../../db/schema/sandbox.ts';
import { createOrg, createSubOrg } from '../../test/fixtures.ts';
import {
  createTestApiUser,
  signedInit,
  type SignOptions,
  type TestApiUser,
} from '../../test/api-client.ts';
import { appTestWith } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';
import { ACH } from '../../test/create-requests.ts';

const appTest = appTestWith().extend('user', { scope: 'file' }, ({ t }) =>
  createTestApiUser(t, 'creator'),
);

async function call(
  t: TestApp,
  user: TestApiUser,
  method: string,
  url: string,
  body?: unknown,
  options?: SignOptions,
) {
  const res = await t.app.request(url, signedInit(user, method, url, body, options));
  return { status: res.status, body: (await res.json()) as unknown };
}

const create = (t: TestApp, user: TestApiUser, body: unknown, options?: SignOptions) =>
  call(t, user, 'POST', paths.bankAccounts(), body, options);

async function expectFieldErrors(
  t: TestApp,
  user: TestApiUser,
  body: unknown,
  fields: Record<string, RegExp>,
) {
  const res = await create(t, user, body);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  const error = ApiErrorBody.parse(res.body);
  expect(error.code).toBe('VALIDATION_ERROR');
  for (const [field, rule] of Object.entries(fields)) {
    const problem = error.fields?.find((f) => f.field === field);
    expect(problem?.message, `${field} in ${JSON.stringify(error.fields)}`).toMatch(rule);
    // The top-level message names the field and the rule too, for clients that only show it.
    expect(error.message).toContain(problem?.message);
  }
  expect(error.fields?.map((f) => f.field).sort()).toEqual(Object.keys(fields).sort());
}

const WIRE: BankAccountCreateInput = {
  ...ACH,
  paymentMethod: 'US_WIRE',
  streetLine: '270 Park Avenue',
  city: 'New York',
  state: 'NY',
  postalCode: '10017',
};
const SEPA: BankAccountCreateInput = {
  paymentMethod: 'SEPA',
  accountName: 'Northwind GmbH',
  accountNumber: 'DE89 3704 0044 0532 0130 00',
  bankName: 'Commerzbank',
  country: 'DE',
};
const SWIFT: BankAccountCreateInput = {
  paymentMethod: 'SWIFT',
  accountName: 'Northwind Ltd',
  accountNumber: 'GB29 NWBK 6016 1331 9268 19',
  routingNumber: 'nwbkgb2l',
  bankName: 'NatWest',
  streetLine: '250 Bishopsgate',
  city: 'London',
  postalCode: 'EC2M 4AA',
  country: 'GB',
};
const TRANSFER: BankAccountCreateInput = {
  paymentMethod: 'BANK_TRANSFER',
  accountName: 'Northwind Pty',
  accountNumber: '062-000 12345678',
  bankName: 'Commonwealth Bank',
  country: 'AU',
};

describe('POST /api/external/bank_accounts/ creates', () => {
  appTest.for([
    ['US_ACH', ACH, { accountNumber: '000123456789', routingNumber: '021000021' }],
    ['US_WIRE', WIRE, { streetLine: '270 Park Avenue', state: 'NY', postalCode: '10017' }],
    // IBANs and BICs are stored in their electronic form.
    ['SEPA', SEPA, { accountNumber: 'DE89370400440532013000', routingNumber: null }],
    ['SWIFT', SWIFT, { accountNumber: 'GB29NWBK60161331926819', routingNumber: 'NWBKGB2L' }],
    ['BANK_TRANSFER', TRANSFER, { accountNumber: '062-000 12345678', country: 'AU' }],
  ] as const)(
    'a %s account, PENDING, created by the API user',
    async ([rail, body, stored], { t, user }) => {
      const res = await create(t, user, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const account = BankAccount.parse(res.body);
      expect(account).toMatchObject({
        orgId: t.orgId,
        subOrgId: null,
        status: 'PENDING',
        paymentMethod: rail,
        createdById: user.id,
        isDeleted: false,
        accountName: body.accountName,
        ...stored,
      });
      const again = await call(t, user, 'GET', paths.bankAccount(account.id ?? ''));
      expect(again.body).toEqual(account);
    },
  );

  appTest(
    'with a change request whose approval message is served for the account',
    async ({ t, user }) => {
      const account = BankAccount.parse((await create(t, user, ACH)).body);
      const [request] = await t.db
        .select()
        .from(changeRequests)
        .where(eq(changeRequests.entityId, account.id ?? ''));
      expect(request).toMatchObject({
        orgId: t.orgId,
        entityType: 'BANK_ACCOUNT',
        status: 'PENDING',
        createdById: user.id,
        createdByType: 'API_USER',
        decidedById: null,
      });
      const url = `${paths.approvalMessage()}${toQueryString({ entityId: account.id })}`;
      const res = await call(t, user, 'GET', url);
      expect(res.status).toBe(200);
      const message = ApprovalMessageResponse.parse(res.body);
      expect(message).toEqual({
        approvalId: request?.approvalId,
        message: request?.approvalMessage,
        changeRequestId: request?.id,
        entityId: account.id,
        entityType: 'BANK_ACCOUNT',
      });
      expect(JSON.parse(message.message)).toEqual({
        type: 'CHANGE_REQUEST_APPROVAL',
        approvalId: request?.approvalId,
        changeRequestId: request?.id,
        entityType: 'BANK_ACCOUNT',
        entityId: account.id,
        orgId: t.orgId,
        createdAt: account.createdAt,
      });
    },
  );

  appTest('in a sub-organization of the organization', async ({ t, user }) => {
    const subOrg = await createSubOrg(t.db, t.orgId);
    const res = await create(t, user, { ...SEPA, subOrgId: subOrg.id });
    expect(res.status).toBe(200);
    expect(BankAccount.parse(res.body).subOrgId).toBe(subOrg.id);
  });

  appTest('with unset optional fields sent as null, as generated SDKs do', async ({ t, user }) => {
    const res = await create(t, user, {
      ...SEPA,
      routingNumber: null,
      subOrgId: null,
      state: null,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(BankAccount.parse(res.body)).toMatchObject({ routingNumber: null, subOrgId: null });
  });

  appTest(
    'from a Python SDK request: padded token and dataSignatureHex in the body',
    async ({ t, user }) => {
      const res = await create(t, user, ACH, { sdk: 'python' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(BankAccount.parse(res.body)).toMatchObject({
        status: 'PENDING',
        createdById: user.id,
      });
    },
  );
});

describe('POST /api/external/bank_accounts/ refuses, naming each field and rule', () => {
  appTest.for([
    [
      'a missing ACH routing number',
      { ...ACH, routingNumber: undefined },
      { routingNumber: /routingNumber is required for US_ACH/ },
    ],
    [
      'an ACH routing number failing the ABA checksum',
      { ...ACH, routingNumber: '021000022' },
      { routingNumber: /ABA routing number with a valid checksum/ },
    ],
    [
      'ACH account number letters and a non-US country',
      { ...ACH, accountNumber: '12AB', country: 'GB' },
      { accountNumber: /4 to 17 digits/, country: /must be US for US_ACH/ },
    ],
    [
      'a wire without its address',
      { ...ACH, paymentMethod: 'US_WIRE' },
      {
        streetLine: /streetLine is required for US_WIRE/,
        city: /city is required/,
        state: /state is required/,
        postalCode: /postalCode is required/,
      },
    ],
    [
      'an invalid IBAN for SEPA',
      { ...SEPA, accountNumber: 'DE89370400440532013001' },
      { accountNumber: /valid IBAN for SEPA/ },
    ],
    [
      'an IBAN outside SEPA',
      { ...SEPA, accountNumber: 'BR1800360305000010009795493C1', country: 'BR' },
      { accountNumber: /not a SEPA country/ },
    ],
    [
      'a SEPA country that differs from the IBAN',
      { ...SEPA, country: 'FR' },
      { country: /match the IBAN's country \(DE\)/ },
    ],
    [
      'a SWIFT account with a bad BIC and no street',
      { ...SWIFT, routingNumber: 'NOTABIC!', streetLine: undefined },
      { routingNumber: /valid BIC/, streetLine: /streetLine is required for SWIFT/ },
    ],
    [
      'a bank transfer without a bank name',
      { ...TRANSFER, bankName: '' },
      { bankName: /bankName is required for BANK_TRANSFER/ },
    ],
    [
      'an unknown country code',
      { ...TRANSFER, country: 'ZZ' },
      { country: /two-letter ISO 3166 code/ },
    ],
    ['no payment method', { accountName: 'x' }, { paymentMethod: /paymentMethod is required/ }],
    [
      'an unknown payment method',
      { ...ACH, paymentMethod: 'CHEQUE' },
      { paymentMethod: /^paymentMethod: / },
    ],
    [
      'a field the API does not have',
      { ...ACH, iban: 'x' },
      { iban: /iban is not a field of this request/ },
    ],
    [
      'a field too long',
      { ...ACH, accountName: 'x'.repeat(141) },
      { accountName: /at most 140 characters/ },
    ],
  ] as const)('%s', async ([_name, body, fields], { t, user }) => {
    await expectFieldErrors(t, user, body, fields);
  });

  appTest('a body that is not a JSON object', async ({ t, user }) => {
    await expectFieldErrors(t, user, [ACH], { body: /body must be a JSON object/ });
    const res = await t.app.request(paths.bankAccounts(), {
      ...signedInit(user, 'POST', paths.bankAccounts()),
      body: '{"paymentMethod":',
    });
    // The token covers the body, so a body that is not JSON is refused before the token is read.
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'INVALID_JSON' });
  });

  appTest(
    'a body nested deeper than any request of the API needs: 400 naming body',
    async ({ t, user }) => {
      let deep: unknown = 'x';
      for (let i = 0; i < 100; i += 1) deep = { a: deep };
      await expectFieldErrors(
        t,
        user,
        { ...ACH, clientBankAccountId: deep },
        { body: /nests deeper than 64/ },
      );
    },
  );

  appTest('text the database cannot hold (a NUL byte): 400, never a 5xx', async ({ t, user }) => {
    const res = await create(t, user, { ...ACH, accountName: 'Null\u0000Byte' });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(ApiErrorBody.parse(res.body).code).toBe('VALIDATION_ERROR');
  });

  appTest(
    'a sub-org that is unknown or belongs to another organization, creating nothing',
    async ({ t, user }) => {
      const other = await createOrg(t.db, 'Other Org');
      const foreign = await createSubOrg(t.db, other.id);
      const before = await countAccounts(t);
      for (const subOrgId of ['no-such-sub-org', foreign.id]) {
        await expectFieldErrors(
          t,
          user,
          { ...ACH, subOrgId },
          {
            subOrgId: new RegExp(
              `subOrgId "${subOrgId}" is not a sub-organization of this organization`,
            ),
          },
        );
      }
      await expectFieldErrors(t, user, { ...ACH, routingNumber: 'bad' }, { routingNumber: /ABA/ });
      expect(await countAccounts(t)).toBe(before);
    },
  );
});

async function countAccounts(t: TestApp): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(bankAccounts)
    .where(eq(bankAccounts.orgId, t.orgId));
  return row?.n ?? 0;
}
