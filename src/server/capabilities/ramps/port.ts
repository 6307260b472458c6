import type { Page, PageRequest } from '#contract/common.ts';
import type {
  IntentCreateRequest,
  MarkDepositDoneRequest,
  RampCreateRequest,
  RampQuoteRequest,
  RampQuoteResponse,
} from '#contract/ramps.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { CustodyContext, ScopeFilter } from '../../custody/call-context.ts';

export type BankAccountRampsQuery = PageRequest & ScopeFilter;

/** Ramps and FX (issue 27), as either backend answers them. */
export interface RampsPort {
  /** POST …/transactions/quote/, either SDK shape: every provider's quote, best first. */
  quoteRamp(ctx: CustodyContext, body: RampQuoteRequest): Promise<RampQuoteResponse>;
  /** POST …/transactions/intent/create/ (G2): a PENDING ramp from a quote. */
  createTransactionFromIntent(ctx: CustodyContext, body: IntentCreateRequest): Promise<Transaction>;
  /** POST …/transactions/ with category ON_RAMP or OFF_RAMP and a quoteId (G1). */
  createRampTransaction(ctx: CustodyContext, body: RampCreateRequest): Promise<Transaction>;
  /** POST …/transactions/mark_deposit_done/: an approved on-ramp's money is on its way. */
  markDepositDone(ctx: CustodyContext, body: MarkDepositDoneRequest): Promise<Transaction>;
  /** The ramps paying into, or funded from, one bank account, newest first. */
  listBankAccountRamps(
    ctx: CustodyContext,
    bankAccountId: string,
    query: BankAccountRampsQuery,
  ): Promise<Page<Transaction>>;
}
