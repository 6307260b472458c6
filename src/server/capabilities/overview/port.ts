import type { TransactionStatus } from '#contract/enums.ts';
import type { VaultHolding } from '#contract/overview.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { CustodyContext, ScopeFilter } from '../../custody/call-context.ts';

/**
 * What the overview's figures are made of, read where it is already kept
 * (the sandbox's balances and its transactions index) in a fixed number of
 * statements, however many vaults and transactions there are. The custody
 * API offers no such read: upstream the overview composes the same facts
 * from its vault, balance and transaction lists (overview.ts).
 */

export interface OverviewFactsQuery extends ScopeFilter {
  /** COMPLETED transactions created from this instant on count (the chart's first day less the lag). */
  createdFrom: Date;
  /** Completed up to this instant (later ones are not counted). */
  now: Date;
  /** The last day's flows are those completed after this instant. */
  lastDayFrom: Date;
}

/** Completed transactions out of (or into) the scope's vaults: their USD, how many, how many unvalued. */
export interface FlowTotals {
  /** A decimal string: the sum of the valued ones' `amountInUSD`. */
  usd: string;
  count: number;
  unpriced: number;
}

/**
 * The outflow completed within one quarter hour (UTC), from `at`: a zone's
 * offset is a whole number of quarter hours, so the quarter falls on one
 * calendar day in any zone and the caller places it there.
 */
export interface QuarterFlow extends FlowTotals {
  at: Date;
}

/** The statuses of a transaction on its way: neither completed, failed nor declined, nor a draft. */
export const IN_FLIGHT: readonly TransactionStatus[] = [
  'PENDING',
  'APPROVED',
  'SIGNED',
  'SUBMITTED',
  'WAITING_CONFIRMATION',
];

/** The transactions on their way in scope. */
export interface InFlightFacts {
  /** How many are in each IN_FLIGHT status, in that order. */
  byStatus: Array<{ status: TransactionStatus; count: number }>;
  /**
   * Every one that may be slower than usual, as the transactions list answers
   * it at `now` (its `slowAfter` and `slowerThanUsual`): at least those on the
   * chain, any others too.
   */
  mayBeSlow: Transaction[];
  /** Whether every one was counted and read (a read has a bound). */
  complete: boolean;
}

export interface OverviewFacts {
  /** Every vault in scope, not deleted, newest first, its balances valued as detailed_balances values them. */
  vaults: Array<Pick<VaultHolding, 'id' | 'name' | 'subOrgId' | 'usd' | 'holdings'>>;
  /** Outflows by quarter hour, between `createdFrom`'s transactions and `now`. */
  outflowByQuarter: QuarterFlow[];
  lastDay: { outflow: FlowTotals; inflow: FlowTotals };
  inFlight: InFlightFacts;
}

export interface OverviewPort {
  overviewFacts?(ctx: CustodyContext, query: OverviewFactsQuery): Promise<OverviewFacts>;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends OverviewPort {}
}
