import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import * as z from 'zod/mini';
import { PASSKEY_KINDS, PasskeyAssertion, PasskeyRequestOptions } from './auth.ts';
import { IsoTimestamp } from './common.ts';

/**
 * Signed approvals: a staff decision is a WebAuthn assertion over the approval
 * card's intent (contract/approval-card.ts) the member was shown. The
 * challenge the authenticator signs is derived from the decision, the item,
 * the intent's digest and a one-time server nonce, so a signature can be
 * checked again later by anyone holding the stored public key, with nothing
 * secret (`signingChallenge` below is the whole rule).
 */

/** The same two as the decision's `action` (approvals.ts imports this module, not the other way). */
const ApprovalAction = z.enum(['approve', 'reject']);
type ApprovalAction = z.infer<typeof ApprovalAction>;

const HEX_DIGEST = /^[0-9a-f]{64}$/;
const Digest = (field: string) =>
  z.string().check(z.regex(HEX_DIGEST, `${field} must be a SHA-256 digest in lower-case hex`));
const Nonce = z
  .string()
  .check(
    z.minLength(16, 'nonce is too short'),
    z.maxLength(200, 'nonce is too long'),
    z.regex(/^[A-Za-z0-9_-]+$/, 'nonce must be base64url'),
  );

/** Bumped if the challenge's derivation ever changes; stored with each signature. */
export const SIGNING_SCHEME = 'custody-console-approval-v1';

/**
 * The bytes an authenticator signs as its challenge: SHA-256 over one line
 * per field, in this order. Binding the action means an approval's signature
 * can never be replayed as a rejection (or the other way round).
 */
export function signingChallenge(parts: {
  action: ApprovalAction;
  entityId: string;
  digest: string;
  nonce: string;
}): Uint8Array {
  const text = [SIGNING_SCHEME, parts.action, parts.entityId, parts.digest, parts.nonce].join('\n');
  return sha256(utf8ToBytes(text));
}

/** POST /api/console/approval_cards/{entityId}/challenge/: the digest of the card the member sees. */
export const SigningChallengeRequest = z.strictObject({
  action: ApprovalAction,
  digest: Digest('digest'),
});
export type SigningChallengeRequest = z.infer<typeof SigningChallengeRequest>;

/**
 * The answer: whether this member signs, and if so what `navigator.credentials.get()`
 * takes (its challenge is `signingChallenge` of the request, the entity and
 * `nonce`, base64url). A card that changed since the member saw it is 409
 * CARD_CHANGED instead, so nobody signs a card they were not shown.
 */
export const SigningChallenge = z.strictObject({
  /** False: this member may decide unsigned (no passkey, and the setting allows it). */
  required: z.boolean(),
  digest: Digest('digest'),
  nonce: z.nullable(z.string()),
  expiresAt: z.nullable(IsoTimestamp),
  options: z.nullable(PasskeyRequestOptions),
});
export type SigningChallenge = z.infer<typeof SigningChallenge>;

/**
 * What a staff decision carries (the `intent` field of the decision's body):
 * the digest of the card the member saw — always, signed or not, so a
 * decision never lands on a card other than the one shown — and, when the
 * member signs, the nonce and the assertion.
 */
export const SignedIntent = z.strictObject({
  digest: Digest('intent.digest'),
  nonce: z.optional(Nonce),
  credential: z.optional(PasskeyAssertion),
});
export type SignedIntent = z.infer<typeof SignedIntent>;

/** One stored vote and what checking its signature again found. */
export const StoredSignature = z.strictObject({
  decidedBy: z.string(),
  decision: z.enum(['APPROVED', 'REJECTED']),
  decidedAt: IsoTimestamp,
  digest: z.string(),
  /** Null for a vote recorded without a signature (a member the setting let decide unsigned). */
  credentialName: z.nullable(z.string()),
  credentialKind: z.nullable(z.enum(PASSKEY_KINDS)),
  /** The assertion verifies against the stored public key, over the stored challenge parts. */
  valid: z.boolean(),
  /** Why not, in words; null when valid. */
  problem: z.nullable(z.string()),
  /** The vote counts toward the item's quorum (false when voided by a changed card). */
  counts: z.boolean(),
  /** Why the vote stopped counting: "the fee ceiling rose from 0.0021 ETH to 0.0050 ETH". */
  voidedBecause: z.nullable(z.string()),
});
export type StoredSignature = z.infer<typeof StoredSignature>;

/** GET /api/console/approval_signatures/{entityId}/: every stored vote on the item, verified again. */
export const ApprovalSignatures = z.strictObject({
  entityId: z.string(),
  /** The digest of the item's card now. */
  currentDigest: z.nullable(z.string()),
  signatures: z.array(StoredSignature),
  /** "2 of 2 signatures valid over intent 3f9a12c4…be01: Ada (security key) 14:02, Ben (passkey) 14:05". */
  summary: z.string(),
});
export type ApprovalSignatures = z.infer<typeof ApprovalSignatures>;
