import { ChangeRequestHistory } from '../change-request.ts';
import { endpoint } from '../endpoint.ts';

/** The console's own transaction endpoints, beside the custody API's (server/console/). */

export const transactionHistory = endpoint({
  method: 'GET',
  path: '/api/console/transactions/:transactionId/history/',
  summary: 'Who created the transaction and who approved or declined it, when and why, named.',
  action: 'read transaction history',
  permission: 'read',
  audit: false,
  resource: 'transaction',
  answer: ChangeRequestHistory,
});
