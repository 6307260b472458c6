import { ERROR_CODES } from '#contract/common.ts';
import type { CustodyActor } from '../../../custody/backend.ts';

/**
 * Who may decide a change request. A pure function so
 * the rule reads in one place and is tested without a database; the approval
 * endpoint enforces it for every caller, so a UI that forgets to hide a
 * button still cannot break it.
 *
 * - Nobody anonymous decides anything.
 * - A staff member never approves or rejects a request they created
 *   (four-eyes), whatever their role. Who created it is `creatorOf`'s rule
 *   (custody/sandbox/change-request.ts).
 * - An API user may decide its own request, as the provider SDK's
 *   create-and-approve helpers expect, unless the organization turned that off.
 * - An API user proves the decision with a signature of the approval message;
 *   a staff member is already proven by their session and signs nothing.
 */

export const ANONYMOUS_APPROVER_MESSAGE = 'approving needs an API user or a signed-in staff member';

export interface ApprovalPolicyInput {
  actor: CustodyActor | undefined;
  changeRequest: { createdById: string; createdByType: string };
  /** organizations.api_user_self_approval */
  apiUserSelfApproval: boolean;
}

export type ApprovalPolicyDecision =
  | { allowed: true; actor: CustodyActor; signatureRequired: boolean }
  | { allowed: false; status: 401 | 403; code: string; message: string };

export function decideApprovalPolicy(input: ApprovalPolicyInput): ApprovalPolicyDecision {
  const { actor, changeRequest } = input;
  if (!actor) {
    return {
      allowed: false,
      status: 401,
      code: ERROR_CODES.unauthorized,
      message: ANONYMOUS_APPROVER_MESSAGE,
    };
  }
  const ownRequest =
    changeRequest.createdByType === actor.type && changeRequest.createdById === actor.id;
  if (actor.type === 'STAFF') {
    if (ownRequest) {
      return {
        allowed: false,
        status: 403,
        code: ERROR_CODES.fourEyes,
        message:
          'Four-eyes rule: you created this request; another member must decide (approve or reject) it',
      };
    }
    return { allowed: true, actor, signatureRequired: false };
  }
  if (ownRequest && !input.apiUserSelfApproval) {
    return {
      allowed: false,
      status: 403,
      code: ERROR_CODES.selfApprovalNotAllowed,
      message:
        'This organization does not let an API user decide a request it created itself; another API user or a staff member must decide it',
    };
  }
  return { allowed: true, actor, signatureRequired: true };
}
