import { expect } from 'vitest';
import { SigningChallenge } from '#contract/approval-signature.ts';
import type { PasskeyAssertion, StaffRole } from '#contract/auth.ts';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { approvalSigningChallenge } from '#contract/endpoints/approval-signatures.ts';
import type { App } from '../app.ts';
import { registrationOptions, verifyRegistration } from '../auth/passkeys.ts';
import { addPasskey } from '../auth/passkeys.store.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/client.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';
import { signInStaff, TEST_ORIGIN, type StaffSession } from './staff-session.ts';

/**
 * A member who signs decisions with a passkey, and what the browser does to
 * sign one: read the item's approval card, ask for the challenge over it,
 * sign it with the software authenticator (real ES256 keys).
 */

export interface Signer {
  session: StaffSession;
  key: SoftAuthenticator;
}

export interface SignedIntent {
  digest: string;
  nonce: string;
  credential: PasskeyAssertion;
}

const RP = { id: 'localhost', origin: TEST_ORIGIN, name: 'Custody Console' };

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** A member of `role` with one passkey registered, checked as the account page checks it. */
export async function withPasskey(
  t: { app: Pick<App, 'request'>; db: Database; authClock: Clock },
  name: string,
  role: StaffRole = 'approver',
): Promise<Signer> {
  const session = await signInStaff(t.app, t.db, t.authClock, { role, name });
  const key = new SoftAuthenticator();
  const options = await registrationOptions(RP, session.member, []);
  const { credential } = key.create(options, TEST_ORIGIN);
  const verdict = await verifyRegistration(RP, credential, options.challenge);
  if (!verdict.ok) throw new Error(verdict.reason);
  await addPasskey(t.db, session.member.id, `${name}'s key`, verdict.value, t.authClock.now());
  return { session, key };
}

/** The signer's passkey over the challenge of the card they are shown now. */
export async function signIntent(
  signer: Signer,
  entityId: string,
  action: 'approve' | 'reject' = 'approve',
): Promise<SignedIntent> {
  // Only its digest is read: a test's own kind has a card the contract's browser does not name.
  const shown = await signer.session.json(pathOf(approvalCard, { entityId }));
  expect(shown.status, JSON.stringify(shown.body)).toBe(200);
  const { digest } = shown.body as { digest: string };
  const res = await signer.session.json(
    pathOf(approvalSigningChallenge, { entityId }),
    post({ action, digest }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const challenge = SigningChallenge.parse(res.body);
  if (!challenge.options || !challenge.nonce) throw new Error('no challenge to sign');
  return {
    digest,
    nonce: challenge.nonce,
    credential: signer.key.get(challenge.options, TEST_ORIGIN),
  };
}
