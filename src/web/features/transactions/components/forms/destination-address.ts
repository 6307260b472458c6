import { addressProblem, looksAlike, sameAddress } from '#contract/addresses.ts';
import { addressChecksumProblem } from '#contract/contact-address.ts';
import type { PickerData } from './picker-data.ts';

/** A remark under the typed address: who it belongs to, or whom it only looks like. */
export interface AddressNotice {
  tone: 'info' | 'warning';
  text: string;
}

function short(address: string): string {
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/**
 * What the form says about an external address once it is a valid one: the
 * vault of ours or the approved contact it belongs to (the source vault's own
 * address is refused by the form's rules instead), or a warning when it only
 * looks like one of theirs: same first and last four characters, another
 * middle, the mark of an address-poisoning lookalike. Nothing for an address
 * nobody here knows.
 */
export function typedAddressNotice(
  data: Pick<PickerData, 'vaults' | 'contacts'>,
  v: { destinationAddress: string; blockChain: string; sourceVaultId: string },
): AddressNotice | undefined {
  const address = v.destinationAddress.trim();
  const chain = v.blockChain;
  if (!address || !chain) return undefined;
  if (addressProblem(chain, address) || addressChecksumProblem(chain, address)) return undefined;
  const known = [
    ...data.vaults.flatMap((vault) =>
      (vault.wallets ?? [])
        .filter((w) => w.blockchain === chain && w.address)
        .map((w) => ({
          who: `our vault "${vault.vaultName ?? vault.id ?? ''}"`,
          address: w.address as string,
          source: vault.id === v.sourceVaultId,
          vault: true,
        })),
    ),
    ...data.contacts
      .filter((c) => c.blockChain === chain && c.address && c.status === 'APPROVED')
      .map((c) => ({
        who: `approved contact "${c.name ?? c.id ?? ''}"`,
        address: c.address as string,
        source: false,
        vault: false,
      })),
  ];
  const same = known.find((k) => sameAddress(k.address, address));
  if (same) {
    if (same.source) return undefined;
    return {
      tone: 'info',
      text: same.vault
        ? `This is the address of ${same.who}. To move funds between our vaults, choose "Another vault" instead.`
        : `This is the address of ${same.who}. Choose it under "Approved contact" instead, so the address book's approval applies.`,
    };
  }
  const lookalike = known.find((k) => looksAlike(address, k.address));
  if (!lookalike) return undefined;
  const who = lookalike.who.replace(/^approved contact/, 'contact');
  return {
    tone: 'warning',
    text: `This looks like the address of ${who} (${short(lookalike.address)}) but is not the same address: the first and last 4 characters match and the middle differs. Lookalike addresses are planted to be copied by mistake (address poisoning): check every character against the source.`,
  };
}
