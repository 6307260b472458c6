import { and, eq } from 'drizzle-orm';
import { addressProblem, sameAddress } from '#contract/addresses.ts';
import type { ChainInfo } from '#contract/chains.ts';
import { addressChecksumProblem } from '#contract/contact-address.ts';
import type { Party, TransferPartyData } from '#contract/transaction.ts';
import { cachedRead } from '../../../db/read-cache.ts';
import { contacts, vaults, wallets } from '../../../db/schema/sandbox.ts';
import { contactParty, vaultParty, type VaultRow, type WalletRow } from '../mappers.ts';
import { ENGINE_CODES, type Problems } from './problems.ts';
import type { Executor } from './transitions.ts';

/**
 * Finding the parties a request names and writing them as the API returns
 * them (with name, subOrgId, address and chain), or saying which rule a
 * party breaks.
 */

export interface ResolvedVault {
  vault: VaultRow;
  wallet: WalletRow;
  party: Party;
}

/**
 * A vault of the organization and its wallet on `chain` (either absent), in
 * one statement, reused while neither table is changed (db/read-cache.ts):
 * a create resolved its source and its destination vault in two statements
 * each, on every create.
 */
export function vaultWithWallet(
  db: Executor,
  orgId: string,
  vaultId: string,
  chain: string,
): Promise<{ vault?: VaultRow; wallet?: WalletRow }> {
  return cachedRead(
    `engine-vault:${orgId}:${vaultId}:${chain}`,
    async (): Promise<{ vault?: VaultRow; wallet?: WalletRow }> => {
      const [row] = await db
        .select()
        .from(vaults)
        .leftJoin(wallets, and(eq(wallets.vaultId, vaults.id), eq(wallets.blockchain, chain)))
        .where(and(eq(vaults.orgId, orgId), eq(vaults.id, vaultId)))
        .limit(1);
      return row ? { vault: row.vaults, ...(row.wallets ? { wallet: row.wallets } : {}) } : {};
    },
    [vaults, wallets],
    // The id is the caller's to choose: one that names no vault takes no slot.
    { keep: (found) => found.vault !== undefined },
  );
}

/** A vault of the organization with its wallet on `chain`, or a problem on `field`. */
export async function resolveVault(
  db: Executor,
  problems: Problems,
  field: string,
  orgId: string,
  vaultId: string,
  chain: ChainInfo,
): Promise<ResolvedVault | undefined> {
  const { vault, wallet } = await vaultWithWallet(db, orgId, vaultId, chain.value);
  if (!vault) {
    problems.add(
      field,
      ENGINE_CODES.unknownVault,
      `no vault with id "${vaultId}" in this organization`,
    );
    return undefined;
  }
  if (!wallet) {
    problems.add(
      field,
      ENGINE_CODES.noWallet,
      `vault "${vault.vaultName}" has no wallet on ${chain.value}`,
    );
    return undefined;
  }
  return { vault, wallet, party: vaultParty(vault, wallet, wallet.blockchain) };
}

/**
 * The SDKs may send a party's `address` with its id: when they do, it must be
 * the address the party has on the chain, or the client believes it pays
 * somewhere it does not.
 */
export function checkSentAddress(
  problems: Problems,
  field: 'source' | 'destination',
  sent: TransferPartyData,
  party: Party | undefined,
): void {
  if (sent.address === undefined || !party?.address) return;
  if (sameAddress(sent.address, party.address)) return;
  const who = party.name ? `${party.type?.toLowerCase() ?? 'party'} "${party.name}"` : 'this party';
  problems.add(
    `${field}.address`,
    ENGINE_CODES.partyAddressMismatch,
    `${sent.address} is not the address of ${who} on ${party.chain ?? 'this chain'} (${party.address})`,
  );
}

export interface ResolvedDestination {
  party: Party;
  /** Set when the destination is one of our vaults: completion credits it. */
  vault?: VaultRow;
}

/**
 * A transfer's receiving party: an APPROVED contact on the chain that accepts
 * the asset, of the source vault's sub-organization or of the whole
 * organization; another vault of the organization with a wallet on the
 * chain; or an external address in the chain's format (src/contract/addresses.ts).
 * `source` is the vault paying, when it resolved (its sub-organization, null
 * for an organization-level vault).
 */
export async function resolveDestination(
  db: Executor,
  problems: Problems,
  orgId: string,
  destination: TransferPartyData,
  chain: ChainInfo,
  asset: string | undefined,
  source?: { subOrgId: string | null },
): Promise<ResolvedDestination | undefined> {
  if (destination.type === 'VAULT') {
    const resolved = await resolveVault(
      db,
      problems,
      'destination.id',
      orgId,
      destination.id,
      chain,
    );
    return resolved ? { party: resolved.party, vault: resolved.vault } : undefined;
  }
  if (destination.type === 'EXTERNAL_ADDRESS') {
    // The address is the party's id: there is no record to look up, only its format to check.
    const problem = addressProblem(chain.value, destination.id);
    if (problem) {
      problems.add('destination.id', ENGINE_CODES.invalidAddress, problem);
      return undefined;
    }
    // Each spelling the caller sent: the field named is the one holding the mistyped character.
    const spellings = [
      ['destination.id', destination.id],
      ['destination.address', destination.address],
    ] as const;
    let mistyped = false;
    for (const [field, spelling] of spellings) {
      const checksum =
        spelling === undefined ? null : addressChecksumProblem(chain.value, spelling);
      if (!checksum || (field === 'destination.id' && spelling === destination.address)) continue;
      problems.add(field, ENGINE_CODES.invalidAddress, checksum);
      mistyped = true;
    }
    if (mistyped) return undefined;
    return {
      party: {
        type: 'EXTERNAL_ADDRESS',
        id: destination.id,
        address: destination.id,
        chain: chain.value,
      },
    };
  }
  if (destination.type !== 'CONTACT') {
    problems.add(
      'destination.type',
      ENGINE_CODES.destinationType,
      `destination.type must be VAULT, CONTACT or EXTERNAL_ADDRESS, not ${destination.type}`,
    );
    return undefined;
  }
  const [contact] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.orgId, orgId), eq(contacts.id, destination.id)))
    .limit(1);
  if (!contact) {
    problems.add(
      'destination.id',
      ENGINE_CODES.unknownContact,
      `no contact with id "${destination.id}" in this organization`,
    );
    return undefined;
  }
  let ok = true;
  const refuse = (code: string, message: string) => {
    ok = false;
    problems.add('destination.id', code, message);
  };
  if (contact.status !== 'APPROVED')
    refuse(
      ENGINE_CODES.contactNotApproved,
      `contact "${contact.name}" is ${contact.status}; only an APPROVED contact can receive`,
    );
  // A sub-organization's address book is its own: an organization-wide contact serves every vault.
  if (source && contact.subOrgId !== null && contact.subOrgId !== source.subOrgId)
    refuse(
      ENGINE_CODES.contactOtherSubOrg,
      `contact "${contact.name}" belongs to another sub-organization than the source vault; pay it from a vault of its own sub-organization`,
    );
  if (contact.blockChain !== chain.value)
    refuse(
      ENGINE_CODES.contactWrongChain,
      `contact "${contact.name}" is on ${contact.blockChain}, not ${chain.value}`,
    );
  else if (asset && contact.assetList.length > 0 && !contact.assetList.includes(asset))
    refuse(
      ENGINE_CODES.contactAsset,
      `contact "${contact.name}" accepts ${contact.assetList.join(', ')}, not ${asset}`,
    );
  return ok ? { party: contactParty(contact) } : undefined;
}
