import { ApprovalCardResponse } from '../approval-card.ts';
import { endpoint } from '../endpoint.ts';
import { CardPreviewRequest } from '../trades.ts';

/**
 * The card of a transaction not yet sent, for the initiator's review: its body
 * is the create's (classic zod, the forms' rules), so this module loads with
 * the create forms, never with the first load.
 */
export const previewApprovalCard = endpoint({
  method: 'POST',
  path: '/api/console/approval_cards/preview/',
  summary:
    'The approval card a transaction with this create body (a swap: its chosen trade quote) would have if the member sent it now, and its intent’s digest: the same card, and the same digest, as the item once created. Nothing is created, and no quote is used.',
  action: 'create transactions',
  permission: 'initiate',
  audit: false,
  body: CardPreviewRequest,
  answer: ApprovalCardResponse,
});
