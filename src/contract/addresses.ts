import { chainInfo, type ChainKind } from './chains.ts';

/**
 * What an address looks like on each kind of chain, so the transfer form and
 * the sandbox refuse the same external addresses with the same words. These
 * are format checks (alphabet and length); the chains' checksums, which
 * catch a typo that keeps the format, are contact-address.ts's, applied
 * after these to contacts and typed external destinations alike.
 */

interface AddressRule {
  pattern: RegExp;
  /** How the rule reads to a person: "0x followed by 40 hexadecimal characters". */
  description: string;
}

const BASE58 = '1-9A-HJ-NP-Za-km-z';
const BECH32 = 'ac-hj-np-z02-9';

const ADDRESS_RULES: Record<ChainKind, AddressRule> = {
  EVM: {
    pattern: /^0x[0-9a-fA-F]{40}$/,
    description: '0x followed by 40 hexadecimal characters',
  },
  UTXO: {
    pattern: new RegExp(`^(bc1[${BECH32}]{11,71}|[13][${BASE58}]{25,34})$`),
    description: 'a bc1… (bech32) address or a legacy address starting with 1 or 3',
  },
  SOLANA: {
    pattern: new RegExp(`^[${BASE58}]{32,44}$`),
    description: '32 to 44 base58 characters',
  },
  TRON: {
    pattern: new RegExp(`^T[${BASE58}]{33}$`),
    description: 'T followed by 33 base58 characters',
  },
  ICP: {
    pattern: /^([0-9a-fA-F]{64}|[a-z2-7]{5}(-[a-z2-7]{5})*(-[a-z2-7]{1,5})?)$/,
    description:
      'a 64-character hexadecimal account identifier or a principal like "ryjl3-tyaaa-aaaaa-aaaba-cai"',
  },
};

/**
 * Why `address` is not an address on `blockChain`, or null when it is one.
 * A chain this console does not know has no rule: the custody API decides.
 */
export function addressProblem(blockChain: string, address: string): string | null {
  const chain = chainInfo(blockChain);
  if (!chain) return null;
  const rule = ADDRESS_RULES[chain.kind];
  if (rule.pattern.test(address)) return null;
  // "an Ethereum address", "a Solana address".
  const article = /^[AEIOU]/.test(chain.label) ? 'an' : 'a';
  return `not ${article} ${chain.label} address: expected ${rule.description}`;
}

/**
 * Whether two spellings name the same address: hexadecimal addresses (EVM,
 * ICP account ids) ignore letter case, as their checksum casing is optional;
 * every other format is case-sensitive.
 */
export function sameAddress(a: string, b: string): boolean {
  const hex = /^(0x)?[0-9a-fA-F]+$/;
  return hex.test(a) && hex.test(b) ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * Whether `a` is a lookalike of `b`: a different address whose first and
 * last four characters are the same, which is all most people compare. An
 * address-poisoning attack plants such an address in a wallet's history
 * hoping it is copied instead of the real one. The prefix every address of
 * the kind shares ("0x", "bc1") is not counted among the four.
 */
export function looksAlike(a: string, b: string): boolean {
  if (sameAddress(a, b)) return false;
  const visible = (address: string) =>
    /^0x[0-9a-fA-F]+$/.test(address)
      ? address.slice(2).toLowerCase()
      : address.startsWith('bc1')
        ? address.slice(3)
        : address;
  const x = visible(a);
  const y = visible(b);
  if (x.length < 8 || y.length < 8) return false;
  return x.slice(0, 4) === y.slice(0, 4) && x.slice(-4) === y.slice(-4);
}
