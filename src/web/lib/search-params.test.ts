import { describe, expect, it } from 'vitest';
import { parseSearch, stringifySearch } from './search-params.ts';

describe('search params', () => {
  it('keeps every value a string', () => {
    expect(parseSearch('?externalId=123&asset=1.50&flag=true')).toEqual({
      externalId: '123',
      asset: '1.50',
      flag: 'true',
    });
  });

  it('round-trips repeated keys as arrays', () => {
    const search = { cursor: 'c4', status: ['COMPLETED', 'FAILED'] };
    const str = stringifySearch(search);
    expect(str).toBe('?cursor=c4&status=COMPLETED&status=FAILED');
    expect(parseSearch(str)).toEqual(search);
  });

  it('omits undefined values and writes nothing for an empty search', () => {
    expect(stringifySearch({ status: undefined, cursor: undefined })).toBe('');
    expect(stringifySearch({ createdAtGte: '2025-01-01T00:00:00.000Z' })).toBe(
      '?createdAtGte=2025-01-01T00%3A00%3A00.000Z',
    );
    expect(parseSearch('')).toEqual({});
  });

  it('survives cursors with reserved characters', () => {
    const cursor = 'eyJ0IjoiMjAyNS0wMS0wMSJ9+/=&?';
    expect(parseSearch(stringifySearch({ cursor }))).toEqual({ cursor });
  });
});
