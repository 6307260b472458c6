import { endpoint } from '../endpoint.ts';
import { PolicyPreviewResponse } from '../policies.ts';
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
