import { ApprovalCosts, ApprovalCostsQuery } from '../approval-cost.ts';
import { ApprovalDecisionList, ApprovalDecisionQuery } from '../approval-decision.ts';
import { ApprovalInboxFilters } from '../approval-inbox-counts.ts';
import { ApprovalInboxResponse } from '../approval-inbox.ts';
import {
  ApprovalActionRequest,
  ApprovalActionResponse,
  ApprovalMessageQuery,
  ApprovalMessageResponse,
} from '../approvals.ts';
import { endpoint } from '../endpoint.ts';

/**
 * Change-request approvals: the custody API's message and decision, and the
 * console's inbox (what waits for the member) and decisions (who decided what).
 */

export const approvalMessage = endpoint({
  method: 'GET',
  path: '/api/external/change_requests/approvals/approval_message/',
  summary:
    'The approval of the change request about an entity, and the message an API client signs to decide it.',
  // Reading the message is an approver's step (it is what they decide on).
  action: 'read approval messages',
  permission: 'approve',
  audit: false,
  query: ApprovalMessageQuery,
  answer: ApprovalMessageResponse,
});

export const decideApproval = endpoint({
  method: 'POST',
  path: '/api/external/change_requests/approvals/:approvalId/action/',
  summary:
    'Approves or rejects a change request (four-eyes: never its creator); a rejection needs a reason.',
  action: 'approve or reject change requests',
  permission: 'approve',
  audit: {
    action: 'change_request.decide',
    entityType: 'CHANGE_REQUEST',
    entityParam: 'approvalId',
  },
  resource: 'approval',
  body: ApprovalActionRequest,
  answer: ApprovalActionResponse,
});

export const approvalInbox = endpoint({
  method: 'GET',
  path: '/api/console/approvals/',
  summary:
    'PENDING transactions and bank accounts the member may see, newest first, with the counts of the whole inbox.',
  action: 'read the approvals inbox',
  permission: 'approve',
  audit: false,
  query: ApprovalInboxFilters,
  paged: true,
  answer: ApprovalInboxResponse,
});

export const approvalDecisions = endpoint({
  method: 'GET',
  path: '/api/console/approval_decisions/',
  summary: 'Who approved or rejected each of these transactions or bank accounts, and when.',
  action: 'read approval decisions',
  permission: 'read',
  audit: false,
  query: ApprovalDecisionQuery,
  answer: ApprovalDecisionList,
});

export const approvalCosts = endpoint({
  method: 'GET',
  path: '/api/console/approval_costs/',
  summary:
    'For each of these transactions the member may see: its amount, its network fee (estimated now for its tier while it waits), what leaves in all in each asset and in USD, and the sums of them all.',
  action: 'read approval costs',
  permission: 'read',
  audit: false,
  query: ApprovalCostsQuery,
  answer: ApprovalCosts,
});
