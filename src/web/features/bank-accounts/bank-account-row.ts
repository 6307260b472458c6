import { maskAccountNumber, type BankAccount } from '#contract/bank-account-record.ts';

/**
 * What the list shows of a bank account. Account and routing numbers are
 * masked here, before any component sees them, so a full number can never
 * reach the DOM (not even in a title or data attribute).
 */
export interface BankAccountRow {
  id: string | undefined;
  accountName: string | undefined;
  bankName: string | undefined;
  paymentMethod: string | undefined;
  country: string | undefined;
  status: string | undefined;
  createdAt: string | undefined;
  maskedAccountNumber: string;
  maskedRoutingNumber: string;
}

export function toBankAccountRow(account: BankAccount): BankAccountRow {
  return {
    id: account.id,
    accountName: account.accountName,
    bankName: account.bankName,
    paymentMethod: account.paymentMethod,
    country: account.country,
    status: account.status,
    createdAt: account.createdAt,
    maskedAccountNumber: maskAccountNumber(account.accountNumber),
    maskedRoutingNumber: maskAccountNumber(account.routingNumber),
  };
}
