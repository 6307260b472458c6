import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankAccount, BankAccountListResponse } from '../../../contract/bank-account.ts';
import { ApiErrorBody } from '../../../contract/common.ts';
import { paths, toQueryString } from '../../../contract/paths.ts';
import { createBankAccount, createOrg, createSubOrg, minutesAgo } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function list(query: Record<string, string | number | undefined>) {
  const res = await t.getJson(`${paths.bankAccounts()}${toQueryString({ limit: 100, ...query })}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return BankAccountListResponse.parse(res.body);
}

async function expectError(url: string, status: number, code: string) {
  const res = await t.getJson(url);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = ApiErrorBody.parse(res.body);
  expect(body.code).toBe(code);
  return body;
}

describe('GET /api/external/bank_accounts/', () => {
  it('lists newest first with every field, numbers masked for a signed-in member', async () => {
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
    const page = await list({ subOrgId: subOrg.id });
    expect(page.results.map((r) => r.id)).toEqual([newer.id, older.id]);
    expect(page.results[0]).toMatchObject({
      orgId: t.orgId,
      subOrgId: subOrg.id,
      status: 'PENDING',
      paymentMethod: 'SEPA',
      // Full numbers reach a browser only through the audited reveal (issue 4).
      accountNumber: '•••• 3000',
      routingNumber: null,
      isDeleted: false,
      createdAt: newer.createdAt.toISOString(),
    });
    expect(page.results[1]?.accountNumber).toBe('•••• 6789');
    expect(page.results[1]?.routingNumber).toBe('•••• 0021');
  });

  it.each([
    ['status', 'APPROVED', { status: 'APPROVED' }],
    [
      'paymentMethod',
      'SWIFT',
      { paymentMethod: 'SWIFT', routingNumber: 'NWBKGB2L', country: 'GB' },
    ],
    ['country', 'FR', { country: 'FR', paymentMethod: 'SEPA' }],
  ] as const)('filters by %s', async (filter, value, match) => {
    const subOrg = await createSubOrg(t.db, t.orgId);
    const hit = await createBankAccount(t.db, { orgId: t.orgId, subOrgId: subOrg.id, ...match });
    await createBankAccount(t.db, { orgId: t.orgId, subOrgId: subOrg.id });

    expect((await list({ subOrgId: subOrg.id, [filter]: value })).results.map((r) => r.id)).toEqual(
      [hit.id],
    );
    const alone = await list({ [filter]: value });
    expect(alone.results.every((r) => r[filter] === value)).toBe(true);
    expect(alone.results.map((r) => r.id)).toContain(hit.id);
  });

  it('filters by subOrgId', async () => {
    const mine = await createSubOrg(t.db, t.orgId);
    const theirs = await createSubOrg(t.db, t.orgId);
    const hit = await createBankAccount(t.db, { orgId: t.orgId, subOrgId: mine.id });
    await createBankAccount(t.db, { orgId: t.orgId, subOrgId: theirs.id });
    expect((await list({ subOrgId: mine.id })).results.map((r) => r.id)).toEqual([hit.id]);
  });

  it('pages with cursors', async () => {
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
    const first = await list({ subOrgId: subOrg.id, limit: 3 });
    expect(first.hasNext).toBe(true);
    const second = await list({ subOrgId: subOrg.id, limit: 3, cursor: first.nextCursor ?? '' });
    expect(second.hasNext).toBe(false);
    expect(second.nextCursor).toBeNull();
    expect([...first.results, ...second.results].map((r) => r.id)).toEqual(made.map((m) => m.id));
  });

  it('never shows another organization’s accounts', async () => {
    const other = await createOrg(t.db, 'Elsewhere');
    const foreign = await createBankAccount(t.db, {
      orgId: other.id,
      country: 'NZ',
      paymentMethod: 'BANK_TRANSFER',
    });
    expect((await list({ country: 'NZ' })).results).toEqual([]);
    await expectError(paths.bankAccount(foreign.id), 404, 'NOT_FOUND');
  });

  it.each([
    ['status', 'ACTIVE'],
    ['paymentMethod', 'CHEQUE'],
    ['country', 'us'],
    ['country', 'USA'],
  ])('refuses %s=%j with 400 INVALID_FILTER naming the field', async (field, value) => {
    const body = await expectError(
      `${paths.bankAccounts()}?${field}=${value}`,
      400,
      'INVALID_FILTER',
    );
    expect(body.message).toContain(field);
  });

  it.each(['0', '101', 'abc'])('refuses limit=%s with 400 INVALID_LIMIT', async (limit) => {
    await expectError(`${paths.bankAccounts()}?limit=${limit}`, 400, 'INVALID_LIMIT');
  });

  it('refuses control characters in a filter, and treats such an id as unknown', async () => {
    await expectError(`${paths.bankAccounts()}?subOrgId=a%00b`, 400, 'INVALID_FILTER');
    await expectError(paths.bankAccount('\u0000'), 404, 'NOT_FOUND');
  });

  it('refuses a bad cursor with 400 INVALID_CURSOR', async () => {
    await expectError(`${paths.bankAccounts()}?cursor=abc.def`, 400, 'INVALID_CURSOR');
  });
});

describe('GET /api/external/bank_accounts/{id}/', () => {
  it('returns one account', async () => {
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

  it('answers 404 NOT_FOUND for an unknown id', async () => {
    await expectError(paths.bankAccount('nope'), 404, 'NOT_FOUND');
  });
});
