import * as z from 'zod/mini';
import { FeeTier } from './enums.ts';

/**
 * What approving transactions costs, as the server works it out for the
 * approve dialogs (GET /api/console/approval_costs/?entityIds=a,b,…): each
 * transaction's amount, its network fee (estimated now for its tier while it
 * waits, the fee charged once signed), what leaves in all, in each asset and
 * in USD, and for a selection the sums. The dialogs show these figures as
 * answered, so what an approver reads is what the server said.
 */

/** An amount of one asset on one chain, with its USD value (null: no price for it). */
export const CostFigure = z.strictObject({
  amount: z.string(),
  asset: z.string(),
  blockChain: z.nullable(z.string()),
  usd: z.nullable(z.string()),
});
export type CostFigure = z.infer<typeof CostFigure>;

export const CostFee = z.strictObject({
  ...CostFigure.shape,
  tier: FeeTier,
  /** The transaction names no tier: the custody API's default (HIGH) applies. */
  tierDefaulted: z.boolean(),
  /** ESTIMATED: the tier's estimate now, what signing would charge; CHARGED: set at signing. */
  basis: z.enum(['ESTIMATED', 'CHARGED']),
});
export type CostFee = z.infer<typeof CostFee>;

export const TransactionCost = z.strictObject({
  entityId: z.string(),
  /** What the transaction sends; null when it states no amount. */
  amount: z.nullable(CostFigure),
  /** The network fee; null when it could not be told (`feeProblem` says why). */
  fee: z.nullable(CostFee),
  feeProblem: z.nullable(z.string()),
  /** Amount and fee added up per asset: one line when the fee is paid in the amount's asset. */
  leaving: z.array(CostFigure),
  /** Amount and fee in USD; null when either has no USD value or the fee is unknown. */
  totalUsd: z.nullable(z.string()),
  /** The fee is more than what is sent (compared in the asset when both are in one, else in USD). */
  feeExceedsAmount: z.boolean(),
});
export type TransactionCost = z.infer<typeof TransactionCost>;

/** One asset's part of a selection: what is sent, the fees, both together. */
export const CostSumLine = z.strictObject({
  asset: z.string(),
  blockChain: z.nullable(z.string()),
  amount: z.string(),
  fee: z.string(),
  total: z.string(),
  usd: z.nullable(z.string()),
});
export type CostSumLine = z.infer<typeof CostSumLine>;

export const CostSum = z.strictObject({
  perAsset: z.array(CostSumLine),
  /** Sums in USD of the priced parts; `unpriced` counts the transactions a figure is missing from. */
  amountUsd: z.string(),
  feeUsd: z.string(),
  totalUsd: z.string(),
  unpriced: z.int().check(z.nonnegative()),
});
export type CostSum = z.infer<typeof CostSum>;

export const ApprovalCosts = z.strictObject({
  /** In the order asked, leaving out an id the member may not see or that is no transaction. */
  results: z.array(TransactionCost),
  sum: CostSum,
});
export type ApprovalCosts = z.infer<typeof ApprovalCosts>;

/** The ids asked about: comma-separated, at most 100, as the decisions' read takes them. */
export { ApprovalDecisionQuery as ApprovalCostsQuery } from './approval-decision.ts';
