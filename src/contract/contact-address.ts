import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { addressProblem } from './addresses.ts';
import { chainInfo } from './chains.ts';

/**
 * The address-book rule for a contact's address: the chain's format
 * (addresses.ts) and, where the chain's addresses carry one, their checksum,
 * so that a mistyped character is caught before anyone approves the
 * contact. A contact is paid again and again without anyone re-reading its
 * address. A transfer's or delegation's typed external address is held to the
 * same checksums (`addressChecksumProblem`): a one-off payment to a mistyped
 * address is lost just the same.
 *
 * - EVM: EIP-55. An all-lowercase (or all-uppercase) address carries no
 *   checksum and is accepted, then stored and shown checksummed; a
 *   mixed-case one must match its checksum exactly.
 * - Bitcoin: legacy addresses (1…, 3…) are base58check (a double SHA-256
 *   checksum, version 0x00 or 0x05); bc1… addresses are bech32 (witness
 *   version 0, BIP-173) or bech32m (version 1 and above, BIP-350).
 * - Tron: base58check of 21 bytes beginning 0x41.
 * - Solana: base58 of exactly 32 bytes (its addresses have no checksum).
 * - Internet Computer: the format only.
 *
 * Plain functions over @noble/hashes, loaded with the forms: the propose
 * form and the server refuse the same addresses with the same words.
 */

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 spelling of a 0x address (any case in, checksummed out). */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < hex.length; i += 1) {
    const char = hex[i] ?? '';
    const byte = hash[i >> 1] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    out += nibble >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

function evmChecksumProblem(address: string): string | null {
  const body = address.slice(2);
  // One case throughout: no checksum was written, so there is none to check.
  if (body === body.toLowerCase() || body === body.toUpperCase()) return null;
  if (toChecksumAddress(address) === address) return null;
  return 'address has mixed-case letters that do not match its EIP-55 checksum: a character is probably mistyped. Check it against the source, or enter it all in lowercase';
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 to bytes (leading '1's are zero bytes); undefined for a character outside the alphabet. */
function base58Decode(text: string): Uint8Array | undefined {
  const bytes: number[] = [];
  for (const char of text) {
    let carry = BASE58_ALPHABET.indexOf(char);
    if (carry < 0) return undefined;
    for (let i = 0; i < bytes.length; i += 1) {
      carry += (bytes[i] ?? 0) * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (const char of text) {
    if (char !== '1') break;
    bytes.push(0);
  }
  return Uint8Array.from(bytes.reverse());
}

/** The payload of a base58check string whose checksum holds, or undefined. */
function base58CheckPayload(text: string): Uint8Array | undefined {
  const bytes = base58Decode(text);
  if (!bytes || bytes.length < 5) return undefined;
  const payload = bytes.slice(0, -4);
  const check = sha256(sha256(payload));
  for (let i = 0; i < 4; i += 1) if (bytes[payload.length + i] !== check[i]) return undefined;
  return payload;
}

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;

function bech32Polymod(values: number[]): number {
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const value of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i += 1) if ((top >>> i) & 1) chk ^= generators[i] ?? 0;
  }
  return chk >>> 0;
}

/** Why a bc1… address is not a valid segwit address, or null. */
function bech32Problem(address: string): string | null {
  const separator = address.lastIndexOf('1');
  const hrp = address.slice(0, separator);
  const data: number[] = [];
  for (const char of address.slice(separator + 1)) data.push(BECH32_CHARSET.indexOf(char));
  if (hrp !== 'bc' || data.length < 7 || data.some((d) => d < 0)) {
    return 'address is not a valid bc1 (bech32) address';
  }
  const expanded = [
    ...[...hrp].map((c) => c.charCodeAt(0) >> 5),
    0,
    ...[...hrp].map((c) => c.charCodeAt(0) & 31),
  ];
  const witnessVersion = data[0] ?? 0;
  const constant = bech32Polymod([...expanded, ...data]);
  const expected = witnessVersion === 0 ? BECH32_CONST : BECH32M_CONST;
  if (constant !== expected) {
    return `address fails its ${witnessVersion === 0 ? 'bech32' : 'bech32m'} checksum: a character is probably mistyped`;
  }
  // The witness program: 5-bit groups back to bytes, 2 to 40 of them (20 or 32 for version 0).
  const groups = data.slice(1, -6);
  const programBytes = Math.floor((groups.length * 5) / 8);
  if (
    witnessVersion > 16 ||
    programBytes < 2 ||
    programBytes > 40 ||
    (witnessVersion === 0 && programBytes !== 20 && programBytes !== 32)
  ) {
    return 'address is not a valid bc1 (bech32) address: its witness program has the wrong length';
  }
  return null;
}

function checksumProblem(kind: string, address: string): string | null {
  switch (kind) {
    case 'EVM':
      return HEX_ADDRESS.test(address) ? evmChecksumProblem(address) : null;
    case 'UTXO': {
      if (address.startsWith('bc1')) return bech32Problem(address);
      const payload = base58CheckPayload(address);
      if (!payload) {
        return 'address fails its base58check checksum: a character is probably mistyped';
      }
      if (payload.length !== 21 || (payload[0] !== 0x00 && payload[0] !== 0x05)) {
        return 'address is not a Bitcoin address: its version byte is not 0x00 (1…) or 0x05 (3…)';
      }
      return null;
    }
    case 'TRON': {
      const payload = base58CheckPayload(address);
      if (!payload) {
        return 'address fails its base58check checksum: a character is probably mistyped';
      }
      if (payload.length !== 21 || payload[0] !== 0x41) {
        return 'address is not a Tron address: it must decode to 21 bytes beginning 0x41';
      }
      return null;
    }
    case 'SOLANA':
      return base58Decode(address)?.length === 32
        ? null
        : 'address is not a Solana address: it must be base58 of exactly 32 bytes';
    default:
      return null;
  }
}

/**
 * Why `address` cannot be a contact on `blockChain`, or null: the chain's
 * format first (the message names the field), then its checksum. A chain
 * this console does not know has no rule here: the custody API decides.
 */
export function contactAddressProblem(blockChain: string, address: string): string | null {
  const format = addressProblem(blockChain, address);
  if (format) return `address is ${format}`;
  const chain = chainInfo(blockChain);
  return chain ? checksumProblem(chain.kind, address) : null;
}

/**
 * Why `address`, already in `blockChain`'s format (addresses.ts), fails the
 * chain's checksum, or null: the rule the transfer form and the server apply
 * to a typed external destination, in the same words as a contact's.
 */
export function addressChecksumProblem(blockChain: string, address: string): string | null {
  const chain = chainInfo(blockChain);
  if (!chain || addressProblem(blockChain, address)) return null;
  return checksumProblem(chain.kind, address);
}

/** The address as stored and shown: EIP-55 on EVM chains, as given elsewhere. */
export function canonicalContactAddress(blockChain: string, address: string): string {
  const chain = chainInfo(blockChain);
  return chain?.kind === 'EVM' && HEX_ADDRESS.test(address) ? toChecksumAddress(address) : address;
}
