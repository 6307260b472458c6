import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { chainInfo } from '#contract/chains.ts';
import { base58Encode, evmAddressOfPublicKey } from '#contract/raw-signature.ts';

/**
 * A sandbox wallet's key on an EVM chain: derived from the wallet's id, so
 * the sandbox stores no key and a wallet signs the same way after a restart.
 * These keys are not secret (anyone with this code can derive them): the
 * sandbox's wallets hold no value. Its address is the key's address, so a raw
 * signature (engine/raw-signing.ts) recovers to it with `ecrecover`.
 */
const LABEL = new TextEncoder().encode('custody-console sandbox wallet key v1');

export function walletSecretKey(walletId: string): Uint8Array {
  let candidate = hmac(sha256, LABEL, new TextEncoder().encode(walletId));
  // A digest outside the curve's order is vanishingly rare; hash again until one fits.
  while (!secp256k1.utils.isValidSecretKey(candidate)) candidate = sha256(candidate);
  return candidate;
}

/** The address of the wallet's key. */
export function keyedEvmAddress(walletId: string): string {
  return evmAddressOfPublicKey(secp256k1.getPublicKey(walletSecretKey(walletId), false));
}

/**
 * A Solana wallet's ed25519 key, derived from the wallet's id under a label of
 * its own (so it shares nothing with the secp256k1 key): any 32 bytes are a
 * valid ed25519 secret.
 */
const SOLANA_LABEL = new TextEncoder().encode('custody-console sandbox solana wallet key v1');

export function solanaSecretKey(walletId: string): Uint8Array {
  return hmac(sha256, SOLANA_LABEL, new TextEncoder().encode(walletId));
}

/** The Solana address of the wallet's key: its public key in base58. */
export function keyedSolanaAddress(walletId: string): string {
  return base58Encode(ed25519.getPublicKey(solanaSecretKey(walletId)));
}

/**
 * A new wallet's address: on an EVM chain or Solana its key's, elsewhere
 * `shaped` (an address of the chain's shape, from no key).
 */
export function newWalletAddress(walletId: string, chain: string, shaped: () => string): string {
  const kind = chainInfo(chain)?.kind;
  if (kind === 'EVM') return keyedEvmAddress(walletId);
  if (kind === 'SOLANA') return keyedSolanaAddress(walletId);
  return shaped();
}
