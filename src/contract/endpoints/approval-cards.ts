import { ApprovalCardResponse } from '../approval-card.ts';
import { endpoint } from '../endpoint.ts';

/**
 * The approval card of one item (contract/approval-card.ts): what an approver
 * decides on, as the server computes it, with its intent's digest.
 */
export const approvalCard = endpoint({
  method: 'GET',
  path: '/api/console/approval_cards/:entityId/',
  summary:
    'The approval card of a transaction, bank account or contact the member may see: its intent (what leaves, the fee ceiling, where it goes, the decoded call, the quote, the rule) and its status (USD value now, each vault before → after, the quorum), with the SHA-256 digest of the intent.',
  action: 'read approval cards',
  permission: 'read',
  audit: false,
  resource: 'approvable item',
  answer: ApprovalCardResponse,
});
