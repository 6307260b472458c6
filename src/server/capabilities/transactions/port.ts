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

/** Whose stake, where: the vault, the chain, its native asset and the TRON resource (or none). */
export interface StakedOf {
  vaultId: string;
  blockChain: string;
  asset: string;
  resourceType: string | null;
}

export type TransactionListQuery = PageRequest & TransactionFilters & ScopeFilter;

/** Transactions, as either backend answers them (custody API endpoints 4–8). */
export interface TransactionsPort {
  // Endpoints 4 and 5.
  listTransactions(ctx: CustodyContext, query: TransactionListQuery): Promise<Page<Transaction>>;
  getTransaction(ctx: CustodyContext, transactionId: string): Promise<Transaction>;
  /**
   * The status of many transactions in one read, by id (an unknown id is left out): how the
   * payment run executor learns which of its rows' transactions moved, without reading each.
   * The custody API has no such call: only the sandbox, whose executor runs, offers it.
   */
  transactionStatuses?(ctx: CustodyContext, ids: readonly string[]): Promise<Map<string, string>>;
  // Endpoints 6–8: create (PENDING, with a change request), replace a SUBMITTED one, estimate fees.
  createTransaction(ctx: CustodyContext, body: CreateTransactionRequest): Promise<Transaction>;
  replaceTransaction(ctx: CustodyContext, body: ReplaceTransactionRequest): Promise<Transaction>;
  estimateFee(ctx: CustodyContext, body: EstimateFeeRequest): Promise<EstimatedFeeResponse>;
  /**
   * What the vault has staked (the most an unstake may take back), as a
   * decimal string. The custody API reports no stake: only the sandbox, which
   * judges unstakes by this very figure, has it.
   */
  stakedAmount?(ctx: CustodyContext, of: StakedOf): Promise<string>;
  /**
   * Calls off a scheduled transfer before its time (engine/cancel-scheduled.ts):
   * it ends FAILED, its error naming `by`. The custody API has no cancel: only
   * the sandbox offers it.
   */
  cancelScheduled?(ctx: CustodyContext, transactionId: string, by: string): Promise<Transaction>;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends TransactionsPort {}
}
