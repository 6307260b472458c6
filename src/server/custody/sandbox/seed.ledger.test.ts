import { describe, expect } from 'vitest';
import { add, cmp, isNegative, sub, sum } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { ledgerHistory } from '#contract/endpoints/ledger.ts';
import { LedgerHistoryResponse } from '#contract/ledger.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { VaultBalances } from '#contract/reference.ts';
import type { BalanceChange } from '#contract/transaction.ts';
import { transactions, vaults } from '../../db/schema/sandbox.ts';
import { appTestWith } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';
import { closingOn } from '../../capabilities/ledger/history.ts';
import { reconciles } from '../../capabilities/ledger/statement.ts';
import { wholeStatement } from '../../test/ledger-statement.ts';

// The first-start seed's past is in the ledger: a demo user's /ledger shows the two months
// /transactions lists, not a flat line opened at first start.
const it = appTestWith({ seed: true });

const DAY = 86_400_000;

/** Every seeded change on the organization's vaults, with when it was booked (the transaction's end). */
async function seededChanges(t: TestApp) {
  const ours = new Set((await t.db.select({ id: vaults.id }).from(vaults)).map((v) => v.id));
  const rows = await t.db.select().from(transactions);
  return rows.flatMap((r) =>
    ((r.balanceChanges?.changes ?? []) as BalanceChange[]).flatMap((c) =>
      c.party?.type === 'VAULT' && c.party.id && ours.has(c.party.id) && c.asset && c.chain
        ? [
            {
              vaultId: c.party.id,
              asset: c.asset,
              chain: c.chain,
              amount: c.amount ?? '0',
              at: r.updatedAt,
              transactionId: r.id,
            },
          ]
        : [],
    ),
  );
}

/** Every line of a statement, 100 a page, and its totals, as the app's admin reads them. */
async function statementOf(t: TestApp, query: Record<string, string>) {
  const { lines, last } = await wholeStatement((url) => t.admin.json(url), query, 100);
  return { lines, totals: last.totals };
}

describe('the seeded sandbox’s ledger', () => {
  it('has the seed’s days in a vault’s history: each day closes at today’s balance less what moved after it', async ({
    t,
  }) => {
    const changes = await seededChanges(t);
    const perVault = new Map<string, number>();
    for (const c of changes) perVault.set(c.vaultId, (perVault.get(c.vaultId) ?? 0) + 1);
    const [vaultId] = [...perVault.entries()].sort((a, b) => b[1] - a[1])[0] ?? [''];
    const own = changes.filter((c) => c.vaultId === vaultId);
    const first = Math.min(...changes.map((c) => c.at.getTime()));
    expect(t.clock.now().getTime() - first).toBeGreaterThan(45 * DAY);

    const res = await t.admin.json(
      `${pathOf(ledgerHistory)}${toQueryString({ days: '90', vaultId })}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const history = LedgerHistoryResponse.parse(res.body);
    const balances = VaultBalances.parse((await t.admin.json(paths.vaultBalances(vaultId))).body);
    const start = Date.parse(`${history.from}T00:00:00Z`);
    let daysThatMoved = 0;
    for (const series of history.series) {
      const today = balances[series.asset]?.[series.chain] ?? '0';
      // Today's closing is the balance API's figure.
      expect(cmp(closingOn(series.units, history.days - 1), today), series.asset).toBe(0);
      for (let i = 0; i < history.days; i += 1) {
        const dayEnd = start + (i + 1) * DAY;
        if (dayEnd <= first) continue;
        const later = own.filter(
          (c) => c.asset === series.asset && c.chain === series.chain && c.at.getTime() >= dayEnd,
        );
        const expected = sub(today, sum(later.map((c) => c.amount)));
        const closing = closingOn(series.units, i);
        expect(cmp(closing, expected), `${series.asset} ${series.chain} day ${i}`).toBe(0);
        expect(isNegative(closing), `${series.asset} day ${i}`).toBe(false);
        if (i > 0 && cmp(closing, closingOn(series.units, i - 1)) !== 0) daysThatMoved += 1;
      }
    }
    expect(daysThatMoved).toBeGreaterThan(5);
    const flowDays = history.flows.outUsd.filter((v, i) => v !== null && i < history.days - 1);
    expect(flowDays.length).toBeGreaterThan(3);
  });

  it('reconciles a past month’s statement per asset, every seeded movement of the month a line of it', async ({
    t,
  }) => {
    const now = t.clock.now();
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const inMonth = (await seededChanges(t)).filter(
      (c) => c.at.getTime() >= from.getTime() && c.at.getTime() < to.getTime(),
    );
    const perVault = new Map<string, number>();
    for (const c of inMonth) perVault.set(c.vaultId, (perVault.get(c.vaultId) ?? 0) + 1);
    const [vaultId] = [...perVault.entries()].sort((a, b) => b[1] - a[1])[0] ?? [''];
    const own = inMonth.filter((c) => c.vaultId === vaultId);
    expect(own.length).toBeGreaterThan(3);

    const { lines, totals } = await statementOf(t, {
      vaultId,
      from: from.toISOString(),
      to: to.toISOString(),
    });
    expect(reconciles(totals, lines)).toBe(true);
    expect(new Set(lines.map((l) => l.transactionId))).toEqual(
      new Set(own.map((c) => c.transactionId)),
    );
    for (const total of totals) {
      const moved = own.filter((c) => c.asset === total.asset && c.chain === total.chain);
      // What the month moved, fees included, is what its seeded transactions changed.
      expect(
        cmp(sub(total.amounts, total.fees), sum(moved.map((c) => c.amount))),
        total.asset,
      ).toBe(0);
      expect(cmp(sub(add(total.opening, total.amounts), total.fees), total.closing)).toBe(0);
      expect(isNegative(total.opening), total.asset).toBe(false);
    }
    for (const l of lines) expect(isNegative(l.balanceAfter), l.transactionId ?? '').toBe(false);
  });

  it('closes today at the balance API’s figure for every seeded vault, asset and chain', async ({
    t,
  }) => {
    for (const { id } of await t.db.select({ id: vaults.id }).from(vaults)) {
      const res = await t.admin.json(
        `${pathOf(ledgerHistory)}${toQueryString({ days: '7', vaultId: id })}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const history = LedgerHistoryResponse.parse(res.body);
      const closing = new Map(
        history.series.map((s) => [`${s.asset} ${s.chain}`, closingOn(s.units, history.days - 1)]),
      );
      const balances = VaultBalances.parse((await t.admin.json(paths.vaultBalances(id))).body);
      for (const [asset, chains] of Object.entries(balances)) {
        for (const [chain, amount] of Object.entries(chains))
          expect(
            cmp(closing.get(`${asset} ${chain}`) ?? '0', amount),
            `${id} ${asset} ${chain}`,
          ).toBe(0);
      }
      for (const [key, units] of closing) {
        const [asset = '', chain = ''] = key.split(' ');
        expect(cmp(units, balances[asset]?.[chain] ?? '0'), `${id} ${key}`).toBe(0);
      }
    }
  });
});
