import { endpoint } from '../endpoint.ts';
import { PolicyPreviewResponse } from '../policies.ts';
import { IntentCreateRequest } from '../ramps.ts';
import { CreateTransactionRequest } from '../transaction.ts';

/**
 * What the approval policy makes of a transaction not yet sent: its body is
 * the create's (classic zod, the forms' rules), so this module loads with the
 * create forms, never with the first load.
 */

export const reviewTransactionPolicy = endpoint({
  method: 'POST',
  path: '/api/console/policies/transactions/review/',
  summary:
    'The rule a transaction with this create body would fall under if the member sent it now, and what it would need (or that it would be refused). Nothing is created.',
  action: 'create transactions',
  permission: 'initiate',
  audit: false,
  body: CreateTransactionRequest,
  answer: PolicyPreviewResponse,
});

/**
 * The same for a ramp or FX about to be executed from its chosen quote (the
 * Convert page's review): its body is the execute's, judged on the
 * transaction the quote would make, as the execute will be.
 */
export const reviewRampPolicy = endpoint({
  method: 'POST',
  path: '/api/console/policies/ramps/review/',
  summary:
    'The rule a ramp or FX executed from this quote would fall under if the member sent it now, and what it would need (or that it would be refused); judged on the transaction the quote would make. Nothing is created and the quote stays unused.',
  action: 'create transactions',
  permission: 'initiate',
  audit: false,
  body: IntentCreateRequest,
  answer: PolicyPreviewResponse,
});
