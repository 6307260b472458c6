import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { toChecksumAddress } from './contact-address.ts';

/**
 * A raw signature (a contract call whose `data` is `{messageHex}`) on an EVM
 * chain: what is signed and how anyone checks who signed it. One module for
 * the sandbox that signs, the tests that check it as a relaying client would,
 * and the transaction page that shows the check.
 *
 * What is signed: a message of exactly 32 bytes is taken to be a hash already
 * (what a relaying client sends: the unsigned transaction's hash) and is signed
 * as it is; any other length is hashed with keccak-256 first. The signature is
 * `r ‖ s ‖ v` in hex with `v` 27 or 28, as `ecrecover` takes it.
 *
 * On Solana the message's bytes themselves are signed with the wallet's
 * ed25519 key (a Solana transaction's signature is over its serialized
 * message, not a hash of it): 64 bytes in hex, checked against the wallet's
 * address, which is its public key in base58.
 */

/** The 32 bytes signed for `messageHex`, in hex without 0x. */
export function rawSigningDigest(messageHex: string): string {
  const bytes = hexToBytes(messageHex.replace(/^0x/i, ''));
  return bytesToHex(bytes.length === 32 ? bytes : keccak_256(bytes));
}

/** The address of an uncompressed (65-byte) secp256k1 public key: the last 20 bytes of its keccak-256, EIP-55. */
export function evmAddressOfPublicKey(publicKey: Uint8Array): string {
  return toChecksumAddress(`0x${bytesToHex(keccak_256(publicKey.slice(1)).slice(-20))}`);
}

/** `txnSignatureData` as the provider's relaying example reads it: r and s as decimal integers, v 27 or 28. */
// A type rather than an interface: it is kept in the answer's open record of parts.
export type RawSignatureData = { r: string; s: string; v: number };

/** The address that signed `digestHex` with `signatureHex` (`r ‖ s ‖ v`), or null when it recovers none. */
export function recoverSigner(digestHex: string, signatureHex: string): string | null {
  try {
    const bytes = hexToBytes(signatureHex.replace(/^0x/i, ''));
    if (bytes.length !== 65) return null;
    const v = bytes[64] ?? 0;
    const recovery = v >= 27 ? v - 27 : v;
    if (recovery !== 0 && recovery !== 1) return null;
    // noble's recovered format puts the recovery byte first.
    const recovered = new Uint8Array(65);
    recovered[0] = recovery;
    recovered.set(bytes.slice(0, 64), 1);
    const publicKey = secp256k1.recoverPublicKey(recovered, hexToBytes(digestHex), {
      prehash: false,
    });
    const point = secp256k1.Point.fromBytes(publicKey);
    return evmAddressOfPublicKey(point.toBytes(false));
  } catch {
    return null;
  }
}

/** Signs a digest with a secp256k1 secret key: the hex signature and its parts. */
export function signDigest(
  digestHex: string,
  secretKey: Uint8Array,
): { signature: string; data: RawSignatureData } {
  const recovered = secp256k1.sign(hexToBytes(digestHex), secretKey, {
    prehash: false,
    format: 'recovered',
  });
  const recovery = recovered[0] ?? 0;
  const rs = recovered.slice(1);
  const v = 27 + recovery;
  const r = BigInt(`0x${bytesToHex(rs.slice(0, 32))}`).toString();
  const s = BigInt(`0x${bytesToHex(rs.slice(32))}`).toString();
  return { signature: `0x${bytesToHex(rs)}${v.toString(16)}`, data: { r, s, v } };
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Bytes in base58, Bitcoin's alphabet (a leading zero byte is a leading "1"). */
export function base58Encode(bytes: Uint8Array): string {
  let value = BigInt(`0x${bytesToHex(bytes) || '0'}`);
  let text = '';
  while (value > 0n) {
    // eslint-disable-next-line no-restricted-syntax -- a base58 digit's index (0–57), no amount
    text = `${BASE58[Number(value % 58n)] ?? ''}${text}`;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

function base58Decode(text: string): Uint8Array | null {
  let value = 0n;
  for (const ch of text) {
    const digit = BASE58.indexOf(ch);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const body = hexToBytes(hex.length % 2 === 0 ? hex : `0${hex}`);
  const zeros = text.length - text.replace(/^1+/, '').length;
  const bytes = new Uint8Array(zeros + body.length);
  bytes.set(body, zeros);
  return bytes;
}

/** Whether `signatureHex` is the ed25519 signature of `messageHex`'s bytes by the key whose base58 is `address`. */
export function verifySolanaSignature(
  messageHex: string,
  signatureHex: string,
  address: string,
): boolean {
  try {
    const publicKey = base58Decode(address);
    const signature = hexToBytes(signatureHex.replace(/^0x/i, ''));
    if (!publicKey || publicKey.length !== 32 || signature.length !== 64) return false;
    return ed25519.verify(signature, hexToBytes(messageHex.replace(/^0x/i, '')), publicKey);
  } catch {
    return false;
  }
}
