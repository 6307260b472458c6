import type { Page, PageRequest } from '#contract/common.ts';
import type {
  CreateTransactionRequest,
  EstimatedFeeResponse,
  EstimateFeeRequest,
  ReplaceTransactionRequest,
  Transaction,
  TransactionFilters,
} from '#contract/transaction.ts';
import type { CustodyContext, ScopeFilter } from '../../custody/call-context.ts';

export type TransactionListQuery = PageRequest & TransactionFilters & ScopeFilter;

/** Transactions, as either backend answers them (custody API endpoints 4–8). */
export interface TransactionsPort {
  // Endpoints 4 and 5.
  listTransactions(ctx: CustodyContext, query: TransactionListQuery): Promise<Page<Transaction>>;
  getTransaction(ctx: CustodyContext, transactionId: string): Promise<Transaction>;
  // Endpoints 6–8: create (PENDING, with a change request), replace a SUBMITTED one, estimate fees.
  createTransaction(ctx: CustodyContext, body: CreateTransactionRequest): Promise<Transaction>;
  replaceTransaction(ctx: CustodyContext, body: ReplaceTransactionRequest): Promise<Transaction>;
  estimateFee(ctx: CustodyContext, body: EstimateFeeRequest): Promise<EstimatedFeeResponse>;
}
