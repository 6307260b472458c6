import {
  ApprovalSignatures,
  SigningChallenge,
  SigningChallengeRequest,
} from '../approval-signature.ts';
import { endpoint } from '../endpoint.ts';

/**
 * Signed approvals (contract/approval-signature.ts): the challenge a member's
 * passkey signs over the card they see, and every stored signature on an
 * item checked again.
 */
export const approvalSigningChallenge = endpoint({
  method: 'POST',
  path: '/api/console/approval_cards/:entityId/challenge/',
  summary:
    'What the member’s passkey signs to approve or reject the item: a one-time challenge derived from the decision, the item and the digest of the card the member sees (409 CARD_CHANGED if that is no longer the item’s card), or that this member decides unsigned.',
  action: 'approve or reject change requests',
  permission: 'approve',
  audit: false,
  resource: 'approvable item',
  body: SigningChallengeRequest,
  answer: SigningChallenge,
});

export const approvalSignatures = endpoint({
  method: 'GET',
  path: '/api/console/approval_signatures/:entityId/',
  summary:
    'Every decision recorded on a transaction, bank account or contact the member may see, with its signature checked again against the stored public key and whether it still counts.',
  action: 'read approval signatures',
  permission: 'read',
  audit: false,
  resource: 'approvable item',
  answer: ApprovalSignatures,
});
