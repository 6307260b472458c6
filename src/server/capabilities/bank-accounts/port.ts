import type { Page, PageRequest } from '#contract/common.ts';
import type {
  BankAccount,
  BankAccountCreateRequest,
  BankAccountFilters,
} from '#contract/bank-account.ts';
import type { CustodyContext, ScopeFilter } from '../../custody/call-context.ts';

export type BankAccountListQuery = PageRequest & BankAccountFilters & ScopeFilter;

/** Bank accounts, as either backend answers them (custody API endpoints 1–3). */
export interface BankAccountsPort {
  // Endpoints 1 and 2.
  listBankAccounts(ctx: CustodyContext, query: BankAccountListQuery): Promise<Page<BankAccount>>;
  getBankAccount(ctx: CustodyContext, bankAccountId: string): Promise<BankAccount>;
  // Endpoint 3: created PENDING, with a change request awaiting approval.
  createBankAccount(ctx: CustodyContext, input: BankAccountCreateRequest): Promise<BankAccount>;
}
