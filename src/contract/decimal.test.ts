import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PositiveDecimalString } from './positive-decimal.ts';
import {
  add,
  cmp,
  formatAmount,
  formatUsd,
  neg,
  round,
  roundDecimalString,
  scale,
  sub,
  sum,
} from './decimal.ts';
import { paths, toQueryString } from './paths.ts';

describe('decimal arithmetic', () => {
  it('is exact where floats are not', () => {
    expect(add('0.1', '0.2')).toBe('0.3');
    expect(sub('1', '0.000000000000000001')).toBe('0.999999999999999999');
    expect(sum(['-1.5', '1.25', '0.25'])).toBe('0');
    expect(neg('2.5')).toBe('-2.5');
    expect(cmp('10', '9.99')).toBe(1);
    expect(scale('1.500')).toBe(3);
    expect(round('1.005', 2)).toBe('1.01');
    expect(round('1.009', 2, 'down')).toBe('1.00');
  });

  it('adding then subtracting returns the original, for any 18-decimal amounts', () => {
    const amount = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }))
      .map(([n, dp]) => {
        const s = n.toString().padStart(dp + 1, '0');
        return dp === 0 ? s : `${s.slice(0, -dp)}.${s.slice(-dp)}`;
      });
    fc.assert(fc.property(amount, amount, (a, b) => cmp(sub(add(a, b), b), a) === 0));
  });
});

describe('PositiveDecimalString', () => {
  it('accepts plain positive decimals only', () => {
    expect(PositiveDecimalString.safeParse('0.000001').success).toBe(true);
    for (const bad of ['0', '0.0', '-1', '1e3', ' 1', '1,000', 'NaN']) {
      expect(PositiveDecimalString.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe('formatAmount', () => {
  it('groups thousands and keeps every significant fractional digit', () => {
    expect(formatAmount('1234567.123456789012345678')).toBe('1,234,567.123456789012345678');
    expect(formatAmount('-1000.500')).toBe('-1,000.5');
    expect(formatAmount('5', { minFractionDigits: 2 })).toBe('5.00');
    expect(formatAmount('not a number')).toBe('not a number');
  });
});

describe('US dollar values', () => {
  it('show to the cent, rounded half-up, and say when a value is under a cent', () => {
    expect(formatUsd('9.249125')).toBe('9.25');
    expect(formatUsd('9.244999')).toBe('9.24');
    expect(formatUsd('185916.19')).toBe('185,916.19');
    expect(formatUsd('999.995')).toBe('1,000.00');
    expect(formatUsd('12')).toBe('12.00');
    expect(formatUsd('0.004')).toBe('< 0.01');
    expect(formatUsd('0')).toBe('0.00');
    expect(formatUsd('-0.005')).toBe('-0.01');
  });

  it('rounds by its digits exactly as big.js rounds, for any amount', () => {
    const amount = fc
      .tuple(
        fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }),
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 0, max: 6 }),
      )
      .map(([units, decimals, dp]) => {
        const digits = (units < 0n ? -units : units).toString().padStart(decimals + 1, '0');
        const cut = digits.length - decimals;
        const body = decimals ? `${digits.slice(0, cut)}.${digits.slice(cut)}` : digits;
        return { value: `${units < 0n ? '-' : ''}${body}`, dp };
      });
    fc.assert(
      fc.property(amount, ({ value, dp }) => {
        const ours = roundDecimalString(value, dp);
        expect(cmp(ours, round(value, dp))).toBe(0);
      }),
    );
  });
});

describe('paths', () => {
  it('end with a slash and encode ids', () => {
    expect(paths.transaction('a/b')).toBe('/api/external/transactions/a%2Fb/');
    expect(paths.approvalAction('ap_1')).toBe(
      '/api/external/change_requests/approvals/ap_1/action/',
    );
    expect(toQueryString({ status: 'PENDING', limit: 20, cursor: null, asset: '' })).toBe(
      '?limit=20&status=PENDING',
    );
    expect(toQueryString({})).toBe('');
  });
});
