import { describe, expect, it } from 'vitest';
import {
  bestTradesFirst,
  swapDefaults,
  swapProblems,
  swapSourceOptions,
  swapTargetOptions,
  tradeQuery,
  type TradeQuote,
} from './swap.ts';

const values = (over: Partial<ReturnType<typeof swapDefaults>> = {}) => ({
  ...swapDefaults(),
  vaultId: 'v1',
  from: 'USDC|ETHEREUM',
  toAsset: 'ETH',
  amount: '125.5',
  ...over,
});

describe('a swap on the Convert page', () => {
  it('offers only what the vault holds, and other assets of the same chain to become', () => {
    const sources = swapSourceOptions({
      USDC: { ETHEREUM: '1000', POLYGON: '0' },
      ETH: { ETHEREUM: '2.5' },
    });
    expect(sources.map((s) => s.value)).toEqual(['ETH|ETHEREUM', 'USDC|ETHEREUM']);
    const targets = swapTargetOptions(
      [
        { symbol: 'USDC', blockChain: 'ETHEREUM' },
        { symbol: 'ETH', blockChain: 'ETHEREUM', name: 'Ether' },
        { symbol: 'SOL', blockChain: 'SOLANA' },
      ],
      'USDC|ETHEREUM',
    );
    expect(targets).toEqual([{ value: 'ETH', label: 'ETH (Ether)' }]);
  });

  it('names each field wrong: amounts and slippage read as decimals, never as numbers', () => {
    expect(swapProblems(values(), '1000')).toEqual({});
    expect(swapProblems(values({ amount: '1e3' }), '1000').amount).toMatch(/digits/);
    expect(swapProblems(values({ amount: '0' }), '1000').amount).toMatch(/positive/);
    // 1000.000000000000000001 is more than 1000: a float would call them equal.
    expect(swapProblems(values({ amount: '1000.000000000000000001' }), '1000').amount).toMatch(
      /holds 1000/,
    );
    expect(swapProblems(values({ slippage: '51' }), '1000').slippage).toMatch(/0 to 50/);
    expect(
      Object.keys(swapProblems(values({ vaultId: '', from: '', toAsset: '' }), undefined)),
    ).toEqual(['vaultId', 'from', 'toAsset']);
  });

  it('asks for quotes as the SDKs do, and puts the most arriving first', () => {
    expect(tradeQuery(values({ slippage: '1' }))).toEqual({
      vaultId: 'v1',
      fromAsset: 'USDC',
      toAsset: 'ETH',
      fromAmount: '125.5',
      blockChain: 'ETHEREUM',
      toBlockchain: 'ETHEREUM',
      slippage: '1',
    });
    const q = (quoteId: string, finalToAmount: string) =>
      ({ quoteId, finalToAmount }) as TradeQuote;
    expect(
      bestTradesFirst([q('a', '0.0399'), q('b', '0.04'), q('c', '0.039999')]).map((x) => x.quoteId),
    ).toEqual(['b', 'c', 'a']);
  });
});
