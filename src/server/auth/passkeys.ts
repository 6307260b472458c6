import { randomFillSync } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Context } from 'hono';
import * as z from 'zod/mini';
import {
  PasskeyCreationOptions,
  PasskeyRequestOptions,
  type PasskeyAssertion,
  type PasskeyAttestation,
} from '#contract/auth.ts';
import { ApiError } from '#contract/api-error.ts';
import type { Database } from '../db/client.ts';
import type { AppEnv } from '../http/app-env.ts';
import { requestOrigin, type TrustProxy } from './csrf.ts';
import { findPasskey, recordUse, type NewPasskey, type StoredPasskey } from './passkeys.store.ts';

/**
 * Passkeys and security keys (WebAuthn) through @simplewebauthn/server: the
 * options a browser's `navigator.credentials.create()` and `.get()` take, and
 * the checks of what they answer. Why that library: it is the maintained
 * TypeScript implementation most others wrap, with no native parts, and it
 * verifies every attestation format and the counter rule itself; we only keep
 * its state (the challenge, the credential) in our database.
 *
 * Made to be reused wherever a member must prove they hold their key: the
 * caller makes a challenge (random here for a sign-in; it may be derived from
 * what is being signed), keeps it until the answer comes back, makes sure it
 * is used once, and asks `verifyAssertion` which of the member's keys signed.
 */

export interface RelyingParty {
  /** The host name passkeys are bound to (`console.example.com`, `localhost`). */
  id: string;
  /** The page origin every answer must come from (`https://console.example.com`). */
  origin: string;
  name: string;
}

const RP_NAME = 'Custody Console';
const TIMEOUT_MS = 120_000;
const TRANSPORTS: readonly AuthenticatorTransport[] = ['ble', 'hybrid', 'internal', 'nfc', 'usb'];

/**
 * The relying party of this request: the public origin the browser used
 * (`Host`, or X-Forwarded-Host behind a trusted proxy), which
 * http/public-origin.ts has already held to PUBLIC_URL and, on loopback, its
 * local names. A passkey registered under one name works only under it.
 */
export function relyingParty(c: Context<AppEnv>, trustProxy: TrustProxy): RelyingParty {
  const origin = requestOrigin(c, trustProxy);
  const allowed = c.get('allowedOrigins');
  if (allowed && !allowed.has(origin))
    throw new ApiError(
      421,
      'UNKNOWN_HOST',
      `This console does not answer as ${origin.slice(0, 100)}`,
    );
  return { id: new URL(origin).hostname, origin, name: RP_NAME };
}

type Bytes = Uint8Array<ArrayBuffer>;

/** 32 random bytes: a sign-in's or a registration's challenge. */
export function newChallenge(): Bytes {
  return randomFillSync(new Uint8Array(new ArrayBuffer(32)));
}

const descriptor = (passkey: Pick<StoredPasskey, 'credentialId' | 'transports'>) => ({
  id: passkey.credentialId,
  transports: passkey.transports.filter((t): t is AuthenticatorTransport =>
    (TRANSPORTS as readonly string[]).includes(t),
  ),
});

/**
 * What the browser creates a new credential from: this member, this relying
 * party, none of the member's keys again, attestation `none` (which
 * authenticator it is is the member's business; that they hold it is ours).
 * The answer's `challenge` (base64url) is what the caller keeps.
 */
export async function registrationOptions(
  rp: RelyingParty,
  member: { id: string; email: string; name: string },
  existing: readonly StoredPasskey[],
  challenge: Bytes = newChallenge(),
): Promise<PasskeyCreationOptions> {
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: member.email,
    userDisplayName: member.name,
    userID: new TextEncoder().encode(member.id),
    challenge,
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map(descriptor),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  return z.parse(PasskeyCreationOptions, options);
}

export type Verdict<T> = { ok: true; value: T } | { ok: false; reason: string };

function why(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : 'it could not be read';
}

/** Checks a new credential against the registration's challenge, this origin and relying party. */
export async function verifyRegistration(
  rp: RelyingParty,
  credential: PasskeyAttestation,
  expectedChallenge: string,
): Promise<Verdict<NewPasskey>> {
  try {
    const result = await verifyRegistrationResponse({
      // The contract's schema is the same JSON, its transports as plain strings.
      response: credential as unknown as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      // A security key without a PIN proves presence only; the password came first.
      requireUserVerification: false,
    });
    if (!result.verified) return { ok: false, reason: 'the credential was not verified' };
    const info = result.registrationInfo;
    return {
      ok: true,
      value: {
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: (credential.response.transports ?? []).filter((t) =>
          (TRANSPORTS as readonly string[]).includes(t),
        ),
        multiDevice: info.credentialDeviceType === 'multiDevice',
      },
    };
  } catch (error) {
    return { ok: false, reason: why(error) };
  }
}

/** What the browser signs with one of `passkeys`: `challenge` (base64url in the answer). */
export async function assertionOptions(
  rp: RelyingParty,
  passkeys: readonly StoredPasskey[],
  challenge: Bytes = newChallenge(),
): Promise<PasskeyRequestOptions> {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: passkeys.map(descriptor),
    challenge,
    timeout: TIMEOUT_MS,
    userVerification: 'preferred',
  });
  return z.parse(PasskeyRequestOptions, options);
}

/**
 * Verifies an assertion by one of this member's passkeys over
 * `expectedChallenge` (base64url, as `assertionOptions` answered it), from
 * this origin and relying party, and records its use (the counter must have
 * grown where the authenticator keeps one). Answers which passkey signed. A
 * credential of another member, or none, is refused like a bad signature.
 * The caller makes sure a challenge is accepted once.
 */
export async function verifyAssertion(
  db: Database,
  rp: RelyingParty,
  staffId: string,
  assertion: PasskeyAssertion,
  expectedChallenge: string,
  now: Date,
): Promise<Verdict<StoredPasskey>> {
  if (assertion.id !== assertion.rawId)
    return { ok: false, reason: 'the credential id and raw id differ' };
  const passkey = await findPasskey(db, staffId, assertion.id);
  if (!passkey) return { ok: false, reason: 'the key is not one of this member’s passkeys' };
  let newCounter: number;
  try {
    const result = await verifyAuthenticationResponse({
      response: assertion as unknown as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: descriptor(passkey).transports,
      },
      requireUserVerification: false,
    });
    if (!result.verified) return { ok: false, reason: 'the signature was not verified' };
    newCounter = result.authenticationInfo.newCounter;
  } catch (error) {
    return { ok: false, reason: why(error) };
  }
  if (!(await recordUse(db, passkey, newCounter, now)))
    return { ok: false, reason: 'the key’s counter did not grow (a copied key, or a replay)' };
  return { ok: true, value: { ...passkey, counter: newCounter, lastUsedAt: now } };
}
