import { describe, expect, it } from 'vitest';
import { bestFirst } from './quotes.ts';

const quote = (quoteId: string, from: string, to: string, seconds = 300) => ({
  quoteId,
  finalFromAmount: from,
  finalToAmount: to,
  estCompletionTimeInSec: seconds,
});

describe('bestFirst', () => {
  it('puts the most arriving first, compared as decimals (not as text)', () => {
    const sorted = bestFirst([
      quote('a', '100', '99.5'),
      quote('b', '100', '100.25'),
      quote('c', '100', '99.75'),
    ]);
    expect(sorted.map((q) => q.quoteId)).toEqual(['b', 'c', 'a']);
  });

  it('with the same amount arriving, the least leaving first, then the fastest', () => {
    const sorted = bestFirst([
      quote('slow', '101.5', '100', 3600),
      quote('dear', '102.5', '100', 60),
      quote('fast', '101.5', '100', 300),
    ]);
    expect(sorted.map((q) => q.quoteId)).toEqual(['fast', 'slow', 'dear']);
  });
});
