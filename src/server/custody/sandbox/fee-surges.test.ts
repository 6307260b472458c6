import { describe, expect, it } from 'vitest';
import { mul } from '#contract/decimal.ts';
import { estimateFees } from './fee-model.ts';
import { createFeeSurges } from './fee-surges.ts';

const AT = new Date('2030-01-01T12:00:10Z');
const until = new Date(AT.getTime() + 60_000);

describe('fee surges set by hand', () => {
  it('hold for their sub-organization and chain until their end, then are gone', () => {
    const surges = createFeeSurges();
    surges.set('org', { subOrgId: 'desk', chain: 'ETHEREUM', factor: '3', until });
    expect(surges.factorFor('org', 'desk', 'ETHEREUM', AT)).toBe('3');
    expect(surges.factorFor('org', 'desk', 'POLYGON', AT)).toBeUndefined();
    expect(surges.factorFor('org', 'other', 'ETHEREUM', AT)).toBeUndefined();
    expect(surges.factorFor('other-org', 'desk', 'ETHEREUM', AT)).toBeUndefined();
    // An organization-level item (no sub-organization) is never surged.
    expect(surges.factorFor('org', null, 'ETHEREUM', AT)).toBeUndefined();
    expect(surges.factorFor('org', 'desk', 'ETHEREUM', until)).toBeUndefined();
    // Gone once over, even asked about at an earlier time.
    expect(surges.factorFor('org', 'desk', 'ETHEREUM', AT)).toBeUndefined();
  });

  it('a factor of 1 ends one early', () => {
    const surges = createFeeSurges();
    surges.set('org', { subOrgId: 'desk', chain: 'ETHEREUM', factor: '3', until });
    surges.set('org', { subOrgId: 'desk', chain: 'ETHEREUM', factor: '1', until });
    expect(surges.factorFor('org', 'desk', 'ETHEREUM', AT)).toBeUndefined();
  });

  it('multiply the market’s price in the estimate, every tier alike', () => {
    const input = { blockChain: 'ETHEREUM', asset: 'ETH', amount: '1', now: AT };
    const market = estimateFees(input);
    const surged = estimateFees({ ...input, surge: '2' });
    expect(surged.high.baseFee).toBe(mul(market.high.baseFee ?? '', '2'));
    for (const tier of ['high', 'medium', 'low'] as const)
      expect(surged[tier].expectedFeeInAsset).not.toBe(market[tier].expectedFeeInAsset);
    expect(estimateFees({ ...input, surge: undefined })).toEqual(market);
  });
});
