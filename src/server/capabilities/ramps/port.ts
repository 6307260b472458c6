import type { Page, PageRequest } from '#contract/common.ts';
import type {
  IntentCreateRequest,
  MarkDepositDoneRequest,
  RampCreateRequest,
  RampExchangeRatesQuery,
  RampExchangeRatesResponse,
  RampQuoteRequest,
  RampQuoteResponse,
  V2QuoteBody,
  V2QuoteResponse,
} from '#contract/ramps.ts';
import type {
  GetTradeQuoteResponse,
  SwapCreateRequest,
  TradeQuoteQuery,
} from '#contract/trades.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { CustodyContext, ScopeFilter } from '../../custody/call-context.ts';

export type BankAccountRampsQuery = PageRequest & ScopeFilter;

/** Ramps and FX, as either backend answers them. */
export interface RampsPort {
  /** POST …/transactions/quote/, either SDK shape: every provider's quote, best first. */
  quoteRamp(ctx: CustodyContext, body: RampQuoteRequest): Promise<RampQuoteResponse>;
  /**
   * POST …/transactions/v2/quote/: the JS SDK's G3 intent (answered `{quotes}`)
   * or the Python SDK's v2 get_quote, a G2 intent (answered as a bare list).
   */
  quoteRampV2(ctx: CustodyContext, body: V2QuoteBody): Promise<V2QuoteResponse>;
  /**
   * GET …/transactions/ramp_exchange_rates/ (the older SDKs'
   * getRampExchangeRates): the same quotes in their shape, best first.
   */
  rampExchangeRates(
    ctx: CustodyContext,
    query: RampExchangeRatesQuery,
  ): Promise<RampExchangeRatesResponse>;
  /**
   * POST …/transactions/intent/create/ (G2 and G3; also the Python SDK's v2
   * …/transactions/execute/): a PENDING ramp from a quote.
   */
  createTransactionFromIntent(ctx: CustodyContext, body: IntentCreateRequest): Promise<Transaction>;
  /**
   * The transaction `createTransactionFromIntent` would make from this body,
   * checked as it would be and not made: what the approval policy's review
   * judges before the Convert page sends (capabilities/policies/guard.ts).
   */
  previewRampTransaction(ctx: CustodyContext, body: IntentCreateRequest): Promise<Transaction>;
  /** POST …/transactions/ with category ON_RAMP or OFF_RAMP and a quoteId (G1). */
  createRampTransaction(ctx: CustodyContext, body: RampCreateRequest): Promise<Transaction>;
  /** GET …/transactions/trade_quote/: every provider's price for a swap, best first. */
  quoteTrade(ctx: CustodyContext, query: TradeQuoteQuery): Promise<GetTradeQuoteResponse>;
  /**
   * The swap `createTradeTransaction` would make from this body, checked as
   * it would be and not made: what the initiator's review card and the
   * approval rule are computed from before the Convert page sends.
   */
  previewTradeTransaction(ctx: CustodyContext, body: SwapCreateRequest): Promise<Transaction>;
  /** POST …/transactions/ with category SWAP: a PENDING swap executing one trade quote. */
  createTradeTransaction(ctx: CustodyContext, body: SwapCreateRequest): Promise<Transaction>;
  /** POST …/transactions/mark_deposit_done/: an approved on-ramp's money is on its way. */
  markDepositDone(ctx: CustodyContext, body: MarkDepositDoneRequest): Promise<Transaction>;
  /**
   * Before an approval of a PENDING ramp counts (the sandbox's; the custody
   * API prices its own): re-quotes an expired quote, and refuses (409
   * QUOTE_CHANGED) an approval naming another quote than the current one, or
   * naming none while the current rate is beyond the tolerance of the quote a
   * person accepted. Nothing for anything else. The caller checks scope first.
   */
  bindRampApproval?(
    ctx: CustodyContext,
    transactionId: string,
    quoteId: string | undefined,
  ): Promise<void>;
  /**
   * Sandbox only: a PENDING ramp's quote expires `inSeconds` from the
   * sandbox's now (never later than it would), so the re-quote at its next
   * approval can be tried at once. 409
   * for anything that is not a PENDING ramp the sandbox priced. The caller
   * checks scope first.
   */
  expireRampQuote?(
    ctx: CustodyContext,
    transactionId: string,
    inSeconds: number,
  ): Promise<Transaction>;
  /** After an approval naming the ramp's current quote counted: that quote is the accepted one. */
  acceptRampQuote?(ctx: CustodyContext, transactionId: string, quoteId: string): Promise<void>;
  /** The ramps paying into, or funded from, one bank account, newest first. */
  listBankAccountRamps(
    ctx: CustodyContext,
    bankAccountId: string,
    query: BankAccountRampsQuery,
  ): Promise<Page<Transaction>>;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends RampsPort {}
}
