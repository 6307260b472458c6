import { BankAccountMatchRequest, BankAccountMatches } from '../bank-account-matches.ts';
import {
  BankAccount,
  BankAccountFilters,
  BankAccountListResponse,
  RevealedBankAccount,
} from '../bank-account-record.ts';
import { ChangeRequestHistory } from '../change-request.ts';
import { endpoint } from '../endpoint.ts';

/**
 * Reading bank accounts: the custody API's list and get (endpoints 1 and 2),
 * masked for staff, and the console's own history, audited reveal and
 * identical-account check. Creating is in `bank-account-writes.ts` (its rail
 * rules load with the form).
 */

export const listBankAccounts = endpoint({
  method: 'GET',
  path: '/api/external/bank_accounts/',
  summary:
    'Bank accounts, newest first, filtered and keyset-paged; account and routing numbers masked for staff.',
  action: 'read',
  permission: 'read',
  audit: false,
  query: BankAccountFilters,
  paged: true,
  answer: BankAccountListResponse,
});

export const getBankAccount = endpoint({
  method: 'GET',
  path: '/api/external/bank_accounts/:bankAccountId/',
  summary: 'One bank account; numbers masked for staff (the reveal below is the only full read).',
  action: 'read',
  permission: 'read',
  audit: false,
  resource: 'bank account',
  answer: BankAccount,
});

export const bankAccountHistory = endpoint({
  method: 'GET',
  path: '/api/console/bank_accounts/:bankAccountId/history/',
  summary: 'Who proposed the account and who decided it, when, and the reason, named.',
  action: 'read bank account history',
  permission: 'read',
  audit: false,
  resource: 'bank account',
  answer: ChangeRequestHistory,
});

export const revealBankAccount = endpoint({
  method: 'POST',
  path: '/api/console/bank_accounts/:bankAccountId/reveal/',
  summary:
    "The account's full account and routing numbers: the only way they reach a browser, audited every time, refusals too.",
  action: 'reveal full account numbers',
  permission: 'reveal',
  audit: {
    action: 'bank_account.reveal',
    entityType: 'BANK_ACCOUNT',
    entityParam: 'bankAccountId',
    selfRecorded: true,
  },
  resource: 'bank account',
  answer: RevealedBankAccount,
});

export const findBankAccountMatches = endpoint({
  method: 'POST',
  path: '/api/console/bank_accounts/matches/',
  summary:
    'Pending and approved accounts in scope with the same rail and numbers as a proposal, masked (a read sent as POST: the numbers stay out of URLs).',
  action: 'check for identical bank accounts',
  permission: 'initiate',
  audit: false,
  body: BankAccountMatchRequest,
  answer: BankAccountMatches,
});
