import { endpoint } from '../endpoint.ts';
import { TransactionListResponse } from '../transaction-record.ts';

/**
 * Reading ramps: the console's list of the ramps that paid into (or were
 * funded from) one bank account, for the bank account's page. Quoting,
 * executing and marking a deposit are in `ramp-writes.ts` (their bodies are
 * the forms' rules).
 */

export const listBankAccountRamps = endpoint({
  method: 'GET',
  path: '/api/console/bank_accounts/:bankAccountId/ramps/',
  summary:
    'The off-ramps paid to this bank account and the ramps and FX funded from it, newest first, keyset-paged; in the member’s scope.',
  action: 'read',
  permission: 'read',
  audit: false,
  resource: 'bank account',
  paged: true,
  answer: TransactionListResponse,
});
