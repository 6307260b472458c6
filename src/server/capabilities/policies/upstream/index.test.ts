import { describe, expect, it } from 'vitest';
import { ApiError } from '#contract/api-error.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { DetailedBalance } from '#contract/vault.ts';
import { TestClock } from '../../../test/test-clock.ts';
import { PRICE_TTL_MS, policiesUpstream, priceOfLine } from './index.ts';

/**
 * The upstream price source's own rules, over a custody API that answers
 * from a table: which line gives a price, how long a price is kept, and the
 * outflow's fail-closed cases. The console → console story is in
 * guard.upstream-prices.test.ts.
 */

const ctx = { requestId: 'test' };

function custodyApi(lines: DetailedBalance[], pages: Transaction[][] = []) {
  const clock = new TestClock();
  const reads: string[] = [];
  const port = policiesUpstream({
    clock,
    call: (async (_ctx: unknown, _schema: unknown, request: { path: string }) => {
      reads.push(request.path);
      return lines;
    }) as never,
    listTransactions: async (_ctx, query) => {
      const page = Number(query.cursor ?? '0');
      const results = pages[page] ?? [];
      const hasNext = page + 1 < pages.length;
      return { results, hasNext, nextCursor: hasNext ? String(page + 1) : null };
    },
  });
  return { clock, reads, port };
}

describe('upstream prices', () => {
  it('reads a price from the line, or its balanceInUSD over its balance, never a zero', () => {
    expect(priceOfLine({ symbol: 'ETH', balance: '2', price: '3000' })).toBe('3000');
    expect(priceOfLine({ symbol: 'ETH', balance: '2', balanceInUSD: '6000' })).toBe('3000');
    expect(priceOfLine({ symbol: 'X', balance: '2', price: '0', balanceInUSD: '0' })).toBeNull();
    expect(priceOfLine({ symbol: 'X', balance: '0', balanceInUSD: '10' })).toBeNull();
    expect(priceOfLine({ symbol: 'X', balance: '2', price: 'n/a' })).toBeNull();
  });

  it('keeps each price for 60 s, then reads the vault again', async () => {
    const { clock, reads, port } = custodyApi([
      { symbol: 'ETH', chain: 'ETHEREUM', balance: '10', price: '3000' },
      { symbol: 'POL', chain: 'POLYGON', balance: '5' },
    ]);
    expect(await port.usdValue?.(ctx, 'ETH', 'ETHEREUM', '0.5', 'v1')).toBe('1500.000000');
    // POL came with the same read, unpriced: null (fail closed) without another call.
    expect(await port.usdValue?.(ctx, 'POL', 'POLYGON', '1', 'v1')).toBeNull();
    expect(reads).toEqual(['/api/external/vaults/v1/detailed_balances/']);
    clock.advance(PRICE_TTL_MS - 1);
    await port.usdValue?.(ctx, 'ETH', 'ETHEREUM', '1', 'v1');
    expect(reads).toHaveLength(1);
    clock.advance(1);
    await port.usdValue?.(ctx, 'ETH', 'ETHEREUM', '1', 'v1');
    expect(reads).toHaveLength(2);
  });

  it('has no price without a paying vault, nor for an asset the vault does not hold', async () => {
    const { port } = custodyApi([
      { symbol: 'ETH', chain: 'ETHEREUM', balance: '1', price: '3000' },
    ]);
    expect(await port.usdValue?.(ctx, 'BTC', 'BITCOIN', '1')).toBeNull();
    expect(await port.usdValue?.(ctx, 'BTC', 'BITCOIN', '1', 'v1')).toBeNull();
  });

  it('sums the vault’s day from the transactions, and fails closed on one it cannot value', async () => {
    const since = new Date('2030-01-01T00:00:00.000Z');
    const at = (iso: string, more: Partial<Transaction>): Transaction => ({
      vaultId: 'v1',
      transactionType: 'OUTGOING',
      status: 'COMPLETED',
      createdAt: iso,
      ...more,
    });
    const day = [
      [
        at('2030-01-01T10:00:00.000Z', { amountInUSD: '100.5' }),
        at('2030-01-01T09:00:00.000Z', { amountInUSD: '900', status: 'DECLINED' }),
        at('2030-01-01T08:00:00.000Z', { amountInUSD: '50', vaultId: 'other' }),
        at('2030-01-01T07:00:00.000Z', { amountInUSD: '70', transactionType: 'INCOMING' }),
      ],
      [
        at('2030-01-01T06:00:00.000Z', { asset: 'ETH', blockChain: 'ETHEREUM', amount: '0.1' }),
        at('2029-12-31T23:00:00.000Z', { amountInUSD: '1000000' }),
      ],
    ];
    const lines = [{ symbol: 'ETH', chain: 'ETHEREUM', balance: '1', price: '3000' }];
    expect(await custodyApi(lines, day).port.vaultOutflowUsd?.(ctx, 'v1', since)).toBe('400.5');
    const unpriced = [[at('2030-01-01T06:00:00.000Z', { asset: 'POL', amount: '1' })]];
    expect(await custodyApi(lines, unpriced).port.vaultOutflowUsd?.(ctx, 'v1', since)).toBeNull();
    // More than ten pages in a day: not told, so the cap applies.
    const busy = Array.from({ length: 11 }, () => [
      at('2030-01-01T06:00:00.000Z', { amountInUSD: '1' }),
    ]);
    expect(await custodyApi(lines, busy).port.vaultOutflowUsd?.(ctx, 'v1', since)).toBeNull();
  });

  it('leaves a vault the custody API does not know to the create to refuse: no price, no error', async () => {
    const port = policiesUpstream({
      clock: new TestClock(),
      call: (async () => {
        throw new ApiError(404, 'NOT_FOUND', 'No vault with id "v9"');
      }) as never,
      listTransactions: async () => ({ results: [], hasNext: false, nextCursor: null }),
    });
    expect(await port.usdValue?.(ctx, 'ETH', 'ETHEREUM', '1', 'v9')).toBeNull();
  });
});
