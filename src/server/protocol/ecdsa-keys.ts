import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';

/**
 * ECDSA P-256 / SHA-256 keys and signatures as the custody API's clients use
 * them: keys as PKCS#8 / SPKI DER in hex or as PEM, signatures
 * DER-encoded and, outside the token, written in hex.
 */

/** A key as configured (hex DER or PEM) or already parsed. */
export type KeyInput = string | KeyObject;

export class KeyFormatError extends Error {
  override name = 'KeyFormatError';
}

const HEX = /^(?:0x)?((?:[0-9a-fA-F]{2})+)$/;
// SPKI headers for a bare P-256 point, so a public key registered as the raw
// point (65 bytes 04‖X‖Y, or 33 bytes compressed) parses like an SPKI one.
const SPKI_P256_UNCOMPRESSED = '3059301306072a8648ce3d020106082a8648ce3d030107034200';
const SPKI_P256_COMPRESSED = '3039301306072a8648ce3d020106082a8648ce3d030107032200';

/** Hex bytes (optional 0x) to a Buffer, or undefined when it is not hex. */
function hexToBytes(text: string): Buffer | undefined {
  const match = HEX.exec(text.trim());
  return match?.[1] === undefined ? undefined : Buffer.from(match[1], 'hex');
}

// Keys pasted into an environment variable often carry "\n" literally.
function pemText(text: string): string | undefined {
  return text.includes('-----BEGIN') ? text.replace(/\\n/g, '\n') : undefined;
}

function firstThatParses(attempts: readonly (() => KeyObject)[]): KeyObject | undefined {
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {
      // try the next encoding
    }
  }
  return undefined;
}

function requireP256(key: KeyObject, kind: 'private' | 'public'): KeyObject {
  if (key.type !== kind) throw new KeyFormatError(`expected a ${kind} key, got a ${key.type} key`);
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType !== 'ec' || curve !== 'prime256v1') {
    const what =
      key.asymmetricKeyType === 'ec' ? `EC ${curve ?? 'unknown curve'}` : key.asymmetricKeyType;
    throw new KeyFormatError(
      `expected an ECDSA P-256 ${kind} key, got ${what ?? 'an unknown key type'}`,
    );
  }
  return key;
}

/** A private key from PKCS#8 DER hex (SEC1 DER tolerated) or PEM. */
export function parsePrivateKey(input: KeyInput): KeyObject {
  if (typeof input !== 'string') return requireP256(input, 'private');
  const pem = pemText(input);
  const der = pem === undefined ? hexToBytes(input) : undefined;
  const key =
    pem !== undefined
      ? firstThatParses([() => createPrivateKey(pem)])
      : der !== undefined
        ? firstThatParses([
            () => createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }),
            () => createPrivateKey({ key: der, format: 'der', type: 'sec1' }),
          ])
        : undefined;
  if (!key) throw new KeyFormatError('private key is neither PEM nor PKCS#8 DER in hex');
  return requireP256(key, 'private');
}

/** A public key from SPKI DER hex, a raw P-256 point in hex, or PEM. */
export function parsePublicKey(input: KeyInput): KeyObject {
  if (typeof input !== 'string') return requireP256(input, 'public');
  const pem = pemText(input);
  const der = pem === undefined ? hexToBytes(input) : undefined;
  const spki = (prefix: string) => () =>
    createPublicKey({
      key: Buffer.concat([Buffer.from(prefix, 'hex'), der ?? Buffer.alloc(0)]),
      format: 'der',
      type: 'spki',
    });
  const key =
    pem !== undefined
      ? firstThatParses([() => createPublicKey(pem)])
      : der === undefined
        ? undefined
        : der.length === 65 && der[0] === 0x04
          ? firstThatParses([spki(SPKI_P256_UNCOMPRESSED)])
          : der.length === 33 && (der[0] === 0x02 || der[0] === 0x03)
            ? firstThatParses([spki(SPKI_P256_COMPRESSED)])
            : firstThatParses([() => createPublicKey({ key: der, format: 'der', type: 'spki' })]);
  if (!key)
    throw new KeyFormatError('public key is neither PEM nor SPKI DER (or a P-256 point) in hex');
  return requireP256(key, 'public');
}

/** A fresh API user key pair: PKCS#8 DER hex for the client, SPKI DER hex for the server. */
export function generateApiUserKeyPair(): { privateKeyHex: string; publicKeyHex: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
    privateKeyEncoding: { type: 'pkcs8', format: 'der' },
    publicKeyEncoding: { type: 'spki', format: 'der' },
  });
  return { privateKeyHex: privateKey.toString('hex'), publicKeyHex: publicKey.toString('hex') };
}

/** ECDSA P-256 / SHA-256 signature of a UTF-8 string, DER-encoded. */
export function signDer(data: string, privateKey: KeyInput): Buffer {
  return sign('sha256', Buffer.from(data, 'utf8'), {
    key: parsePrivateKey(privateKey),
    dsaEncoding: 'der',
  });
}

/**
 * Checks a DER-encoded ECDSA P-256 / SHA-256 signature; false for anything
 * malformed. Both halves of s are accepted, on purpose: the
 * provider's SDKs sign with OpenSSL (Node's crypto, Python's `cryptography`)
 * or AWS KMS, none of which normalises s, so about half of what they send is
 * "high-S", and refusing it would fail every other request. Malleability
 * gives nothing here: no signature is ever an identifier or stored as one. A
 * request token's twin carries the same signed jti and is refused as a
 * replay; an approval is decided once (409 ALREADY_DECIDED); a
 * dataSignatureHex counts only beside a token, whose jti is single-use.
 */
export function verifyDer(data: string, signature: Buffer, publicKey: KeyInput): boolean {
  // Parsed outside the try: a misconfigured key is an error, not a bad signature.
  const key = parsePublicKey(publicKey);
  if (!isDerEcdsaSignature(signature)) return false;
  try {
    return verify('sha256', Buffer.from(data, 'utf8'), { key, dsaEncoding: 'der' }, signature);
  } catch {
    return false;
  }
}

/**
 * Whether bytes have the shape of a DER ECDSA signature,
 * SEQUENCE { INTEGER r, INTEGER s } with short-form lengths (always the case
 * for P-256). Lets a caller tell a raw r‖s signature from a corrupt one.
 */
export function isDerEcdsaSignature(bytes: Uint8Array): boolean {
  if (bytes.length < 8 || bytes[0] !== 0x30 || bytes[1] !== bytes.length - 2) return false;
  const rLength = bytes[3] ?? 0;
  const sAt = 4 + rLength;
  const sLength = bytes[sAt + 1] ?? 0;
  return (
    bytes[2] === 0x02 &&
    rLength > 0 &&
    rLength <= 33 &&
    bytes[sAt] === 0x02 &&
    sLength > 0 &&
    sLength <= 33 &&
    sAt + 2 + sLength === bytes.length
  );
}

// --- Change-request approvals ------------------------------------------------

/** The approver's signature of an approval `message`: DER hex. */
export function signApprovalMessage(message: string, privateKey: KeyInput): string {
  return signDer(message, privateKey).toString('hex');
}

export function verifyApprovalSignature(
  message: string,
  signatureHex: string,
  publicKey: KeyInput,
): boolean {
  const signature = hexToBytes(signatureHex);
  return signature !== undefined && verifyDer(message, signature, publicKey);
}

// --- The Python SDK's body signature -------------------------------------------

/** The field the Python SDK adds to every JSON body it sends. */
export const DATA_SIGNATURE_FIELD = 'dataSignatureHex';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The body as signed and hashed: without a top-level `dataSignatureHex`. */
export function withoutDataSignature(body: unknown): unknown {
  if (!isPlainObject(body) || !Object.hasOwn(body, DATA_SIGNATURE_FIELD)) return body;
  const { [DATA_SIGNATURE_FIELD]: _signature, ...rest } = body;
  return rest;
}

/** `dataSignatureHex` for a body, as the Python SDK computes it. */
export function signDataSignature(body: unknown, privateKey: KeyInput): string {
  return signDer(canonicalJson(withoutDataSignature(body)), privateKey).toString('hex');
}

/** Whether the body carries a valid `dataSignatureHex`; false when it carries none. */
export function verifyDataSignature(body: unknown, publicKey: KeyInput): boolean {
  if (!isPlainObject(body)) return false;
  const signatureHex = body[DATA_SIGNATURE_FIELD];
  if (typeof signatureHex !== 'string') return false;
  const signature = hexToBytes(signatureHex);
  return (
    signature !== undefined &&
    verifyDer(canonicalJson(withoutDataSignature(body)), signature, publicKey)
  );
}
