import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAINS, chainInfo } from '#contract/chains.ts';
import { add, cmp, isDecimalString, mul, round, scale, sub } from '#contract/decimal.ts';
import { FEE_TIERS } from '#contract/enums.ts';
import { EstimatedFeeResponse } from '#contract/transaction.ts';
import {
  CHAIN_FEE_PROFILES,
  ESTIMATE_WINDOW_MS,
  SANDBOX_NATIVE_ASSETS,
  confirmationDelaysMs,
  estimateFees,
  feeForTier,
  isCongested,
  minimumReplacementFee,
  nextCongestedAt,
  replacementFeeFor,
  slowAfterMs,
  usualTimeLeftMs,
} from './fee-model.ts';

const chains = CHAINS.map((c) => c.value);
const replaceable = CHAINS.filter((c) => c.supportsReplacement).map((c) => c.value);
// 1970 to 2100, in milliseconds.
const anyTime = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms));
const native = (blockChain: string) => chainInfo(blockChain)?.nativeAsset ?? '';
const anyAsset = (blockChain: string) => fc.constantFrom(native(blockChain), 'USDC');
/** A fee as a transaction records it: an amount in an asset. */
const inAsset = (amount: string, asset: string) => ({ amount, asset });
const estimate = (blockChain: string, now: Date, asset = native(blockChain)) =>
  estimateFees({ blockChain, asset, amount: '1', now });

/** A calm moment on a chain, found by stepping from a fixed date. */
function calmTime(blockChain: string): Date {
  let t = Date.parse('2026-01-01T00:00:00Z');
  while (isCongested(blockChain, new Date(t))) t += 60_000;
  return new Date(t);
}

/**
 * The limit of a block of property runs (hundreds of runs each): a loaded
 * two-core machine takes past the unit tests' default for them. A limit, not a target.
 */
const PROPERTIES = { timeout: 60_000 };

/** (baseFee + priorityFee) gwei × gas limit, in the native asset. */
const eip1559Fee = (baseFee: string, priorityFee: string, gasLimit: string) =>
  mul(mul(add(baseFee, priorityFee), gasLimit), '0.000000001');

describe('the chain table', () => {
  it('covers every chain of the contract with its native asset priced', () => {
    for (const chain of CHAINS) {
      const profile = CHAIN_FEE_PROFILES[chain.value];
      expect(profile, chain.value).toBeDefined();
      expect(SANDBOX_NATIVE_ASSETS[chain.nativeAsset], chain.nativeAsset).toBeDefined();
      expect(profile?.tierPrice.LOW).toBeLessThan(profile?.tierPrice.MEDIUM ?? 0n);
      expect(profile?.tierPrice.MEDIUM).toBeLessThan(profile?.tierPrice.HIGH ?? 0n);
      // What makes (baseFee + priorityFee) × gas limit come out exact.
      if (chain.eip1559) expect([profile?.priceExtraDecimals, profile?.fixedFee]).toEqual([0, 0n]);
    }
    expect(
      Object.fromEntries(chains.map((c) => [c, CHAIN_FEE_PROFILES[c]?.blockTimeSeconds])),
    ).toEqual({
      ETHEREUM: 12,
      POLYGON: 2,
      BASE: 2,
      BITCOIN: 600,
      SOLANA: 0.4,
      TRON: 3,
      ICP: 2,
    });
  });

  it('refuses a chain it does not know', () => {
    expect(() => estimate('DOGECOIN', new Date())).toThrow(RangeError);
    expect(() => confirmationDelaysMs('DOGECOIN', 'HIGH', 1, new Date())).toThrow(/DOGECOIN/);
  });
});

describe('estimateFees', PROPERTIES, () => {
  it('orders high > medium > low strictly, in the asset and in USD, on every chain at any time', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...chains).chain((c) => fc.tuple(fc.constant(c), anyAsset(c))),
        anyTime,
        ([blockChain, asset], now) => {
          const fees = estimateFees({ blockChain, asset, amount: '12.5', now });
          expect(EstimatedFeeResponse.parse(fees)).toEqual(fees);
          expect(cmp(fees.high.expectedFeeInAsset, fees.medium.expectedFeeInAsset)).toBe(1);
          expect(cmp(fees.medium.expectedFeeInAsset, fees.low.expectedFeeInAsset)).toBe(1);
          expect(cmp(fees.high.expectedFeeInUSD, fees.medium.expectedFeeInUSD)).toBe(1);
          expect(cmp(fees.medium.expectedFeeInUSD, fees.low.expectedFeeInUSD)).toBe(1);
          const decimals = SANDBOX_NATIVE_ASSETS[native(blockChain)]?.decimals ?? 0;
          for (const fee of [fees.high, fees.medium, fees.low]) {
            expect(fee.asset).toBe(native(blockChain));
            expect(
              isDecimalString(fee.expectedFeeInAsset) && cmp(fee.expectedFeeInAsset, '0'),
            ).toBe(1);
            expect(scale(fee.expectedFeeInAsset)).toBeLessThanOrEqual(decimals);
            expect(isDecimalString(fee.expectedFeeInUSD)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives (baseFee + priorityFee) × gas limit = the fee on EIP-1559 chains, and no base fee elsewhere', () => {
    fc.assert(
      fc.property(fc.constantFrom(...chains), fc.boolean(), anyTime, (blockChain, token, now) => {
        const fees = estimate(blockChain, now, token ? 'USDC' : native(blockChain));
        for (const fee of [fees.high, fees.medium, fees.low]) {
          if (!chainInfo(blockChain)?.eip1559) {
            expect(fee).not.toHaveProperty('baseFee');
            expect(fee).not.toHaveProperty('priorityFee');
            continue;
          }
          expect(fee.baseFee).toBe(fees.low.baseFee);
          const gas = token ? '65000' : '21000';
          expect(
            cmp(eip1559Fee(fee.baseFee ?? '', fee.priorityFee ?? '', gas), fee.expectedFeeInAsset),
          ).toBe(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is stable within a 30 s window', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...chains),
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.nat(ESTIMATE_WINDOW_MS - 1),
        fc.nat(ESTIMATE_WINDOW_MS - 1),
        (blockChain, window, a, b) => {
          const start = window * ESTIMATE_WINDOW_MS;
          expect(estimate(blockChain, new Date(start + a))).toEqual(
            estimate(blockChain, new Date(start + b)),
          );
        },
      ),
    );
  });

  it('varies slightly from one calm window to the next', () => {
    const start = calmTime('ETHEREUM').getTime();
    const baseFees = Array.from(
      { length: 20 },
      (_, i) => estimate('ETHEREUM', new Date(start + i * ESTIMATE_WINDOW_MS)).medium.baseFee ?? '',
    );
    expect(new Set(baseFees).size).toBeGreaterThan(10);
    for (const baseFee of baseFees) {
      // 15 gwei ± 8 %.
      expect(cmp(baseFee, '13.8')).toBeGreaterThanOrEqual(0);
      expect(cmp(baseFee, '16.2')).toBeLessThanOrEqual(0);
    }
  });

  it('costs more for a token than for the native asset, and more while congested', () => {
    const calm = calmTime('ETHEREUM');
    expect(
      cmp(
        estimate('ETHEREUM', calm, 'USDC').medium.expectedFeeInAsset,
        estimate('ETHEREUM', calm).medium.expectedFeeInAsset,
      ),
    ).toBe(1);
    const congested = nextCongestedAt('ETHEREUM', calm) ?? calm;
    expect(
      cmp(
        estimate('ETHEREUM', congested).low.expectedFeeInAsset,
        estimate('ETHEREUM', calm).high.expectedFeeInAsset,
      ),
    ).toBe(1);
  });

  it('picks a tier with feeForTier', () => {
    const fees = estimate('BITCOIN', new Date());
    expect(FEE_TIERS.map((tier) => feeForTier(fees, tier))).toEqual([
      fees.high,
      fees.medium,
      fees.low,
    ]);
  });
});

describe('congestion', PROPERTIES, () => {
  it('recurs on a schedule nextCongestedAt finds', () => {
    fc.assert(
      fc.property(fc.constantFrom(...chains), anyTime, (blockChain, from) => {
        const at = nextCongestedAt(blockChain, from);
        if (CHAIN_FEE_PROFILES[blockChain]?.congestion.congestedMinutes === 0) {
          expect(at).toBeUndefined();
          return;
        }
        expect(at && isCongested(blockChain, at)).toBe(true);
        expect(at && at.getTime() >= from.getTime()).toBe(true);
        if (at && at.getTime() > from.getTime())
          expect(isCongested(blockChain, new Date(at.getTime() - 1))).toBe(false);
      }),
    );
  });
});

describe('confirmationDelaysMs', PROPERTIES, () => {
  it('follows block time and confirmations, scaled by SANDBOX_TIME_SCALE', () => {
    const calm = calmTime('ETHEREUM');
    expect(confirmationDelaysMs('ETHEREUM', 'HIGH', 1, calm)).toEqual({
      APPROVED: 2000,
      SIGNED: 1000,
      SUBMITTED: 12_000,
      WAITING_CONFIRMATION: 144_000,
    });
    expect(confirmationDelaysMs('ETHEREUM', 'HIGH', 60, calm)).toEqual({
      APPROVED: 34,
      SIGNED: 17,
      SUBMITTED: 200,
      WAITING_CONFIRMATION: 2400,
    });
    expect(confirmationDelaysMs('BITCOIN', 'MEDIUM', 60, calmTime('BITCOIN')).SUBMITTED).toBe(
      20_000,
    );
    expect(() => confirmationDelaysMs('ETHEREUM', 'HIGH', 0, calm)).toThrow(/timeScale/);
  });

  it('keeps a LOW fee SUBMITTED for 20 blocks or more while the chain is congested', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...chains),
        anyTime,
        fc.constantFrom(1, 10, 60),
        (blockChain, from, timeScale) => {
          const blockMs =
            ((CHAIN_FEE_PROFILES[blockChain]?.blockTimeSeconds ?? 0) * 1000) / timeScale;
          const congested = nextCongestedAt(blockChain, from);
          const calm = confirmationDelaysMs(blockChain, 'LOW', timeScale, calmTime(blockChain));
          expect(calm.SUBMITTED).toBeLessThan(20 * blockMs);
          if (!congested) return;
          const low = confirmationDelaysMs(blockChain, 'LOW', timeScale, congested);
          const high = confirmationDelaysMs(blockChain, 'HIGH', timeScale, congested);
          expect(low.SUBMITTED).toBeGreaterThanOrEqual(20 * blockMs);
          expect(low.SUBMITTED).toBeGreaterThan(high.SUBMITTED);
        },
      ),
    );
    // At sixty times faster, still a minute or more on the replaceable chains.
    for (const blockChain of replaceable) {
      const congested = nextCongestedAt(blockChain, new Date()) ?? new Date();
      expect(
        confirmationDelaysMs(blockChain, 'LOW', 60, congested).SUBMITTED,
      ).toBeGreaterThanOrEqual(60_000);
    }
  });
});

describe('replacement fees', PROPERTIES, () => {
  it('asks for at least 10 % more than the original', () => {
    expect(minimumReplacementFee('0.001')).toBe('0.0011');
    expect(minimumReplacementFee('0.00000001')).toBe('0.000000011');
  });

  it('pays the high tier or 1.1 × the original, whichever is more, with EIP-1559 arithmetic kept', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...replaceable).chain((c) => fc.tuple(fc.constant(c), anyAsset(c))),
        anyTime,
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        ([blockChain, asset], now, originalUnits) => {
          const decimals = SANDBOX_NATIVE_ASSETS[native(blockChain)]?.decimals ?? 0;
          const original = mul(originalUnits.toString(), `1e-${decimals}`);
          const fees = estimateFees({ blockChain, asset, amount: '1', now });
          const replacement = replacementFeeFor(inAsset(original, native(blockChain)), fees);
          expect(
            cmp(replacement.expectedFeeInAsset, minimumReplacementFee(original)),
          ).toBeGreaterThanOrEqual(0);
          expect(
            cmp(replacement.expectedFeeInAsset, fees.high.expectedFeeInAsset),
          ).toBeGreaterThanOrEqual(0);
          expect(scale(replacement.expectedFeeInAsset)).toBeLessThanOrEqual(decimals);
          expect(replacement.asset).toBe(fees.high.asset);
          if (replacement.baseFee !== undefined) {
            const gas = asset === native(blockChain) ? '21000' : '65000';
            expect(replacement.baseFee).toBe(fees.high.baseFee);
            expect(
              cmp(
                eip1559Fee(replacement.baseFee, replacement.priorityFee ?? '', gas),
                replacement.expectedFeeInAsset,
              ),
            ).toBe(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rounds the bump up to the smallest unit, no further than the next whole wei per gas', () => {
    const btc = replacementFeeFor(inAsset('0.12345679', 'BTC'), estimate('BITCOIN', new Date()));
    expect(btc).toMatchObject({
      expectedFeeInAsset: '0.13580247',
      asset: 'BTC',
      expectedFeeInUSD: '8148.1482',
    });
    const eth = replacementFeeFor(inAsset('0.1', 'ETH'), estimate('ETHEREUM', new Date()));
    expect(cmp(eth.expectedFeeInAsset, '0.11')).toBeGreaterThanOrEqual(0);
    expect(cmp(sub(eth.expectedFeeInAsset, '0.11'), '0.000000000000021')).toBe(-1);
  });

  it('keeps the high tier when it already pays enough', () => {
    const fees = estimate('POLYGON', new Date());
    expect(replacementFeeFor(inAsset('0.000000000000000001', 'POL'), fees)).toBe(fees.high);
  });

  // An estimate written out by hand: (15 + 4) gwei × 65,000 gas (a token transfer) = 0.001235 ETH.
  const handEstimate = (): EstimatedFeeResponse => {
    const tier = (priorityFee: string, expectedFeeInAsset: string) => ({
      expectedFeeInAsset,
      asset: 'ETH',
      expectedFeeInUSD: mul(expectedFeeInAsset, '3000'),
      baseFee: '15',
      priorityFee,
    });
    return {
      high: tier('4', '0.001235'),
      medium: tier('1', '0.00104'),
      low: tier('0.1', '0.0009815'),
    };
  };

  it('bumps by exactly 10% when that lands on whole wei per gas, the bump in the priority fee', () => {
    // 0.001235 × 1.1 = 0.0013585 ETH = 20.9 gwei × 65,000 gas: base 15, priority 5.9.
    expect(replacementFeeFor(inAsset('0.001235', 'ETH'), handEstimate())).toEqual({
      expectedFeeInAsset: '0.0013585',
      asset: 'ETH',
      expectedFeeInUSD: '4.0755',
      baseFee: '15',
      priorityFee: '5.9',
    });
  });

  it('rounds a bump that does not divide the gas limit up to the next whole wei per gas, exactly', () => {
    // 1.1 ETH / 65,000 gas = 16,923,076,923,076.92… wei per gas, rounded up to …077: the fee is
    // 16,923,076,923,077 × 65,000 = 1,100,000,000,000,005,000 wei. Exact integers, no float.
    expect(replacementFeeFor(inAsset('1', 'ETH'), handEstimate())).toEqual({
      expectedFeeInAsset: '1.100000000000005',
      asset: 'ETH',
      expectedFeeInUSD: '3300',
      baseFee: '15',
      priorityFee: '16908.076923077',
    });
  });

  it('rounds up to the satoshi without a gas price (Bitcoin)', () => {
    const btc: EstimatedFeeResponse = {
      high: { expectedFeeInAsset: '0.00000002', asset: 'BTC', expectedFeeInUSD: '0.0012' },
      medium: { expectedFeeInAsset: '0.00000002', asset: 'BTC', expectedFeeInUSD: '0.0012' },
      low: { expectedFeeInAsset: '0.00000001', asset: 'BTC', expectedFeeInUSD: '0.0006' },
    };
    // 3 sat × 1.1 = 3.3 sat, paid as 4.
    expect(replacementFeeFor(inAsset('0.00000003', 'BTC'), btc)).toEqual({
      expectedFeeInAsset: '0.00000004',
      asset: 'BTC',
      expectedFeeInUSD: '0.0024',
    });
  });

  it('refuses an original fee in another asset than the chain pays its fees in', () => {
    // A ramp's fee is the provider's, in the asset sold (1 USDC): read as ETH it made a
    // replacement pay 1.100000000000005 ETH.
    expect(() => replacementFeeFor(inAsset('1', 'USDC'), handEstimate())).toThrow(
      /original fee is in USDC.*ETH/,
    );
  });
});

describe('fee tiers, exactly', () => {
  // A calm window on each chain at a fixed instant: the market factor is a hash of the window.
  const at = new Date('2030-01-03T10:20:00.000Z');

  // [chain, asset, high, medium, low] in the native asset, as the model writes them. On
  // Ethereum every tier is (baseFee + priorityFee) gwei × gas: 14.098485 + 2.3497475 =
  // 16.4482325 gwei × 21,000 = 0.0003454128825 ETH, × 65,000 (a token) = 0.0010691351125 ETH.
  it.each([
    ['ETHEREUM', 'ETH', '0.0003454128825', '0.000315806064', '0.0002980419729'],
    ['ETHEREUM', 'USDC', '0.0010691351125', '0.00097749496', '0.0009225108685'],
    ['POLYGON', 'POL', '0.001939497105', '0.001642868136', '0.001483144845'],
    ['BITCOIN', 'BTC', '0.00001487', '0.00000676', '0.00000271'],
    ['SOLANA', 'SOL', '0.000106712', '0.000025342', '0.000006017'],
    ['TRON', 'TRX', '0.28512', '0.27702', '0.27162'],
  ])(
    '%s %s: HIGH %s, MEDIUM %s, LOW %s, and USD to the micro-dollar',
    (blockChain, asset, high, medium, low) => {
      expect(isCongested(blockChain, at)).toBe(false);
      const fees = estimateFees({ blockChain, asset, amount: '1', now: at });
      expect([
        fees.high.expectedFeeInAsset,
        fees.medium.expectedFeeInAsset,
        fees.low.expectedFeeInAsset,
      ]).toEqual([high, medium, low]);
      for (const tier of [fees.high, fees.medium, fees.low]) {
        expect(tier.asset).toBe(native(blockChain));
        const price = SANDBOX_NATIVE_ASSETS[tier.asset]?.usdPrice ?? '';
        // Half up to six places, trailing zeros dropped: never a binary float's tail.
        expect(tier.expectedFeeInUSD).toBe(add(round(mul(tier.expectedFeeInAsset, price), 6), '0'));
      }
      if (fees.high.baseFee !== undefined) {
        const gas = asset === native(blockChain) ? '21000' : '65000';
        for (const tier of [fees.high, fees.medium, fees.low])
          expect(eip1559Fee(tier.baseFee ?? '', tier.priorityFee ?? '', gas)).toBe(
            tier.expectedFeeInAsset,
          );
      }
    },
  );

  it('the 1.1 × bump over a real estimate: Ethereum, a token transfer whose original paid the LOW tier', () => {
    const fees = estimateFees({ blockChain: 'ETHEREUM', asset: 'USDC', amount: '1', now: at });
    // LOW 0.0009225108685 × 1.1 = 0.00101476195535 < HIGH 0.0010691351125: HIGH is paid as is.
    expect(replacementFeeFor(inAsset(fees.low.expectedFeeInAsset, 'ETH'), fees)).toBe(fees.high);
    // HIGH × 1.1 = 0.00117604862375 ETH = exactly 18.09305575 gwei × 65,000: a bump of exactly
    // 10%, all of it in the priority fee (2.3497475 → 3.99457075 gwei).
    expect(replacementFeeFor(inAsset(fees.high.expectedFeeInAsset, 'ETH'), fees)).toEqual({
      ...fees.high,
      expectedFeeInAsset: '0.00117604862375',
      expectedFeeInUSD: '3.528146',
      priorityFee: '3.99457075',
    });
  });
});

describe('slowAfterMs', PROPERTIES, () => {
  it('is twice the calm time from the status to COMPLETED, plus a minute, in scaled time', () => {
    // ETHEREUM HIGH, calm: 1 block (12 s) to inclusion, 12 blocks (144 s) of confirmations.
    expect(usualTimeLeftMs('ETHEREUM', 'HIGH', 'SUBMITTED', 1)).toBe(156_000);
    expect(usualTimeLeftMs('ETHEREUM', 'HIGH', 'WAITING_CONFIRMATION', 1)).toBe(144_000);
    expect(slowAfterMs('ETHEREUM', 'HIGH', 'SUBMITTED', 1)).toBe(2 * 156_000 + 60_000);
    expect(slowAfterMs('ETHEREUM', 'LOW', 'SUBMITTED', 1)).toBe(2 * (36_000 + 144_000) + 60_000);
    expect(slowAfterMs('ETHEREUM', 'HIGH', 'SUBMITTED', 60)).toBe(Math.ceil(372_000 / 60));
    expect(slowAfterMs('BITCOIN', 'MEDIUM', 'WAITING_CONFIRMATION', 1)).toBe(
      2 * 1_800_000 + 60_000,
    );
  });

  it('never flags a congested MEDIUM or HIGH transfer the simulator is still moving, and flags a stuck LOW one', () => {
    fc.assert(
      fc.property(fc.constantFrom(...chains), fc.constantFrom(1, 60, 600), (chain, timeScale) => {
        const congested = nextCongestedAt(chain, new Date('2026-01-01T00:00:00Z'));
        if (!congested) return;
        for (const tier of ['MEDIUM', 'HIGH'] as const) {
          const d = confirmationDelaysMs(chain, tier, timeScale, congested);
          expect(d.SUBMITTED + d.WAITING_CONFIRMATION).toBeLessThan(
            slowAfterMs(chain, tier, 'SUBMITTED', timeScale),
          );
        }
        const low = confirmationDelaysMs(chain, 'LOW', timeScale, congested);
        if (low.SUBMITTED >= 3600_000 / timeScale)
          expect(low.SUBMITTED).toBeGreaterThan(slowAfterMs(chain, 'LOW', 'SUBMITTED', timeScale));
      }),
    );
  });
});
