import { describe, expect, it } from 'vitest';
import type { BalanceRow } from './reference-data.ts';
import { planSeedLedger } from './ledger-past.ts';
import type { FeeCharge } from './movements.ts';
import type { TransactionSeedRow } from './transaction-data.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const vault = (id: string) => ({ type: 'VAULT', id });
const outside = { type: 'EXTERNAL_ADDRESS', address: '0xabc', chain: 'ETHEREUM' };

/** A finished seeded transaction moving `amount` USDC (negative: out of `vaultId`), the fee in ETH. */
function finished(
  id: string,
  vaultId: string,
  amount: string,
  daysAgo: number,
): TransactionSeedRow {
  const out = amount.startsWith('-');
  const at = new Date(NOW.getTime() - daysAgo * 86_400_000);
  return {
    id,
    orgId: 'org',
    status: 'COMPLETED',
    category: 'TOKEN_TRANSFER',
    transactionType: out ? 'OUTGOING' : 'INCOMING',
    blockChain: 'ETHEREUM',
    source: out ? vault(vaultId) : outside,
    destination: out ? outside : vault(vaultId),
    balanceChanges: {
      changes: [
        { party: vault(vaultId), asset: 'USDC', chain: 'ETHEREUM', amount },
        ...(out
          ? [{ party: vault(vaultId), asset: 'ETH', chain: 'ETHEREUM', amount: '-0.01' }]
          : []),
      ],
    },
    createdAt: at,
    updatedAt: at,
  };
}

const fees = (rows: TransactionSeedRow[]) =>
  new Map<string, FeeCharge>(
    rows.map((r) => [
      r.id,
      {
        payer: r.transactionType === 'OUTGOING' ? (r.source as FeeCharge['payer']) : outside,
        asset: 'ETH',
        chain: 'ETHEREUM',
        amount: '0.01',
      },
    ]),
  );

/** Each row's balance after every planned step, opening first. */
function walk(past: ReturnType<typeof planSeedLedger>) {
  const seen = new Map<string, string[]>();
  for (const o of past.openings) seen.set(`${o.vaultId} ${o.asset}`, [o.amount]);
  for (const s of past.steps)
    for (const [key, after] of s.finalAmount) {
      const [vaultId = '', asset = ''] = key.split('\u0000');
      seen.set(`${vaultId} ${asset}`, [...(seen.get(`${vaultId} ${asset}`) ?? []), after]);
    }
  return seen;
}

describe('planSeedLedger', () => {
  it('works each opening back from today’s balance, raises one its history would overdraw, and opens a row the seed holds none of', () => {
    const rows = [
      finished('t1', 'a', '-40', 30),
      finished('t2', 'a', '100', 20),
      finished('t3', 'b', '70', 10),
      finished('t4', 'c', '-25', 5),
    ];
    const balances: BalanceRow[] = [
      { vaultId: 'a', asset: 'USDC', chain: 'ETHEREUM', amount: '50', updatedAt: NOW },
      { vaultId: 'a', asset: 'ETH', chain: 'ETHEREUM', amount: '1', updatedAt: NOW },
      { vaultId: 'c', asset: 'ETH', chain: 'ETHEREUM', amount: '1', updatedAt: NOW },
    ];
    const past = planSeedLedger(balances, rows, fees(rows), new Set(['a', 'b', 'c']), NOW);

    // a: 50 today less +60 is −10, and it sent 40 first: raised by 50 to open at 40.
    expect(balances.find((b) => b.vaultId === 'a' && b.asset === 'USDC')?.amount).toBe('100');
    // b held no USDC row: it received 70, so it holds 70 and opened at nothing.
    expect(balances.find((b) => b.vaultId === 'b')?.amount).toBe('70');
    // c holds no USDC row and sent 25: it opened at 25 and holds nothing, as the seed says.
    expect(balances.some((b) => b.vaultId === 'c' && b.asset === 'USDC')).toBe(false);
    expect(walk(past)).toEqual(
      new Map([
        ['a USDC', ['40', '0', '100']],
        ['a ETH', ['1.01', '1']],
        ['b USDC', ['0', '70']],
        ['c ETH', ['1.01', '1']],
        ['c USDC', ['25', '0']],
      ]),
    );
    const first = Math.min(...rows.map((r) => r.updatedAt.getTime()));
    for (const o of past.openings) expect(o.at.getTime()).toBe(first - 1);
    // The fee is a movement of its own, as the simulator books it.
    expect(past.steps[0]?.movements.map((m) => [m.asset, m.kind, m.amount])).toEqual([
      ['USDC', 'AMOUNT', '-40'],
      ['ETH', 'FEE', '-0.01'],
    ]);
  });
});
