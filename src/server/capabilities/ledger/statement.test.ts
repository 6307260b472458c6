import { describe, expect, it } from 'vitest';
import {
  readStatementCursor,
  reconciles,
  statementCursor,
  statementLine,
  statementPlan,
  statementTotals,
  type MovementRow,
} from './statement.ts';

const at = (iso: string) => new Date(iso);

describe('a statement’s plan: whole UTC days from the summary, the parts of a day at either end from the movements', () => {
  it('a month in UTC is whole days only, its opening the closing of the day before', () => {
    expect(statementPlan(at('2030-03-01T00:00:00Z'), at('2030-04-01T00:00:00Z'))).toEqual({
      openingDay: '2030-03-01',
      openingPart: null,
      days: { from: '2030-03-01', to: '2030-04-01' },
      parts: [],
    });
  });

  it('a month in New York (UTC−5) starts and ends five hours into a UTC day', () => {
    const from = at('2030-03-01T05:00:00Z');
    const to = at('2030-04-01T04:00:00Z');
    expect(statementPlan(from, to)).toEqual({
      openingDay: '2030-03-01',
      openingPart: { from: at('2030-03-01T00:00:00Z'), to: from },
      days: { from: '2030-03-02', to: '2030-04-01' },
      parts: [
        { from, to: at('2030-03-02T00:00:00Z') },
        { from: at('2030-04-01T00:00:00Z'), to },
      ],
    });
  });

  it('a period inside one UTC day, or across one midnight, reads only movements', () => {
    const from = at('2030-03-01T05:00:00Z');
    expect(statementPlan(from, at('2030-03-01T09:00:00Z')).days).toBeNull();
    expect(statementPlan(from, at('2030-03-02T09:00:00Z'))).toMatchObject({
      days: null,
      parts: [{ from, to: at('2030-03-02T09:00:00Z') }],
    });
  });
});

const movement = (over: Partial<MovementRow>): MovementRow => ({
  id: 1,
  at: at('2030-03-01T10:00:00Z'),
  vaultId: 'v-1',
  asset: 'ETH',
  chain: 'ETHEREUM',
  kind: 'AMOUNT',
  amount: '1.5',
  balanceAfter: '1.5',
  usdPrice: '2000',
  counterparty: null,
  reference: null,
  memo: null,
  transactionId: null,
  valueAt: null,
  ...over,
});

describe('a statement’s lines, totals and cursor', () => {
  it('a fee is its own column, positive, and counts against the line’s USD value; the other side is named in words', () => {
    expect(
      statementLine(
        movement({
          kind: 'FEE',
          amount: '-0.001',
          counterparty: { type: 'EXTERNAL_ADDRESS', address: '0xabc' },
        }),
      ),
    ).toMatchObject({ amount: '0', fee: '0.001', usdValue: '-2.00', counterparty: '0xabc' });
    expect(
      statementLine(
        movement({ amount: '1.005', usdPrice: '3', counterparty: { type: 'VAULT', id: 'v-2' } }),
      ),
    ).toMatchObject({ amount: '1.005', fee: '0', usdValue: '3.02', counterparty: 'VAULT v-2' });
  });

  it('totals per asset and chain, in order, each closing at opening + amounts − fees in decimals', () => {
    const totals = statementTotals([
      { asset: 'USDC', chain: 'TRON', opening: '10', amounts: '0.1', fees: '0.2' },
      { asset: 'USDC', chain: 'ETHEREUM', opening: '0.1', amounts: '0.2', fees: '0' },
      {
        asset: 'ETH',
        chain: 'ETHEREUM',
        opening: '1',
        amounts: '-0.3',
        fees: '0.000000000000000001',
      },
    ]);
    expect(totals.map((t) => [t.asset, t.chain, t.closing])).toEqual([
      ['ETH', 'ETHEREUM', '0.699999999999999999'],
      ['USDC', 'ETHEREUM', '0.3'],
      ['USDC', 'TRON', '9.9'],
    ]);
  });

  it('reconciles only when the lines add up to the totals to the last unit', () => {
    const lines = [
      statementLine(movement({ id: 1, amount: '2' })),
      statementLine(movement({ id: 2, kind: 'FEE', amount: '-0.01' })),
    ];
    const [totals] = statementTotals([
      { asset: 'ETH', chain: 'ETHEREUM', opening: '1', amounts: '2', fees: '0.01' },
    ]);
    if (!totals) throw new Error('no totals');
    expect(reconciles([totals], lines)).toBe(true);
    expect(reconciles([{ ...totals, amounts: '2.000000000000000001' }], lines)).toBe(false);
    expect(reconciles([{ ...totals, closing: '2.98' }], lines)).toBe(false);
    expect(reconciles([totals], lines.slice(0, 1))).toBe(false);
  });

  it('a cursor reads back as the line it was made from; one it did not give is refused naming the field', () => {
    const line = { at: at('2030-03-01T10:00:00.123Z'), id: 42 };
    expect(readStatementCursor(statementCursor(line))).toEqual(line);
    for (const bad of ['', 'abc', '1.2.3', '-1.2'])
      expect(() => readStatementCursor(bad)).toThrow(
        expect.objectContaining({
          status: 400,
          fields: [expect.objectContaining({ field: 'cursor' })],
        }),
      );
  });
});
