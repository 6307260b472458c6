import { ChangeRequestHistory } from '../change-request.ts';
import { endpoint } from '../endpoint.ts';
import { StakedAmount, StakedQuery } from '../staked.ts';
import { Transaction } from '../transaction-record.ts';

// The list is every first load's (/transactions): declared apart from the rest.
export { listTransactions } from './transaction-list.ts';

/**
 * Reading transactions: the custody API's list and get (endpoints 4 and 5)
 * and the console's named history. Written with the record module only, so
 * the first load (/transactions) carries no create rules; creating,
 * replacing and estimating are in `transaction-writes.ts`, loaded with the forms.
 */

export const getTransaction = endpoint({
  method: 'GET',
  path: '/api/external/transactions/:transactionId/',
  summary:
    'One transaction, with a weak ETag: a poll that finds nothing new is a bodiless 304 (If-None-Match).',
  action: 'read',
  permission: 'read',
  audit: false,
  resource: 'transaction',
  answer: Transaction,
});

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

export const stakedAmount = endpoint({
  method: 'GET',
  path: '/api/console/vaults/:vaultId/staked/',
  summary:
    'What the vault has staked on a chain (and TRON resource): its completed stakes less every unstake not failed or declined; the most an unstake may take back. The custody API has no such read: staked is null when the backend cannot tell.',
  action: 'read staked amount',
  permission: 'read',
  audit: false,
  resource: 'vault',
  query: StakedQuery,
  answer: StakedAmount,
});
