import { describe, expect, it } from 'vitest';
import { beyondTolerance, quoteBindingRefusal, rateMove } from './ramp-requote.ts';

describe('rateMove and beyondTolerance', () => {
  it('measures the move either way as a fraction of the accepted rate', () => {
    expect(rateMove('1', '1.005')).toBe('0.005');
    expect(rateMove('1', '0.995')).toBe('0.005');
    expect(rateMove('0.9995', '0.9995')).toBe('0');
  });

  it('takes exactly the tolerance as within it, anything more as beyond', () => {
    expect(beyondTolerance('1', '1.005', '0.5')).toBe(false);
    expect(beyondTolerance('1', '1.00500001', '0.5')).toBe(true);
    expect(beyondTolerance('1.08', '1.0746', '0.5')).toBe(false);
    expect(beyondTolerance('1.08', '1.0745', '0.5')).toBe(true);
  });
});

describe('quoteBindingRefusal', () => {
  const accepted = { quoteId: 'q-1', rate: '1' };
  const within = {
    quoteId: 'q-2',
    accepted,
    needsAcceptance: false,
    rate: '1.001',
    tolerancePercent: '0.5',
  };
  const beyond = { ...within, rate: '1.01', needsAcceptance: true };

  it('lets an approval naming the current quote count', () => {
    expect(quoteBindingRefusal(within, 'q-2')).toBeNull();
    expect(quoteBindingRefusal(beyond, 'q-2')).toBeNull();
  });

  it('lets one naming the accepted quote, or none, count while the new rate is within the tolerance', () => {
    expect(quoteBindingRefusal(within, 'q-1')).toBeNull();
    expect(quoteBindingRefusal(within, undefined)).toBeNull();
  });

  it('refuses with 409 QUOTE_CHANGED, naming the current quote, one that did not see a rate beyond the tolerance', () => {
    for (const named of ['q-1', undefined]) {
      const refusal = quoteBindingRefusal(beyond, named);
      expect(refusal).toMatchObject({ status: 409, code: 'QUOTE_CHANGED' });
      expect(refusal?.message).toContain('"q-2"');
      expect(refusal?.message).toContain('1 → 1.01, beyond the 0.5% tolerance');
    }
  });

  it('refuses a quote that is neither the current nor the accepted one', () => {
    expect(quoteBindingRefusal(within, 'q-0')).toMatchObject({
      status: 409,
      code: 'QUOTE_CHANGED',
      fields: [{ field: 'quoteId' }],
    });
  });
});
