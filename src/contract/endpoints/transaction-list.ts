import { endpoint } from '../endpoint.ts';
import { TransactionFilters, TransactionListResponse } from '../transaction-record.ts';

/**
 * The transactions list (custody API endpoint 4), which the first load
 * (/transactions) reads: apart from one transaction, its history and the
 * staked amount (`transactions.ts`, which re-exports it), so that the first
 * load carries neither them nor their schemas.
 */

export const listTransactions = endpoint({
  method: 'GET',
  path: '/api/external/transactions/',
  summary: 'Transactions, newest first, filtered and keyset-paged.',
  action: 'read',
  permission: 'read',
  audit: false,
  query: TransactionFilters,
  paged: true,
  answer: TransactionListResponse,
});
