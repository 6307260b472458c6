import { describe, expect } from 'vitest';
import { paths, toQueryString } from '#contract/paths.ts';
import { Transaction, TransactionListResponse } from '#contract/transaction.ts';
import {
  createBankAccount,
  createOrg,
  createSubOrg,
  createTransaction,
  createVault,
  minutesAgo,
} from '../../test/fixtures.ts';
import { appTest } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';
import { expectError } from '../../test/refused-read.ts';

async function list(t: TestApp, query: Record<string, string | number | undefined>) {
  const { status, body } = await t.getJson(`${paths.transactions()}${toQueryString(query)}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return TransactionListResponse.parse(body);
}

async function listIds(t: TestApp, query: Record<string, string | number | undefined>) {
  return (await list(t, { limit: 100, ...query })).results.map((r) => r.id);
}

describe('GET /api/external/transactions/', () => {
  appTest('lists newest first with ISO timestamps and canonical decimal amounts', async ({ t }) => {
    const vault = await createVault(t.db, { orgId: t.orgId });
    const older = await createTransaction(t.db, {
      orgId: t.orgId,
      vaultId: vault.id,
      amount: '1.500000',
      createdAt: minutesAgo(10),
    });
    const newer = await createTransaction(t.db, {
      orgId: t.orgId,
      vaultId: vault.id,
      amount: '0.000000010',
      createdAt: minutesAgo(5),
    });

    const page = await list(t, { vaultId: vault.id });
    expect(page.results.map((r) => r.id)).toEqual([newer.id, older.id]);
    expect(page.hasNext).toBe(false);
    expect(page.nextCursor).toBeNull();
    expect(page.results[0]?.amount).toBe('0.00000001');
    expect(page.results[1]?.amount).toBe('1.5');
    expect(page.results[0]?.createdAt).toBe(newer.createdAt.toISOString());
    expect(page.results[0]?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  appTest('defaults to 20 per page and accepts 1 and 100', async ({ t }) => {
    const vault = await createVault(t.db, { orgId: t.orgId });
    for (let i = 0; i < 25; i += 1) {
      await createTransaction(t.db, {
        orgId: t.orgId,
        vaultId: vault.id,
        createdAt: minutesAgo(i),
      });
    }
    expect((await list(t, { vaultId: vault.id })).results).toHaveLength(20);
    const one = await list(t, { vaultId: vault.id, limit: 1 });
    expect(one.results).toHaveLength(1);
    expect(one.hasNext).toBe(true);
    expect((await list(t, { vaultId: vault.id, limit: 100 })).results).toHaveLength(25);
  });

  appTest(
    'pages through rows sharing one timestamp without losing or repeating any',
    async ({ t }) => {
      const vault = await createVault(t.db, { orgId: t.orgId });
      const at = minutesAgo(30);
      const made = [];
      for (let i = 0; i < 5; i += 1)
        made.push(
          await createTransaction(t.db, { orgId: t.orgId, vaultId: vault.id, createdAt: at }),
        );

      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await list(t, { vaultId: vault.id, limit: 2, cursor });
        seen.push(...page.results.map((r) => r.id ?? ''));
        cursor = page.nextCursor ?? undefined;
        expect(page.hasNext).toBe(Boolean(page.nextCursor));
      } while (cursor);
      expect(seen).toEqual(
        made
          .map((m) => m.id)
          .sort()
          .reverse(),
      );
    },
  );

  appTest.for([
    ['status', 'FAILED', { status: 'FAILED' }],
    ['category', 'STAKE', { category: 'STAKE' }],
    ['asset', 'USDC', { asset: 'USDC' }],
  ] as const)('filters by %s', async ([filter, value, match], { t }) => {
    const vault = await createVault(t.db, { orgId: t.orgId });
    const hit = await createTransaction(t.db, { orgId: t.orgId, vaultId: vault.id, ...match });
    await createTransaction(t.db, { orgId: t.orgId, vaultId: vault.id });

    expect(await listIds(t, { vaultId: vault.id, [filter]: value })).toEqual([hit.id]);
    // Alone, too: every result matches and ours is among them.
    const page = await list(t, { [filter]: value, limit: 100 });
    expect(page.results.every((r) => r[filter] === value)).toBe(true);
    expect(page.results.map((r) => r.id)).toContain(hit.id);
  });

  appTest('filters by vaultId and subOrgId', async ({ t }) => {
    const subOrg = await createSubOrg(t.db, t.orgId);
    const vault = await createVault(t.db, { orgId: t.orgId, subOrgId: subOrg.id });
    const other = await createVault(t.db, { orgId: t.orgId });
    const mine = await createTransaction(t.db, {
      orgId: t.orgId,
      vaultId: vault.id,
      subOrgId: subOrg.id,
    });
    await createTransaction(t.db, { orgId: t.orgId, vaultId: other.id });

    expect(await listIds(t, { vaultId: vault.id })).toEqual([mine.id]);
    expect(await listIds(t, { subOrgId: subOrg.id })).toEqual([mine.id]);
  });

  appTest('finds a transaction by externalId', async ({ t }) => {
    const vault = await createVault(t.db, { orgId: t.orgId });
    const mine = await createTransaction(t.db, {
      orgId: t.orgId,
      vaultId: vault.id,
      externalId: 'order-7731',
    });
    await createTransaction(t.db, { orgId: t.orgId, vaultId: vault.id, externalId: 'order-7732' });
    expect(await listIds(t, { externalId: 'order-7731' })).toEqual([mine.id]);
    expect(await listIds(t, { externalId: 'order-nope' })).toEqual([]);
  });

  appTest('filters by createdAtGte and createdAtLte, both inclusive', async ({ t }) => {
    const vault = await createVault(t.db, { orgId: t.orgId });
    const [a, b, c] = [
      await createTransaction(t.db, {
        orgId: t.orgId,
        vaultId: vault.id,
        createdAt: minutesAgo(300),
      }),
      await createTransaction(t.db, {
        orgId: t.orgId,
        vaultId: vault.id,
        createdAt: minutesAgo(200),
      }),
      await createTransaction(t.db, {
        orgId: t.orgId,
        vaultId: vault.id,
        createdAt: minutesAgo(100),
      }),
    ];
    const iso = (d: Date) => d.toISOString();
    expect(await listIds(t, { vaultId: vault.id, createdAtGte: iso(b.createdAt) })).toEqual([
      c.id,
      b.id,
    ]);
    expect(await listIds(t, { vaultId: vault.id, createdAtLte: iso(b.createdAt) })).toEqual([
      b.id,
      a.id,
    ]);
    expect(
      await listIds(t, {
        vaultId: vault.id,
        createdAtGte: iso(b.createdAt),
        createdAtLte: iso(b.createdAt),
      }),
    ).toEqual([b.id]);
    // The same instant written with another offset filters the same.
    const sameInstantPlusTwo = new Date(b.createdAt.getTime() + 2 * 3_600_000)
      .toISOString()
      .replace('Z', '+02:00');
    expect(await listIds(t, { vaultId: vault.id, createdAtGte: sameInstantPlusTwo })).toEqual([
      c.id,
      b.id,
    ]);
  });

  appTest('never shows another organization’s transactions', async ({ t }) => {
    const otherOrg = await createOrg(t.db, 'Someone else');
    const foreign = await createTransaction(t.db, { orgId: otherOrg.id, externalId: 'foreign-1' });
    expect(await listIds(t, { externalId: 'foreign-1' })).toEqual([]);
    await expectError(t, paths.transaction(foreign.id), 404, 'NOT_FOUND');
  });

  appTest.for(['0', '101', 'abc', '1.5', '-1', '', '1e2'])(
    'refuses limit=%j with 400 INVALID_LIMIT',
    async (limit, { t }) => {
      const body = await expectError(
        t,
        `${paths.transactions()}?limit=${limit}`,
        400,
        'INVALID_LIMIT',
      );
      expect(body.message).toMatch(/limit/);
    },
  );

  // An empty cursor is the first page (both SDKs send `cursor=`): sdk-wire-habits.test.ts.
  appTest(
    'refuses a malformed, edited or foreign cursor with 400 INVALID_CURSOR',
    async ({ t }) => {
      const vault = await createVault(t.db, { orgId: t.orgId });
      await createTransaction(t.db, {
        orgId: t.orgId,
        vaultId: vault.id,
        createdAt: minutesAgo(2),
      });
      await createTransaction(t.db, {
        orgId: t.orgId,
        vaultId: vault.id,
        createdAt: minutesAgo(1),
      });
      const cursor = (await list(t, { vaultId: vault.id, limit: 1 })).nextCursor ?? '';
      expect(cursor).not.toBe('');

      const edited = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
      await createBankAccount(t.db, { orgId: t.orgId, createdAt: minutesAgo(2) });
      await createBankAccount(t.db, { orgId: t.orgId, createdAt: minutesAgo(1) });
      const bankAccountsPage = (await t.getJson(`${paths.bankAccounts()}?limit=1`)).body as {
        nextCursor: string;
      };
      expect(bankAccountsPage.nextCursor).toBeTruthy();
      for (const bad of [
        'not-a-cursor',
        edited,
        bankAccountsPage.nextCursor,
        cursor.split('.')[0] ?? '',
        `${cursor}.x`,
        '%00',
      ]) {
        await expectError(
          t,
          `${paths.transactions()}?cursor=${encodeURIComponent(bad)}`,
          400,
          'INVALID_CURSOR',
        );
      }
    },
  );

  appTest.for([
    ['status', 'NOT_A_STATUS'],
    ['category', 'transfer'],
    ['createdAtGte', 'yesterday'],
    ['createdAtLte', '2024-13-45'],
    ['vaultId', ''],
  ] as const)(
    'refuses %s=%j with 400 INVALID_FILTER naming the field',
    async ([field, value], { t }) => {
      const body = await expectError(
        t,
        `${paths.transactions()}?${field}=${encodeURIComponent(value)}`,
        400,
        'INVALID_FILTER',
      );
      expect(body.message).toContain(field);
      expect(body.fields?.[0]?.field).toBe(field);
    },
  );

  appTest('answers hostile values with 4xx, never 5xx', async ({ t }) => {
    await expectError(t, `${paths.transactions()}?vaultId=%00`, 400, 'INVALID_FILTER');
    await expectError(t, `${paths.transactions()}?asset=US%0ADC`, 400, 'INVALID_FILTER');
    await expectError(t, paths.transaction('a\u0000b'), 404, 'NOT_FOUND');
    await expectError(t, paths.transaction('x'.repeat(5000)), 404, 'NOT_FOUND');
    // Valid ISO 8601, but outside what PostgreSQL stores: no rows are out there.
    for (const query of [
      'createdAtGte=0000-01-01T00:00:00Z',
      'createdAtLte=9999-12-31T23:59:59Z',
    ]) {
      const res = await t.getJson(`${paths.transactions()}?${query}`);
      expect(res.status, query).toBe(200);
    }
  });

  appTest('ignores query parameters it does not know', async ({ t }) => {
    const res = await t.getJson(`${paths.transactions()}?colour=blue`);
    expect(res.status).toBe(200);
  });
});

describe('GET /api/external/transactions/{id}/', () => {
  appTest('returns the transaction with its status history', async ({ t }) => {
    const vault = await createVault(t.db, { orgId: t.orgId });
    const made = await createTransaction(t.db, {
      orgId: t.orgId,
      vaultId: vault.id,
      status: 'FAILED',
      error: 'Execution reverted',
      txHash: '0xabc',
      nonce: 7,
      fees: { amount: '0.001', asset: 'ETH', amountInFiat: '3' },
      balanceChanges: {
        changes: [
          {
            party: { type: 'VAULT', id: vault.id },
            asset: 'ETH',
            amount: '-0.001',
            chain: 'ETHEREUM',
          },
        ],
      },
    });
    const res = await t.getJson(paths.transaction(made.id));
    expect(res.status).toBe(200);
    const tx = Transaction.parse(res.body);
    expect(tx).toMatchObject({
      id: made.id,
      orgId: t.orgId,
      vaultId: vault.id,
      status: 'FAILED',
      error: 'Execution reverted',
      txHash: '0xabc',
      nonce: 7,
      fees: { amount: '0.001', asset: 'ETH' },
    });
    expect(tx['statusHistory']).toEqual([{ status: 'FAILED', at: made.createdAt.toISOString() }]);
    // Absent values are left out rather than sent as null.
    expect(Object.values(tx)).not.toContain(null);
  });

  appTest('answers 404 NOT_FOUND for an unknown id', async ({ t }) => {
    const body = await expectError(t, paths.transaction('no-such-transaction'), 404, 'NOT_FOUND');
    expect(body.message).toContain('no-such-transaction');
  });
});
