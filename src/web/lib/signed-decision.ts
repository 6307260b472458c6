import { startAuthentication } from '@simplewebauthn/browser';
import * as z from 'zod/mini';
import type { SignedIntent } from '#contract/approval-signature.ts';
import type {
  ApprovalAction,
  ApprovalActionRequest,
  ApprovalActionResponse,
} from '#contract/approvals.ts';
import { PasskeyAssertion } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { approvalSigningChallenge } from '#contract/endpoints/approval-signatures.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { approvalMessage, decideApproval } from '#contract/endpoints/approvals.ts';
import { apiClient } from './api-client.ts';
import { ApiError } from './api-errors.ts';

/**
 * Every staff decision in the console goes through here: the digest of the
 * approval card the member was shown, a one-time challenge the server derives
 * from it (contract/approval-signature.ts), the member's passkey signing that
 * challenge when the server asks for a signature, then the decision carrying
 * the signed intent. The server refuses a digest that is no longer the item's
 * card (CARD_CHANGED), so a decision never lands on a card the member did not
 * see; the dialogs (components/signed-decision.tsx) say what changed and ask
 * again.
 */

/**
 * The browser's passkey prompt was closed, timed out or refused: nothing was
 * sent. Its message is what the member reads.
 */
export class PasskeyNotUsed extends Error {
  override readonly name = 'PasskeyNotUsed';
  constructor(options?: { cause?: unknown }) {
    super(
      'Nothing was sent: the passkey prompt was closed or timed out, so the decision was not signed. Try again when ready.',
      options,
    );
  }
}

/**
 * The server asked for a signature and the browser cannot make one (no
 * WebAuthn here): nothing was sent.
 */
class PasskeyUnavailable extends Error {
  override readonly name = 'PasskeyUnavailable';
}

/** The member's passkey signs the challenge for `action` on the card whose digest is `digest`. */
async function signIntent(
  entityId: string,
  action: ApprovalAction,
  digest: string,
): Promise<SignedIntent> {
  const challenge = await apiClient.call(approvalSigningChallenge, {
    params: { entityId },
    body: { action, digest },
  });
  // The server answers for the digest asked about, or 409 CARD_CHANGED; anything else is
  // never signed, since it would not be the card shown.
  if (challenge.digest !== digest)
    throw new ApiError(
      409,
      ERROR_CODES.cardChanged,
      'The approval card changed since it was shown',
    );
  if (!challenge.required) return { digest };
  // Asked to sign with nothing to sign with: the member has no passkey registered.
  if (!challenge.options || !challenge.nonce)
    throw new ApiError(
      403,
      ERROR_CODES.signedIntentRequired,
      'Your decisions must be signed with a passkey, and you have none registered',
    );
  let assertion: unknown;
  try {
    assertion = await startAuthentication({
      optionsJSON: challenge.options as Parameters<typeof startAuthentication>[0]['optionsJSON'],
    });
  } catch (error) {
    if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
      throw new PasskeyNotUsed({ cause: error });
    if (error instanceof Error && /not supported/i.test(error.message))
      throw new PasskeyUnavailable(
        'This browser cannot use passkeys, and your decisions must be signed with one. Use a browser that supports passkeys.',
        { cause: error },
      );
    throw error;
  }
  return { digest, nonce: challenge.nonce, credential: z.parse(PasskeyAssertion, assertion) };
}

/** A decision's own fields: the action, a decline's reason, a ramp's quote. */
export type DecisionBody = Pick<ApprovalActionRequest, 'action' | 'reason' | 'quoteId'>;

/**
 * Sends one decision on `entityId`, signed over the card with `digest`:
 * the item's approval, the signed intent, then the decision. Throws
 * PasskeyNotUsed (nothing sent) or the server's ApiError.
 */
export async function sendSignedDecision(
  entityId: string,
  digest: string,
  body: DecisionBody,
): Promise<ApprovalActionResponse> {
  const { approvalId } = await apiClient.call(approvalMessage, { query: { entityId } });
  const intent = await signIntent(entityId, body.action, digest);
  return apiClient.call(decideApproval, { params: { approvalId }, body: { ...body, intent } });
}

/**
 * The same for an item of a kind the console holds itself (no change request
 * to look up): decided at the approval core's own route.
 */
export async function sendSignedHeldDecision(
  entityId: string,
  digest: string,
  body: DecisionBody,
): Promise<ApprovalActionResponse> {
  const intent = await signIntent(entityId, body.action, digest);
  return apiClient.call(decideApprovable, { params: { entityId }, body: { ...body, intent } });
}

/** The card the member saw is no longer the item's: reload it, say what changed, ask again. */
export const isCardChanged = (error: unknown) =>
  error instanceof ApiError && error.code === ERROR_CODES.cardChanged;

/** The member must sign with a passkey and has none registered. */
export const needsPasskey = (error: unknown) =>
  error instanceof ApiError && error.code === ERROR_CODES.signedIntentRequired;
