import { describe, expect, it } from 'vitest';
import { addressProblem } from './addresses.ts';

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
