import { describe, expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { listBankAccountRamps } from '#contract/endpoints/ramps.ts';
import { TransactionListResponse } from '#contract/transaction.ts';
import { transactions } from '../../db/schema/sandbox.ts';
import { appTestWith } from '../../test/app-test.ts';

// The first-start seed's ramps name their approved bank account, so each account's page
// lists the conversions paid to it or funded from it (GET /api/console/bank_accounts/{id}/ramps/).
const it = appTestWith({ seed: true });

describe("a seeded bank account's ramps", () => {
  it('lists every seeded off-ramp and on-ramp of the account, newest first', async ({
    t,
    viewer,
  }) => {
    const rows = await t.db.select().from(transactions);
    const ramps = rows.filter((r) => r.category === 'ON_RAMP' || r.category === 'OFF_RAMP');
    const byAccount = new Map<string, string[]>();
    for (const r of ramps) {
      const bank = r.category === 'OFF_RAMP' ? r.destination : r.source;
      const id = bank?.id ?? '';
      byAccount.set(id, [...(byAccount.get(id) ?? []), r.id]);
    }
    const [accountId, expected] = [...byAccount.entries()].sort(
      (a, b) => b[1].length - a[1].length,
    )[0] ?? ['', []];
    expect(expected.length).toBeGreaterThan(0);
    const res = await viewer.json(
      `${pathOf(listBankAccountRamps, { bankAccountId: accountId })}?limit=100`,
    );
    expect(res.status).toBe(200);
    const listed = TransactionListResponse.parse(res.body).results;
    expect(listed.map((tx) => tx.id).sort()).toEqual([...expected].sort());
    for (const tx of listed) expect(['ON_RAMP', 'OFF_RAMP']).toContain(tx.category);
    const times = listed.map((tx) => tx.createdAt ?? '');
    expect([...times].sort().reverse()).toEqual(times);
  });
});
