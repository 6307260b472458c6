import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { and, eq } from 'drizzle-orm';
import { chainInfo } from '#contract/chains.ts';
import { rawSigningDigest, signDigest, type RawSignatureData } from '#contract/raw-signature.ts';
import { wallets } from '../../../db/schema/sandbox.ts';
import type { TransactionRow } from '../mappers.ts';
import {
  keyedEvmAddress,
  keyedSolanaAddress,
  solanaSecretKey,
  walletSecretKey,
} from '../wallet-keys.ts';
import type { Executor } from './transitions.ts';

/**
 * A raw signing (a contract call whose `data` is `{messageHex}`) on an EVM
 * chain or Solana is signed at the SIGNED step by the source vault's wallet
 * on that chain, with the wallet's own key (wallet-keys.ts): on EVM the
 * signature recovers to the wallet's address, on Solana it verifies against
 * the wallet's address (its ed25519 public key), so a client can check it
 * before relaying.
 */

export interface RawSignature {
  txnSignature: string;
  /** On EVM only: r, s and v as the relaying example reads them. */
  txnSignatureData?: RawSignatureData;
  /** The bytes signed, hex without 0x: the 32-byte digest on EVM, the message itself on Solana. */
  digest: string;
}

const KEYLESS = (chain: string, address: string) =>
  `the vault's ${chain} wallet ${address} has no key in the sandbox (it was made before wallets had keys): sign with a vault created since`;

export type RawSigningOutcome = { signature: RawSignature } | { error: string } | null;

/** The signature this row's raw signing gets; null when it is no raw signing an EVM wallet signs. */
export async function rawSignatureFor(
  tx: Executor,
  row: Pick<TransactionRow, 'category' | 'contractData' | 'blockChain' | 'vaultId'>,
): Promise<RawSigningOutcome> {
  const messageHex = row.contractData?.['messageHex'];
  if (row.category !== 'CONTRACT_CALL' || typeof messageHex !== 'string') return null;
  const kind = chainInfo(row.blockChain)?.kind;
  if ((kind !== 'EVM' && kind !== 'SOLANA') || !row.vaultId) return null;
  const [wallet] = await tx
    .select({ id: wallets.id, address: wallets.address })
    .from(wallets)
    .where(and(eq(wallets.vaultId, row.vaultId), eq(wallets.blockchain, row.blockChain)))
    .limit(1);
  if (!wallet) return { error: `the vault has no wallet on ${row.blockChain} to sign with` };
  // A wallet made before the sandbox derived keys has an address no key of the sandbox's matches.
  if (kind === 'SOLANA') {
    if (keyedSolanaAddress(wallet.id) !== wallet.address)
      return { error: KEYLESS(row.blockChain, wallet.address) };
    const message = messageHex.replace(/^0x/i, '');
    const signature = ed25519.sign(hexToBytes(message), solanaSecretKey(wallet.id));
    return { signature: { txnSignature: `0x${bytesToHex(signature)}`, digest: message } };
  }
  if (keyedEvmAddress(wallet.id).toLowerCase() !== wallet.address.toLowerCase())
    return { error: KEYLESS(row.blockChain, wallet.address) };
  const digest = rawSigningDigest(messageHex);
  const signed = signDigest(digest, walletSecretKey(wallet.id));
  return { signature: { txnSignature: signed.signature, txnSignatureData: signed.data, digest } };
}
