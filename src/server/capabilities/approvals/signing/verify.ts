import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import {
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/server';
import { shortDigest } from '#contract/approval-card.ts';
import {
  signingChallenge,
  SIGNING_SCHEME,
  type ApprovalSignatures,
  type StoredSignature,
} from '#contract/approval-signature.ts';
import type { StoredSignatureRow } from './signatures.store.ts';

/**
 * A stored decision checked again from what was stored alone, as anyone
 * holding the database could: the stored card hashes to the stored digest;
 * the assertion's client data names the challenge `signingChallenge` makes of
 * the stored decision, item, digest and nonce, and the console's origin; its
 * signature over authenticatorData ‖ SHA-256(clientDataJSON) verifies with
 * the public key stored with it. Nothing is trusted from the passkeys table
 * (a key may have been removed since) and no counter is compared (that was
 * checked when the decision was made).
 */

const actionOf = (decision: StoredSignatureRow['decision']) =>
  decision === 'APPROVED' ? 'approve' : 'reject';

function why(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : 'it could not be read';
}

/** Null when the stored signature verifies; otherwise what is wrong, in words. */
export async function storedSignatureProblem(row: StoredSignatureRow): Promise<string | null> {
  if (bytesToHex(sha256(utf8ToBytes(row.card))) !== row.digest)
    return 'the stored card does not hash to the digest signed';
  if (
    !row.nonce ||
    !row.assertion ||
    !row.publicKey ||
    !row.credentialId ||
    !row.rpId ||
    !row.origin
  )
    return 'recorded without a signature';
  if (row.scheme !== SIGNING_SCHEME) return `an unknown signing scheme (${row.scheme})`;
  if (row.assertion.id !== row.credentialId)
    return 'the assertion is not by the credential stored with it';
  const challenge = signingChallenge({
    action: actionOf(row.decision),
    entityId: row.entityId,
    digest: row.digest,
    nonce: row.nonce,
  });
  try {
    const result = await verifyAuthenticationResponse({
      response: row.assertion as unknown as AuthenticationResponseJSON,
      expectedChallenge: Buffer.from(challenge).toString('base64url'),
      expectedOrigin: row.origin,
      expectedRPID: row.rpId,
      credential: {
        id: row.credentialId,
        publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
        counter: 0,
      },
      requireUserVerification: false,
    });
    return result.verified ? null : 'the signature does not verify';
  } catch (error) {
    return why(error);
  }
}

export async function checkStored(row: StoredSignatureRow): Promise<StoredSignature> {
  const problem = await storedSignatureProblem(row);
  return {
    decidedBy: row.staffName,
    decision: row.decision,
    decidedAt: row.decidedAt.toISOString(),
    digest: row.digest,
    credentialName: row.nonce ? row.credentialName : null,
    credentialKind: row.nonce ? row.credentialKind : null,
    valid: problem === null,
    problem,
    counts: row.voidedBecause === null,
    voidedBecause: row.voidedBecause,
  };
}

/** "14:02": the time of day a decision was made, UTC, as the summary and the CLI show it. */
function timeOfDay(iso: string): string {
  return iso.slice(11, 16);
}

/**
 * "2 of 2 signatures valid over intent 3f9a12c4…be01: Ada (security key) 14:02,
 * Ben (passkey) 14:05", with decisions recorded unsigned named after it.
 */
export function summaryOf(signatures: readonly StoredSignature[]): string {
  const signed = signatures.filter((s) => s.credentialKind !== null);
  const unsigned = signatures.filter((s) => s.credentialKind === null);
  const digests = [...new Set(signed.map((s) => s.digest))];
  const over =
    digests.length === 1 ? `intent ${shortDigest(digests[0] ?? '')}` : `${digests.length} intents`;
  const who = signed
    .map((s) => `${s.decidedBy} (${s.credentialKind ?? ''}) ${timeOfDay(s.decidedAt)}`)
    .join(', ');
  const valid = signed.filter((s) => s.valid).length;
  const head =
    signed.length === 0
      ? 'No signed decisions'
      : `${valid} of ${signed.length} ${signed.length === 1 ? 'signature' : 'signatures'} valid over ${over}: ${who}`;
  const rest = unsigned.length
    ? `; unsigned: ${unsigned.map((s) => `${s.decidedBy} ${timeOfDay(s.decidedAt)}`).join(', ')}`
    : '';
  return `${head}${rest}`;
}

/** Every stored decision on an item, checked again, and the line that sums them up. */
export async function verifiedSignatures(
  entityId: string,
  currentDigest: string | null,
  rows: readonly StoredSignatureRow[],
): Promise<ApprovalSignatures> {
  const signatures = await Promise.all(rows.map(checkStored));
  return { entityId, currentDigest, signatures, summary: summaryOf(signatures) };
}
