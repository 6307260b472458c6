import { describe, expect, it } from 'vitest';
import { DEFAULT_AFTER_LOGIN, safeRedirect } from './safe-redirect.ts';

describe('safeRedirect', () => {
  it('keeps a same-origin path with its query and hash', () => {
    expect(safeRedirect('/transactions?status=COMPLETED&subOrg=so_1')).toBe(
      '/transactions?status=COMPLETED&subOrg=so_1',
    );
    expect(safeRedirect('/bank-accounts#main')).toBe('/bank-accounts#main');
  });

  it.each([
    'https://evil.example/transactions',
    '//evil.example/transactions',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    'transactions',
    '/\t/evil.example',
    ' /transactions',
    '',
    '/login?redirect=/transactions',
  ])('refuses %j', (value) => {
    expect(safeRedirect(value)).toBe(DEFAULT_AFTER_LOGIN);
  });

  it('refuses what is not a string', () => {
    expect(safeRedirect(undefined)).toBe(DEFAULT_AFTER_LOGIN);
    expect(safeRedirect(['/a', '/b'])).toBe(DEFAULT_AFTER_LOGIN);
  });
});
