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

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends BankAccountsPort {}
}
