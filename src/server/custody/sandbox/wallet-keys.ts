import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { chainInfo } from '#contract/chains.ts';
import { evmAddressOfPublicKey } from '#contract/raw-signature.ts';

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
 * A new wallet's address: on an EVM chain its key's, elsewhere `shaped` (an
 * address of the chain's shape, from no key).
 */
export function newWalletAddress(walletId: string, chain: string, shaped: () => string): string {
  return chainInfo(chain)?.kind === 'EVM' ? keyedEvmAddress(walletId) : shaped();
}
