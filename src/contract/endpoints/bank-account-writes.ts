import { BankAccount } from '../bank-account-record.ts';
import { BankAccountCreateRequest } from '../bank-account.ts';
import { endpoint } from '../endpoint.ts';

/**
 * Proposing a bank account (custody API endpoint 3): its body is the form's
 * rail rules (classic zod, ibantools), so this module loads with the form.
 */

export const createBankAccount = endpoint({
  method: 'POST',
  path: '/api/external/bank_accounts/',
  summary: 'Proposes a bank account: PENDING, with a change request awaiting approval.',
  action: 'create bank accounts',
  permission: 'initiate',
  audit: { action: 'bank_account.create', entityType: 'BANK_ACCOUNT' },
  body: BankAccountCreateRequest,
  // 200, not 201: the description promises a BankAccount, and an SDK may test for 200.
  answer: BankAccount,
});
