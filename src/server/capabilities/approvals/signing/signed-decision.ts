import type { Context } from 'hono';
import type { ApprovalCardIntent, ApprovalCardResponse } from '#contract/approval-card.ts';
import { canonicalJson } from '#contract/approval-card.ts';
import {
  signingChallenge,
  type SigningChallenge,
  type SigningChallengeRequest,
} from '#contract/approval-signature.ts';
import type { ApprovalActionRequest, ApprovalActionResponse } from '#contract/approvals.ts';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import {
  assertionOptions,
  relyingParty,
  verifyAssertion,
  type RelyingParty,
} from '../../../auth/passkeys.ts';
import { listPasskeys, passkeyKind } from '../../../auth/passkeys.store.ts';
import type { AuthOptions } from '../../../auth/session-auth.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import { custodyContext } from '../../../custody/context.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { approvalCardOf } from '../card/card.ts';
import { cardShown } from '../card/cards-shown.ts';
import type { ApprovableKind, CardContext } from '../core/kind.ts';
import { intentChange } from '#contract/card-changes.ts';
import { votedSince } from '../../policies/votes.store.ts';
import { consumeNonce, createNonce, recordSignature } from './signatures.store.ts';

/**
 * Signed approvals (contract/approval-signature.ts), for staff decisions made
 * in the console: the challenge a member's passkey signs over the card they
 * see, and the decision checked against it before anything is decided. API
 * clients sign the approval message instead, and never pass through here.
 */

export interface SigningOptions {
  /** Its `approvalSigning` (APPROVAL_SIGNING) says who must sign: `registered` by default. */
  auth: AuthOptions;
  /** The scoped backend (with the policies): an item outside the member's scope is a 404. */
  backend: CustodyBackend;
  /** The approvable kinds whose cards are signed (approvals/core/): every kind the core holds. */
  kinds: readonly ApprovableKind[];
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function cardChanged(current: ApprovalCardResponse, why?: string): ApiError {
  const message = `The approval card changed since it was shown${why ? ` (${why})` : ''}: it is now intent ${current.digest}; look at it again and decide on it`;
  return new ApiError(409, ERROR_CODES.cardChanged, message, [
    { field: 'intent.digest', message: `the card's digest is now ${current.digest}` },
  ]);
}

function invalid(status: 400 | 401, field: string, message: string): ApiError {
  return new ApiError(status, ERROR_CODES.signedIntentInvalid, message, [{ field, message }]);
}

function cardContextOf(options: SigningOptions, c: Context<AppEnv>): CardContext {
  const ctx = custodyContext(c);
  return {
    backend: options.backend,
    ctx,
    db: options.auth.db,
    clock: options.auth.clock,
    memberId: ctx.actor?.type === 'STAFF' ? ctx.actor.id : null,
  };
}

/** The item's card now; null when it is of a kind that has none (nothing to sign). */
async function currentCard(
  options: SigningOptions,
  c: Context<AppEnv>,
  entityId: string,
): Promise<ApprovalCardResponse | null> {
  try {
    return await approvalCardOf(cardContextOf(options, c), entityId, options.kinds);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * The card a decision names by its digest: the item's card now, or one this
 * server computed lately for the item whose every binding part still holds
 * (cards-shown.ts says why the digest alone moves). A card neither is refused
 * as changed, naming what changed when it is known.
 */
function cardNamed(
  options: SigningOptions,
  entityId: string,
  digest: string,
  current: ApprovalCardResponse,
): { digest: string; intent: ApprovalCardIntent } {
  if (digest === current.digest) return { digest, intent: current.card.intent };
  const seen = cardShown(entityId, digest, options.auth.clock.now().getTime());
  const why = seen ? intentChange(seen, current.card.intent) : null;
  if (!seen || why) throw cardChanged(current, why ?? undefined);
  return { digest, intent: seen };
}

/** Whether this member must sign, and with which of their passkeys. */
async function signerOf(options: SigningOptions, staffId: string) {
  const passkeys = await listPasskeys(options.auth.db, staffId);
  const mode = options.auth.approvalSigning ?? 'registered';
  return { must: mode === 'required' || passkeys.length > 0, passkeys };
}

const registerFirst = () =>
  new ApiError(
    403,
    ERROR_CODES.signedIntentRequired,
    'Every approval here is signed with a passkey, and you have none: register a passkey or security key on your account page, then decide',
  );

/** POST /api/console/approval_cards/{entityId}/challenge/ */
export async function signingChallengeFor(
  options: SigningOptions,
  c: Context<AppEnv>,
  entityId: string,
  request: SigningChallengeRequest,
): Promise<SigningChallenge> {
  const member = c.get('staff');
  if (!member) throw new ApiError(401, ERROR_CODES.unauthorized, 'Sign in to decide');
  const current = await approvalCardOf(cardContextOf(options, c), entityId, options.kinds);
  const named = cardNamed(options, entityId, request.digest, current);
  const signer = await signerOf(options, member.id);
  if (!signer.must)
    return { required: false, digest: named.digest, nonce: null, expiresAt: null, options: null };
  if (signer.passkeys.length === 0) throw registerFirst();
  const rp = relyingParty(c, options.auth.trustProxy);
  const nonce = await createNonce(
    options.auth.db,
    {
      staffId: member.id,
      entityId,
      action: request.action,
      digest: named.digest,
      card: canonicalJson(named.intent),
    },
    options.auth.clock.now(),
  );
  const challenge = signingChallenge({
    action: request.action,
    entityId,
    digest: named.digest,
    nonce: nonce.nonce,
  });
  return {
    required: true,
    digest: named.digest,
    nonce: nonce.nonce,
    expiresAt: nonce.expiresAt.toISOString(),
    options: await assertionOptions(rp, signer.passkeys, new Uint8Array(challenge)),
  };
}

export interface Checked {
  entityId: string;
  digest: string;
  card: string;
  signed: Parameters<typeof recordSignature>[1]['signed'];
}

/**
 * A staff decision, checked before it is decided: the card it names must be
 * the item's card now (or, signed, one whose every binding part still holds:
 * only a fee below the ceiling signed may have moved), and a member who must
 * sign must carry a valid assertion over the challenge of a nonce issued to
 * them for this item, decision and card. Answers what to store once decided,
 * or null for a decision with nothing to store (no card shown, none to sign).
 */
export async function checkDecision(
  options: SigningOptions,
  c: Context<AppEnv>,
  staffId: string,
  entityId: string,
  request: ApprovalActionRequest,
): Promise<Checked | null> {
  const { intent, action } = request;
  const signer = await signerOf(options, staffId);
  if (!intent) {
    if (!signer.must) return null;
    if (signer.passkeys.length === 0) throw registerFirst();
    throw new ApiError(
      403,
      ERROR_CODES.signedIntentRequired,
      'This decision must be signed with your passkey over the approval card you were shown: send intent with its digest, nonce and credential',
      [{ field: 'intent', message: 'a signed intent is required' }],
    );
  }
  const current = await currentCard(options, c, entityId);
  if (!current) throw new ApiError(404, ERROR_CODES.notFound, 'No approvable item with that id');
  const { db, clock } = options.auth;
  const now = clock.now();

  if (!intent.credential || !intent.nonce) {
    if (intent.credential || intent.nonce)
      throw invalid(
        400,
        intent.nonce ? 'intent.credential' : 'intent.nonce',
        'A signed intent carries both the nonce of its challenge and the passkey’s credential',
      );
    if (signer.must) {
      if (signer.passkeys.length === 0) throw registerFirst();
      throw new ApiError(
        403,
        ERROR_CODES.signedIntentRequired,
        'This decision must be signed with your passkey: ask for a challenge over the card, sign it, and send the nonce and credential with the decision',
        [{ field: 'intent.credential', message: 'a passkey’s assertion is required' }],
      );
    }
    const named = cardNamed(options, entityId, intent.digest, current);
    return { entityId, digest: named.digest, card: canonicalJson(named.intent), signed: null };
  }

  // Used once whatever follows: a refused assertion cannot be tried again on the same nonce.
  const nonce = await consumeNonce(
    db,
    { nonce: intent.nonce, staffId, entityId, action, digest: intent.digest },
    now,
  );
  if (!nonce)
    throw invalid(
      401,
      'intent.nonce',
      'The signing challenge is unknown, used already, expired, or was issued for another member, item, decision or card: ask for a new one',
    );
  if (intent.digest !== current.digest) {
    const why = intentChange(JSON.parse(nonce.card) as ApprovalCardIntent, current.card.intent);
    if (why) throw cardChanged(current, why);
  }
  let rp: RelyingParty;
  try {
    rp = relyingParty(c, options.auth.trustProxy);
  } catch {
    throw invalid(
      401,
      'intent.credential',
      'The passkey was used on another address than this console’s',
    );
  }
  const expected = b64url(
    signingChallenge({ action, entityId, digest: intent.digest, nonce: intent.nonce }),
  );
  const verdict = await verifyAssertion(db, rp, staffId, intent.credential, expected, now);
  if (!verdict.ok)
    throw invalid(
      401,
      'intent.credential',
      `The passkey’s signature over the approval card was not accepted: ${verdict.reason}`,
    );
  const passkey = verdict.value;
  return {
    entityId,
    digest: intent.digest,
    card: nonce.card,
    signed: {
      nonce: intent.nonce,
      credentialId: passkey.credentialId,
      credentialName: passkey.name,
      credentialKind: passkeyKind(passkey),
      publicKey: passkey.publicKey,
      assertion: intent.credential,
      rpId: rp.id,
      origin: rp.origin,
    },
  };
}

/**
 * The console's staff decision: checked (above), decided by the backend
 * without the intent (it is the console's alone, never sent on), and stored
 * with what it was made on. An API client's decision passes through untouched.
 */
export async function decideSigned(
  options: SigningOptions,
  c: Context<AppEnv>,
  approvalId: string,
  request: ApprovalActionRequest,
  decide: (request: ApprovalActionRequest) => Promise<ApprovalActionResponse>,
): Promise<ApprovalActionResponse> {
  const { intent, ...rest } = request;
  const actor = c.get('actor');
  const member = c.get('staff');
  if (actor?.type !== 'STAFF' || !member) return decide(rest);
  const ctx = custodyContext(c);
  const entityId = (await options.backend.approvalEntityId?.(ctx, approvalId)) ?? null;
  if (!entityId) return decide(rest);
  const checked = await checkDecision(
    options,
    c,
    member.id,
    entityId,
    intent ? { ...rest, intent } : rest,
  );
  const since = options.auth.clock.now();
  let answer: ApprovalActionResponse;
  try {
    answer = await decide(rest);
  } catch (error) {
    // An answer lost (a timeout, an outage) says nothing of the decision itself: when the
    // member's vote was kept, the decision stands, and what it was signed over must stand too.
    if (!decisionRefused(error) && (await decisionStands(options, c, entityId, member.id, since)))
      await storeDecided(options, member, checked, rest.action);
    throw error;
  }
  await storeDecided(options, member, checked, rest.action);
  return answer;
}

/**
 * Whether the member's decision on the item was made since `since`, though
 * its answer was lost: their vote kept under the item's frozen rule, or, for
 * an item its rule leaves to the custody backend, the backend's own record of
 * who decided it (the sandbox keeps one; the custody API has no such read).
 */
async function decisionStands(
  options: SigningOptions,
  c: Context<AppEnv>,
  entityId: string,
  staffId: string,
  since: Date,
): Promise<boolean> {
  if (await votedSince(options.auth.db, entityId, staffId, since)) return true;
  const decisions = await options.backend
    .approvalDecisions?.(custodyContext(c), [entityId])
    .catch(() => []);
  return (decisions ?? []).some(
    (d) =>
      d.entityId === entityId &&
      d.decidedBy.type === 'STAFF' &&
      d.decidedBy.id === staffId &&
      Date.parse(d.decidedAt) >= since.getTime(),
  );
}

/** A refusal that says the decision itself did not stand (not a timeout or a rate limit). */
export const decisionRefused = (error: unknown) =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 408 &&
  error.status !== 429;

/**
 * Stores what a member's decision was made on, once it was decided (never
 * before: a decision refused leaves no signature claiming it). Null: nothing
 * to store.
 */
export async function storeDecided(
  options: SigningOptions,
  member: { id: string; name: string },
  checked: Checked | null,
  action: ApprovalActionRequest['action'],
): Promise<void> {
  if (!checked) return;
  await recordSignature(options.auth.db, {
    ...checked,
    staffId: member.id,
    staffName: member.name,
    decision: action === 'approve' ? 'APPROVED' : 'REJECTED',
    decidedAt: options.auth.clock.now(),
  });
}
