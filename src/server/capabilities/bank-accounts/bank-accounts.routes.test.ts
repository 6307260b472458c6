import { describe, expect } from 'vitest';
import { BankAccount, BankAccountListResponse } from '#contract/bank-account.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { createBankAccount, createOrg, createSubOrg, minutesAgo } from '../../test/fixtures.ts';
import { appTest } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';
import { expectError } from '../../test/refused-read.ts';

async function list(t: TestApp, query: Record<string, string | number | undefined>) {
  const res = await t.getJson(`${paths.bankAccounts()}${toQueryString({ limit: 100, ...query })}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return BankAccountListResponse.parse(res.body);
}

describe('GET /api/external/bank_accounts/', () => {
  appTest(
    'lists newest first with every field, numbers masked for a signed-in member',
    async ({ t }) => {
      const subOrg = await createSubOrg(t.db, t.orgId);
      const older = await createBankAccount(t.db, {
        orgId: t.orgId,
        subOrgId: subOrg.id,
        createdAt: minutesAgo(9),
      });
      const newer = await createBankAccount(t.db, {
        orgId: t.orgId,
        subOrgId: subOrg.id,
        paymentMethod: 'SEPA',
        accountNumber: 'DE89370400440532013000',
        routingNumber: null,
        country: 'DE',
        createdAt: minutesAgo(3),
      });
      const page = await list(t, { subOrgId: subOrg.id });
      expect(page.results.map((r) => r.id)).toEqual([newer.id, older.id]);
      expect(page.results[0]).toMatchObject({
        orgId: t.orgId,
        subOrgId: subOrg.id,
        status: 'PENDING',
        paymentMethod: 'SEPA',
        // Full numbers reach a browser only through the audited reveal.
        accountNumber: '•••• 3000',
        routingNumber: null,
        isDeleted: false,
        createdAt: newer.createdAt.toISOString(),
      });
      expect(page.results[1]?.accountNumber).toBe('•••• 6789');
      expect(page.results[1]?.routingNumber).toBe('•••• 0021');
    },
  );

  appTest.for([
    ['status', 'APPROVED', { status: 'APPROVED' }],
    [
      'paymentMethod',
      'SWIFT',
      { paymentMethod: 'SWIFT', routingNumber: 'NWBKGB2L', country: 'GB' },
    ],
    ['country', 'FR', { country: 'FR', paymentMethod: 'SEPA' }],
  ] as const)('filters by %s', async ([filter, value, match], { t }) => {
    const subOrg = await createSubOrg(t.db, t.orgId);
    const hit = await createBankAccount(t.db, { orgId: t.orgId, subOrgId: subOrg.id, ...match });
    await createBankAccount(t.db, { orgId: t.orgId, subOrgId: subOrg.id });

    expect(
      (await list(t, { subOrgId: subOrg.id, [filter]: value })).results.map((r) => r.id),
    ).toEqual([hit.id]);
    const alone = await list(t, { [filter]: value });
    expect(alone.results.every((r) => r[filter] === value)).toBe(true);
    expect(alone.results.map((r) => r.id)).toContain(hit.id);
  });

  appTest('filters by subOrgId', async ({ t }) => {
    const mine = await createSubOrg(t.db, t.orgId);
    const theirs = await createSubOrg(t.db, t.orgId);
    const hit = await createBankAccount(t.db, { orgId: t.orgId, subOrgId: mine.id });
    await createBankAccount(t.db, { orgId: t.orgId, subOrgId: theirs.id });
    expect((await list(t, { subOrgId: mine.id })).results.map((r) => r.id)).toEqual([hit.id]);
  });

  appTest('pages with cursors', async ({ t }) => {
    const subOrg = await createSubOrg(t.db, t.orgId);
    const made = [];
    for (let i = 0; i < 5; i += 1)
      made.push(
        await createBankAccount(t.db, {
          orgId: t.orgId,
          subOrgId: subOrg.id,
          createdAt: minutesAgo(i),
        }),
      );
    const first = await list(t, { subOrgId: subOrg.id, limit: 3 });
    expect(first.hasNext).toBe(true);
    const second = await list(t, { subOrgId: subOrg.id, limit: 3, cursor: first.nextCursor ?? '' });
    expect(second.hasNext).toBe(false);
    expect(second.nextCursor).toBeNull();
    expect([...first.results, ...second.results].map((r) => r.id)).toEqual(made.map((m) => m.id));
  });

  appTest('never shows another organization’s accounts', async ({ t }) => {
    const other = await createOrg(t.db, 'Elsewhere');
    const foreign = await createBankAccount(t.db, {
      orgId: other.id,
      country: 'NZ',
      paymentMethod: 'BANK_TRANSFER',
    });
    expect((await list(t, { country: 'NZ' })).results).toEqual([]);
    await expectError(t, paths.bankAccount(foreign.id), 404, 'NOT_FOUND');
  });

  appTest.for([
    ['status', 'ACTIVE'],
    ['paymentMethod', 'CHEQUE'],
    ['country', 'us'],
    ['country', 'USA'],
  ] as const)(
    'refuses %s=%j with 400 INVALID_FILTER naming the field',
    async ([field, value], { t }) => {
      const body = await expectError(
        t,
        `${paths.bankAccounts()}?${field}=${value}`,
        400,
        'INVALID_FILTER',
      );
      expect(body.message).toContain(field);
    },
  );

  appTest.for(['0', '101', 'abc'])(
    'refuses limit=%s with 400 INVALID_LIMIT',
    async (limit, { t }) => {
      await expectError(t, `${paths.bankAccounts()}?limit=${limit}`, 400, 'INVALID_LIMIT');
    },
  );

  appTest(
    'refuses control characters in a filter, and treats such an id as unknown',
    async ({ t }) => {
      await expectError(t, `${paths.bankAccounts()}?subOrgId=a%00b`, 400, 'INVALID_FILTER');
      await expectError(t, paths.bankAccount('\u0000'), 404, 'NOT_FOUND');
    },
  );

  appTest('refuses a bad cursor with 400 INVALID_CURSOR', async ({ t }) => {
    await expectError(t, `${paths.bankAccounts()}?cursor=abc.def`, 400, 'INVALID_CURSOR');
  });
});

describe('GET /api/external/bank_accounts/{id}/', () => {
  appTest('returns one account', async ({ t }) => {
    const made = await createBankAccount(t.db, {
      orgId: t.orgId,
      clientBankAccountId: 'client-42',
      status: 'DECLINED',
    });
    const res = await t.getJson(paths.bankAccount(made.id));
    expect(res.status).toBe(200);
    expect(BankAccount.parse(res.body)).toMatchObject({
      id: made.id,
      clientBankAccountId: 'client-42',
      status: 'DECLINED',
    });
  });

  appTest('answers 404 NOT_FOUND for an unknown id', async ({ t }) => {
    await expectError(t, paths.bankAccount('nope'), 404, 'NOT_FOUND');
  });
});
