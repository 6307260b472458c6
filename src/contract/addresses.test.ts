import { describe, expect, it } from 'vitest';
import { addressProblem, looksAlike } from './addresses.ts';

describe('addressProblem', () => {
  it.each([
    ['ETHEREUM', '0x52908400098527886E0F7030069857D2E4169EE7'],
    ['BASE', '0xde709f2102306220921060314715629080e2fb77'],
    ['BITCOIN', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ['BITCOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
    ['SOLANA', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'],
    ['TRON', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'],
    ['ICP', 'ryjl3-tyaaa-aaaaa-aaaba-cai'],
    ['ICP', 'a'.repeat(64)],
  ])('accepts a %s address', (chain, address) => {
    expect(addressProblem(chain, address)).toBeNull();
  });

  it.each([
    ['ETHEREUM', '0xabc', '0x followed by 40 hexadecimal characters'],
    ['ETHEREUM', `0x${'g'.repeat(40)}`, 'hexadecimal'],
    ['BITCOIN', '0x52908400098527886E0F7030069857D2E4169EE7', 'bech32'],
    ['SOLANA', '0OIl'.repeat(10), 'base58'],
    ['TRON', 'XLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', 'T followed by 33'],
    ['ICP', 'not an account', 'principal'],
  ])('refuses a bad %s address, saying what it expects', (chain, address, words) => {
    expect(addressProblem(chain, address)).toContain(words);
  });

  it('leaves chains it does not know to the custody API', () => {
    expect(addressProblem('DOGECOIN', 'anything')).toBeNull();
  });
});

describe('looksAlike', () => {
  const real = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  it('flags another address with the same first and last four characters', () => {
    expect(looksAlike(`0x5aae${'0'.repeat(32)}eaed`, real)).toBe(true);
  });
  it('is not the address itself, in any case, nor one that differs where people look', () => {
    expect(looksAlike(real.toLowerCase(), real)).toBe(false);
    expect(looksAlike(`0x5aaf${'0'.repeat(32)}eaed`, real)).toBe(false);
    expect(looksAlike(`0x5aae${'0'.repeat(32)}eaee`, real)).toBe(false);
  });
  it('does not count the prefix every address of the kind shares', () => {
    expect(
      looksAlike(
        'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        'bc1qxxxxrrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      ),
    ).toBe(false);
    expect(
      looksAlike(
        'bc1qar0sxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxf5mdq',
        'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      ),
    ).toBe(true);
  });
});
