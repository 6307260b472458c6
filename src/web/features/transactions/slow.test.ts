import { describe, expect, it } from 'vitest';
import { isSlow } from './slow.ts';

const slowAfter = '2030-01-01T12:07:00.000Z';
const at = (iso: string) => Date.parse(iso);

describe('isSlow', () => {
  it('follows the server’s verdict, and flips on its own once the instant it gave passes', () => {
    expect(isSlow({ slowerThanUsual: true, slowAfter }, at('2030-01-01T12:00:00Z'))).toBe(true);
    expect(isSlow({ slowerThanUsual: false, slowAfter }, at('2030-01-01T12:06:59Z'))).toBe(false);
    expect(isSlow({ slowerThanUsual: false, slowAfter }, at(slowAfter))).toBe(true);
  });

  it('is never slow without the server’s timing (ended, not yet on the chain, a ramp)', () => {
    expect(isSlow({}, at('2031-01-01T00:00:00Z'))).toBe(false);
  });
});
