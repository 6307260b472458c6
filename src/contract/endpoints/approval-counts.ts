import { ApprovalInboxCounts, ApprovalInboxFilters } from '../approval-inbox-counts.ts';
import { endpoint } from '../endpoint.ts';

/**
 * The approvals inbox's counts alone (approvals.ts declares the inbox): the
 * navigation's badge asks on every page, so its declaration stays apart from
 * the inbox's items.
 */

export const approvalInboxCount = endpoint({
  method: 'GET',
  path: '/api/console/approvals/count/',
  summary:
    "The inbox's counts alone, for the navigation's badge: what the member may decide, and everything waiting.",
  action: 'read the approvals inbox',
  permission: 'approve',
  audit: false,
  query: ApprovalInboxFilters,
  answer: ApprovalInboxCounts,
});
