import { describe, expect, it } from 'vitest';
import { dataPreloads, withDataPreloads } from './data-preload.ts';

const at = (pathAndSearch: string) => new URL(pathAndSearch, 'http://console.test');
const LIST = '/api/external/transactions/?limit=20';

describe('data preloads', () => {
  it('names the session and the first page of the list for /transactions; the session alone for / (the overview)', () => {
    expect(dataPreloads(at('/transactions'), true)).toEqual(['/auth/session', LIST]);
    expect(dataPreloads(at('/'), true)).toEqual(['/auth/session']);
    expect(dataPreloads(at('/?subOrg=a'), true)).toEqual(['/auth/session']);
  });

  it('asks for the scope the page shows, as the SPA reads ?subOrg= (trimmed)', () => {
    expect(dataPreloads(at('/transactions?subOrg=%20so-1%20'), true)).toEqual([
      '/auth/session',
      `${LIST}&subOrgId=so-1`,
    ]);
  });

  it('names no list it does not build the way the SPA does: filters, cursors, odd scopes', () => {
    for (const search of [
      '?status=PENDING',
      '?cursor=abc',
      '?subOrg=a&subOrg=b',
      '?subOrg=%20',
      `?subOrg=${'x'.repeat(129)}`,
    ])
      expect(dataPreloads(at(`/transactions${search}`), true)).toEqual(['/auth/session']);
  });

  it('names nothing without a session cookie, or for other pages', () => {
    expect(dataPreloads(at('/transactions'), false)).toEqual([]);
    for (const page of ['/login', '/bank-accounts', '/transactions/new', '/transactions/'])
      expect(dataPreloads(at(page), true)).toEqual([]);
  });

  it('adds crossorigin fetch preloads to the head, escaped, and nothing else', () => {
    const html = '<html><head><title>x</title></head><body></body></html>';
    expect(withDataPreloads(html, [])).toBe(html);
    expect(withDataPreloads(html, ['/a?x=1&y="2"'])).toBe(
      '<html><head><title>x</title><link rel="preload" as="fetch" crossorigin href="/a?x=1&amp;y=&quot;2&quot;">\n</head><body></body></html>',
    );
  });
});
