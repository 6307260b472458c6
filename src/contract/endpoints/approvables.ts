import { ApprovalActionRequest, ApprovalActionResponse } from '../approvals.ts';
import { endpoint } from '../endpoint.ts';

/**
 * The decision on an item the console holds itself, decided as every
 * approvable kind is (the approval card, the signed intent, the frozen rule's
 * quorum), where the custody API has no change request to decide.
 */
export const decideApprovable = endpoint({
  method: 'POST',
  path: '/api/console/approvables/:entityId/decision/',
  summary:
    'Approves or rejects an item the console holds itself: held to the approval card the member was shown and, where they must sign, their passkey’s signature over it; counted under the item’s frozen rule (never its proposer), its effect applied once when the rule is met; a rejection needs a reason.',
  action: 'approve or reject change requests',
  permission: 'approve',
  audit: {
    action: 'change_request.decide',
    entityType: 'APPROVABLE',
    entityParam: 'entityId',
  },
  resource: 'approvable item',
  body: ApprovalActionRequest,
  answer: ApprovalActionResponse,
});
