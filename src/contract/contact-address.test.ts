import { describe, expect, it } from 'vitest';
import {
  addressChecksumProblem,
  canonicalContactAddress,
  contactAddressProblem,
  toChecksumAddress,
} from './contact-address.ts';

describe('EIP-55', () => {
  // The examples of EIP-55 itself.
  const CHECKSUMMED = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];
  it('spells each address as the EIP gives it, from any case', () => {
    for (const address of CHECKSUMMED) {
      expect(toChecksumAddress(address.toLowerCase())).toBe(address);
      expect(contactAddressProblem('ETHEREUM', address)).toBeNull();
    }
  });
  it('accepts an address in one case and stores it checksummed', () => {
    const [address = ''] = CHECKSUMMED;
    expect(contactAddressProblem('BASE', address.toLowerCase())).toBeNull();
    expect(canonicalContactAddress('BASE', address.toLowerCase())).toBe(address);
  });
  it('refuses mixed case that does not match, naming the field and the rule', () => {
    expect(contactAddressProblem('ETHEREUM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toMatch(
      /^address .*EIP-55 checksum/,
    );
    expect(contactAddressProblem('ETHEREUM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA')).toMatch(
      /^address is not an Ethereum address: expected 0x followed by 40 hexadecimal characters/,
    );
  });
});

describe('Bitcoin, Tron and Solana', () => {
  it.each([
    ['BITCOIN', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
    ['BITCOIN', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
    ['BITCOIN', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    ['BITCOIN', 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'],
    ['TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ['SOLANA', 'So11111111111111111111111111111111111111112'],
  ])('%s %s is valid', (chain, address) => {
    expect(contactAddressProblem(chain, address)).toBeNull();
  });
  it.each([
    ['BITCOIN', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', /base58check checksum/],
    ['BITCOIN', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', /bech32 checksum/],
    // A version-0 program checksummed as bech32m (BIP-350's own invalid example).
    ['BITCOIN', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', /bech32 checksum/],
    ['TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', /base58check checksum/],
    ['SOLANA', '1111111111111111111111111111111111', /exactly 32 bytes/],
  ])('%s %s is refused', (chain, address, rule) => {
    expect(contactAddressProblem(chain, address)).toMatch(rule);
  });
});

describe("a typed external address's checksum", () => {
  it('is the contact rule less the format, which has its own words', () => {
    expect(
      addressChecksumProblem('ETHEREUM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'),
    ).toMatch(/EIP-55 checksum/);
    expect(
      addressChecksumProblem('ETHEREUM', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'),
    ).toBeNull();
    expect(
      addressChecksumProblem('ETHEREUM', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED'),
    ).toBeNull();
    // Not an address at all: the format rule (addresses.ts) says so, not this one.
    expect(addressChecksumProblem('ETHEREUM', '0x12')).toBeNull();
    expect(addressChecksumProblem('DOGECOIN', 'anything')).toBeNull();
  });
});
