import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type {
  PasskeyAssertion,
  PasskeyAttestation,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
} from '#contract/auth.ts';

/**
 * A software authenticator for tests: real WebAuthn answers made with
 * node:crypto, so the server's checks run on what a browser would send. Each
 * credential is an ES256 (P-256) key; registration answers attestation
 * `none`; each assertion signs authenticator data and the client data's hash
 * as an authenticator does. Its counter grows by one per assertion unless a
 * test sets it. Nothing here is used by the server.
 */

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

// ---- The little CBOR an attestation object and a COSE key need (RFC 8949) ----

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const out = Buffer.alloc(3);
  out[0] = (major << 5) | 25;
  out.writeUInt16BE(length, 1);
  return out;
}

type Cbor = number | string | Buffer | Map<Cbor, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

/** The credential's public key as COSE: EC2, ES256, P-256, x and y. */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  return cbor(
    new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]),
  );
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer) {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter, 0);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
}

export interface SoftCredential {
  id: string;
  rpId: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  /** The signature count the next assertion carries is this plus one. */
  counter: number;
}

/** What a test may change about an answer: where it says it came from, its RP, its counter. */
export interface Tamper {
  origin?: string;
  rpId?: string;
  /** The counter this assertion carries (otherwise the credential's, plus one). */
  counter?: number;
  challenge?: string;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** `navigator.credentials.create()`: a new ES256 credential, attestation `none`. */
  create(
    options: PasskeyCreationOptions,
    origin: string,
    tamper: Tamper = {},
  ): { credential: PasskeyAttestation; stored: SoftCredential } {
    const rpId = tamper.rpId ?? options.rp.id ?? new URL(origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rawId = randomBytes(32);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length, 0);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, rawId, coseKey(publicKey)]);
    const authData = authenticatorData(rpId, FLAG_UP | FLAG_UV | FLAG_AT, 0, attested);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.create',
        challenge: tamper.challenge ?? options.challenge,
        origin: tamper.origin ?? origin,
        crossOrigin: false,
      }),
    );
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const stored: SoftCredential = {
      id: b64url(rawId),
      rpId,
      privateKey,
      publicKey,
      userHandle: options.user.id,
      counter: 0,
    };
    this.credentials.push(stored);
    return {
      stored,
      credential: {
        id: stored.id,
        rawId: stored.id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      },
    };
  }

  /** `navigator.credentials.get()` with `credential` (the first allowed one of this authenticator by default). */
  get(
    options: PasskeyRequestOptions,
    origin: string,
    tamper: Tamper = {},
    credential: SoftCredential | undefined = this.credentials.find((c) =>
      (options.allowCredentials ?? []).some((allowed) => allowed.id === c.id),
    ),
  ): PasskeyAssertion {
    if (!credential)
      throw new Error('SoftAuthenticator: no credential of this authenticator is allowed');
    const counter = tamper.counter ?? credential.counter + 1;
    credential.counter = counter;
    const authData = authenticatorData(
      tamper.rpId ?? options.rpId ?? credential.rpId,
      FLAG_UP | FLAG_UV,
      counter,
    );
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: tamper.challenge ?? options.challenge,
        origin: tamper.origin ?? origin,
        crossOrigin: false,
      }),
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
