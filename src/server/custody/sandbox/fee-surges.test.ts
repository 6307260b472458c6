import { describe, expect, it } from 'vitest';
import { mul } from '#contract/decimal.ts';
import { estimateFees, isCongested, nextCongestedAt } from './fee-model.ts';
import { createFeeSurges } from './fee-surges.ts';

const AT = new Date('2030-01-01T12:00:10Z');
const until = new Date(AT.getTime() + 60_000);
const surge = { subOrgId: 'desk', chain: 'ETHEREUM', until, steady: false };

describe('fee surges set by hand', () => {
  it('hold for their sub-organization and chain until their end, then are gone', () => {
    const surges = createFeeSurges();
    surges.set('org', { ...surge, factor: '3' });
    expect(surges.surgeFor('org', 'desk', 'ETHEREUM', AT)).toEqual({ factor: '3', steady: false });
    expect(surges.surgeFor('org', 'desk', 'POLYGON', AT)).toBeUndefined();
    expect(surges.surgeFor('org', 'other', 'ETHEREUM', AT)).toBeUndefined();
    expect(surges.surgeFor('other-org', 'desk', 'ETHEREUM', AT)).toBeUndefined();
    // An organization-level item (no sub-organization) is never surged.
    expect(surges.surgeFor('org', null, 'ETHEREUM', AT)).toBeUndefined();
    expect(surges.surgeFor('org', 'desk', 'ETHEREUM', until)).toBeUndefined();
    // Gone once over, even asked about at an earlier time.
    expect(surges.surgeFor('org', 'desk', 'ETHEREUM', AT)).toBeUndefined();
  });

  it('a factor of 1 ends one early, unless it holds the calm market', () => {
    const surges = createFeeSurges();
    surges.set('org', { ...surge, factor: '3' });
    surges.set('org', { ...surge, factor: '1' });
    expect(surges.surgeFor('org', 'desk', 'ETHEREUM', AT)).toBeUndefined();
    surges.set('org', { ...surge, factor: '1', steady: true });
    expect(surges.surgeFor('org', 'desk', 'ETHEREUM', AT)).toEqual({ factor: '1', steady: true });
  });

  it('multiply the market’s price in the estimate, every tier alike', () => {
    const input = { blockChain: 'ETHEREUM', asset: 'ETH', amount: '1', now: AT };
    const market = estimateFees(input);
    const surged = estimateFees({ ...input, surge: { factor: '2', steady: false } });
    expect(surged.high.baseFee).toBe(mul(market.high.baseFee ?? '', '2'));
    for (const tier of ['high', 'medium', 'low'] as const)
      expect(surged[tier].expectedFeeInAsset).not.toBe(market[tier].expectedFeeInAsset);
    expect(estimateFees({ ...input, surge: undefined })).toEqual(market);
  });

  it('held steady, the estimate stands still through jitter and congestion, and a factor multiplies it', () => {
    const calm = { factor: '1', steady: true };
    const input = { blockChain: 'ETHEREUM', asset: 'USDC', amount: '1' };
    // Just before the hour's congestion and inside it: the market itself triples.
    const congested = nextCongestedAt('ETHEREUM', AT) ?? AT;
    const before = new Date(congested.getTime() - 60_000);
    expect(isCongested('ETHEREUM', before)).toBe(false);
    expect(isCongested('ETHEREUM', congested)).toBe(true);
    expect(estimateFees({ ...input, now: congested }).high.baseFee).not.toBe(
      estimateFees({ ...input, now: before }).high.baseFee,
    );

    const held = estimateFees({ ...input, now: before, surge: calm });
    for (const now of [congested, new Date(before.getTime() + 30_000), AT])
      expect(estimateFees({ ...input, now, surge: calm })).toEqual(held);
    const fivefold = estimateFees({
      ...input,
      now: congested,
      surge: { factor: '5', steady: true },
    });
    expect(fivefold.high.baseFee).toBe(mul(held.high.baseFee ?? '', '5'));
  });
});
