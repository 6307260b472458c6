import { describe, expect, it } from 'vitest';
import {
  feesByMonth,
  filled,
  historyDays,
  holdingsByAsset,
  reconciled,
  totalsByDay,
} from './ledger-figures.ts';

describe('the ledger’s figures', () => {
  it('writes the compact history out day by day and stacks each asset’s chains together', () => {
    expect(filled([null, '1', null, '2.5', null])).toEqual(['0', '1', '1', '2.5', '2.5']);
    const history = {
      from: '2030-01-30',
      days: 3,
      series: [
        { asset: 'USDC', chain: 'ETHEREUM', units: ['1'], usd: ['1.10', null, '0.10'] },
        { asset: 'ETH', chain: 'ETHEREUM', units: ['1'], usd: ['3000', null, null] },
        { asset: 'USDC', chain: 'POLYGON', units: ['1'], usd: [null, '0.20', null] },
      ],
      flows: { inUsd: [], outUsd: [], feesUsd: [], rewardsUsd: [] },
    };
    expect(historyDays(history)).toEqual(['2030-01-30', '2030-01-31', '2030-02-01']);
    const holdings = holdingsByAsset(history);
    expect(holdings).toEqual([
      { asset: 'ETH', usd: ['3000', '3000', '3000'] },
      { asset: 'USDC', usd: ['1.1', '1.3', '0.3'] },
    ]);
    expect(totalsByDay(holdings, 3)).toEqual(['3001.1', '3001.3', '3000.3']);
  });

  it('sums fees per month to the cent, and checks a statement’s reconciliation to the last unit', () => {
    expect(
      feesByMonth(
        ['2030-01-30', '2030-01-31', '2030-02-01'],
        ['0.10', null, '0.000000000000000001'],
      ),
    ).toEqual([
      { month: '2030-01', usd: '0.1' },
      { month: '2030-02', usd: '0.000000000000000001' },
    ]);
    const t = { asset: 'ETH', chain: 'ETHEREUM', opening: '1', amounts: '0.5', fees: '0.1' };
    expect(reconciled({ ...t, closing: '1.4' })).toBe(true);
    expect(reconciled({ ...t, closing: '1.400000000000000001' })).toBe(false);
  });
});
