import { describe, expect, it } from 'vitest';
import type { JournalMapping } from '#contract/ledger-periods.ts';
import { categoryOf, journalCsv, journalLines, type JournalMovement } from './journal.ts';

const mapping: JournalMapping = {
  vaults: [{ vaultId: 'v1', asset: null, account: '1010' }],
  categories: {
    transfers: '1900',
    networkFees: '6100',
    tradeFees: '6110',
    stakingRewards: '4200',
    openingBalances: '3000',
  },
};

const movement = (over: Partial<JournalMovement>): JournalMovement => ({
  id: 7,
  at: new Date('2030-06-01T03:00:00Z'),
  valueAt: null,
  vaultId: 'v1',
  vaultName: 'Main',
  asset: 'USDC',
  chain: 'ETHEREUM',
  kind: 'AMOUNT',
  amount: '10',
  reference: null,
  memo: null,
  transactionId: null,
  category: null,
  ...over,
});

describe('the journal’s entries', () => {
  it('books each movement against its category: fees of a ramp or swap apart from network fees, rewards, opening balances', () => {
    expect(categoryOf({ kind: 'FEE', category: 'TRANSFER' })).toBe('networkFees');
    expect(categoryOf({ kind: 'FEE', category: 'SWAP' })).toBe('tradeFees');
    expect(categoryOf({ kind: 'FEE', category: 'OFF_RAMP' })).toBe('tradeFees');
    expect(categoryOf({ kind: 'REWARD', category: 'STAKE' })).toBe('stakingRewards');
    expect(categoryOf({ kind: 'ADJUSTMENT', category: null })).toBe('openingBalances');
    expect(categoryOf({ kind: 'AMOUNT', category: 'SWAP' })).toBe('transfers');
  });

  it('dates a line in the period’s zone, says a late arrival is one, and writes a CSV no spreadsheet runs as a formula', () => {
    const [debit, credit] = journalLines(
      [
        movement({
          kind: 'REWARD',
          memo: '=HYPERLINK("x")',
          reference: '-1+1',
          valueAt: new Date('2030-05-20T00:00:00Z'),
        }),
      ],
      mapping,
      'America/New_York',
    );
    expect(debit).toMatchObject({ date: '2030-05-31', account: '1010', debit: '10', credit: '' });
    expect(credit).toMatchObject({ account: '4200', debit: '', credit: '10' });
    expect(debit?.memo).toContain('late: happened 2030-05-20T00:00:00.000Z');
    const csv = journalCsv([{ ...(debit ?? credit!), memo: '=HYPERLINK("x")', reference: '-1+1' }]);
    expect(csv.split('\r\n')[0]).toBe(
      'date,account,debit,credit,currency,memo,reference,transaction_id,entry',
    );
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv).toContain(`'-1+1`);
  });
});
