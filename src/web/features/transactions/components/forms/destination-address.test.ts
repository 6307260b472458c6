import { describe, expect, it } from 'vitest';
import type { Contact, Vault } from '#contract/reference.ts';
import { typedAddressNotice } from './destination-address.ts';

const EXCHANGE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
// Same first and last four characters as the exchange's, another middle.
const LOOKALIKE = `0x5aae${'0'.repeat(32)}eaed`;
const OPS = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

const vaults: Vault[] = [
  {
    id: 'v-treasury',
    vaultName: 'Treasury',
    wallets: [{ blockchain: 'ETHEREUM', address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB' }],
  },
  { id: 'v-ops', vaultName: 'Operations', wallets: [{ blockchain: 'ETHEREUM', address: OPS }] },
];
const contacts: Contact[] = [
  { id: 'c1', name: 'Exchange', status: 'APPROVED', blockChain: 'ETHEREUM', address: EXCHANGE },
];
const notice = (destinationAddress: string, blockChain = 'ETHEREUM') =>
  typedAddressNotice(
    { vaults, contacts },
    { destinationAddress, blockChain, sourceVaultId: 'v-treasury' },
  );

describe('what the form says about a typed address', () => {
  it('names our vault when the address is one of ours', () => {
    expect(notice(OPS.toLowerCase())).toEqual({
      tone: 'info',
      text: expect.stringMatching(/our vault "Operations"/),
    });
  });

  it('names the approved contact whose address it is', () => {
    expect(notice(EXCHANGE)?.text).toMatch(/approved contact "Exchange"/);
  });

  it('warns of an address that only looks like a known contact’s', () => {
    expect(LOOKALIKE).toHaveLength(42);
    expect(notice(LOOKALIKE)).toEqual({
      tone: 'warning',
      text: expect.stringMatching(/looks like the address of contact "Exchange".*not the same/),
    });
  });

  it('says nothing of an unknown address, of one not yet an address, or on another chain', () => {
    expect(notice('0x1111111111111111111111111111111111111111')).toBeUndefined();
    expect(notice('0x5aae')).toBeUndefined();
    expect(notice(OPS, 'POLYGON')).toBeUndefined();
  });
});
