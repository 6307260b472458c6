import { and, eq } from 'drizzle-orm';
import { chainInfo } from '#contract/chains.ts';
import { rawSigningDigest, signDigest, type RawSignatureData } from '#contract/raw-signature.ts';
import { wallets } from '../../../db/schema/sandbox.ts';
import type { TransactionRow } from '../mappers.ts';
import { keyedEvmAddress, walletSecretKey } from '../wallet-keys.ts';
import type { Executor } from './transitions.ts';

/**
 * A raw signing (a contract call whose `data` is `{messageHex}`) on an EVM
 * chain is signed at the SIGNED step by the source vault's wallet on that
 * chain, with the wallet's own key (wallet-keys.ts): the signature recovers
 * to the wallet's address, so a client can check it before relaying.
 */

export interface RawSignature {
  txnSignature: string;
  txnSignatureData: RawSignatureData;
  /** The 32 bytes signed (contract/raw-signature.ts), hex without 0x. */
  digest: string;
}

export type RawSigningOutcome = { signature: RawSignature } | { error: string } | null;

/** The signature this row's raw signing gets; null when it is no raw signing an EVM wallet signs. */
export async function rawSignatureFor(
  tx: Executor,
  row: Pick<TransactionRow, 'category' | 'contractData' | 'blockChain' | 'vaultId'>,
): Promise<RawSigningOutcome> {
  const messageHex = row.contractData?.['messageHex'];
  if (row.category !== 'CONTRACT_CALL' || typeof messageHex !== 'string') return null;
  if (chainInfo(row.blockChain)?.kind !== 'EVM' || !row.vaultId) return null;
  const [wallet] = await tx
    .select({ id: wallets.id, address: wallets.address })
    .from(wallets)
    .where(and(eq(wallets.vaultId, row.vaultId), eq(wallets.blockchain, row.blockChain)))
    .limit(1);
  if (!wallet) return { error: `the vault has no wallet on ${row.blockChain} to sign with` };
  // A wallet made before the sandbox derived keys has an address no key of the sandbox's matches.
  if (keyedEvmAddress(wallet.id).toLowerCase() !== wallet.address.toLowerCase())
    return {
      error: `the vault's ${row.blockChain} wallet ${wallet.address} has no key in the sandbox (it was made before wallets had keys): sign with a vault created since`,
    };
  const digest = rawSigningDigest(messageHex);
  const signed = signDigest(digest, walletSecretKey(wallet.id));
  return { signature: { txnSignature: signed.signature, txnSignatureData: signed.data, digest } };
}
