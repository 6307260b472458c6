import type {
  ApprovalCosts,
  CostFee,
  CostFigure,
  CostSum,
  CostSumLine,
  TransactionCost,
} from '#contract/approval-cost.ts';
import { ApiError } from '#contract/api-error.ts';
import { chainInfo } from '#contract/chains.ts';
import { add, cmp, isDecimalString, sum } from '#contract/decimal.ts';
import { FeeTier } from '#contract/enums.ts';
import {
  ContractCallData,
  EstimateFeeRequest,
  type EstimatedFeeResponse,
  type Transaction,
} from '#contract/transaction.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';

/**
 * What approving a transaction costs (contract/approval-cost.ts): worked out
 * here, once, for both approve dialogs. While a transaction waits, its fee is
 * the estimate of its tier now, the figure signing charges (the sandbox's
 * steps charge the tier's estimate at signing); once a fee is recorded, that
 * one. USD values come from the prices the approval policies judge by
 * (`usdValue` of the backend), else from the custody API's own figures.
 */

/** The custody API's tier when a create names none (docs/api-rules.md, "Fee tiers"). */
const DEFAULT_TIER: FeeTier = 'HIGH';

const positive = (amount: string | undefined): amount is string =>
  amount !== undefined && isDecimalString(amount) && cmp(amount, '0') > 0;

/**
 * The fee estimate's body for a transaction as answered: the fields that price
 * it, as its create body had them. Null for what the estimate does not cover
 * (ramps, swaps, incoming transfers…): their fee is not a network fee of ours
 * to estimate.
 */
export function estimateBodyOf(tx: Transaction): EstimateFeeRequest | null {
  if (tx.transactionType === 'INCOMING') return null;
  const party = (p: Transaction['source']) =>
    p?.type ? { type: p.type, id: p.id ?? p.address } : undefined;
  const priced = {
    blockChain: tx.blockChain,
    ...(positive(tx.amount) ? { amount: tx.amount } : {}),
  };
  let candidate: unknown;
  switch (tx.category) {
    case 'TRANSFER':
    case 'TOKEN_TRANSFER':
      candidate = {
        category: 'TRANSFER',
        source: party(tx.source),
        destination: party(tx.destination),
        asset: tx.asset,
        ...priced,
      };
      break;
    case 'CONTRACT_CALL': {
      const data = ContractCallData.safeParse(tx.data);
      candidate = {
        category: 'CONTRACT_CALL',
        vaultId: tx.vaultId ?? tx.source?.id,
        ...(data.success ? { data: data.data } : {}),
        ...priced,
      };
      break;
    }
    case 'STAKE':
      candidate = { category: 'STAKE', source: party(tx.source), asset: tx.asset, ...priced };
      break;
    case 'DELEGATE_RESOURCE':
      candidate = {
        category: 'DELEGATE_RESOURCE',
        source: party(tx.source),
        destination: party(tx.destination),
        asset: tx.asset,
        resourceType: (tx as { resourceType?: unknown }).resourceType,
        ...priced,
      };
      break;
    default:
      return null;
  }
  const parsed = EstimateFeeRequest.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}

/** The tier a transaction pays at, and whether it named one. */
export function tierOf(tx: Transaction): { tier: FeeTier; tierDefaulted: boolean } {
  // A tier this console does not know is read as none named: the custody API charges its default.
  const named = FeeTier.safeParse(tx.gasParams?.feeTier);
  return named.success
    ? { tier: named.data, tierDefaulted: false }
    : { tier: DEFAULT_TIER, tierDefaulted: true };
}

function tierFee(estimate: EstimatedFeeResponse, tier: FeeTier) {
  return tier === 'HIGH' ? estimate.high : tier === 'MEDIUM' ? estimate.medium : estimate.low;
}

/** The facts a cost is worked out from, gathered by `approvalCosts` (or a test). */
export interface CostInputs {
  /** The amount's USD value, null when it has none. */
  amountUsd: string | null;
  fee: CostFee | null;
  feeProblem: string | null;
}

/** A transaction's cost from its fee and prices: pure, so the arithmetic is tested on its own. */
export function transactionCost(tx: Transaction, inputs: CostInputs): TransactionCost {
  const chain = tx.blockChain ?? null;
  const amount: CostFigure | null =
    tx.amount !== undefined && isDecimalString(tx.amount)
      ? {
          amount: tx.amount,
          asset: tx.asset ?? chainInfo(tx.blockChain)?.nativeAsset ?? '',
          blockChain: chain,
          usd: inputs.amountUsd,
        }
      : null;
  const { fee } = inputs;
  const figures: CostFigure[] = [
    ...(amount ? [amount] : []),
    ...(fee
      ? [{ amount: fee.amount, asset: fee.asset, blockChain: fee.blockChain, usd: fee.usd }]
      : []),
  ];
  const leaving = mergeFigures(figures);
  const totalUsd =
    fee === null || figures.some((f) => f.usd === null)
      ? null
      : sum(figures.map((f) => f.usd ?? '0'));
  return {
    entityId: tx.id ?? '',
    amount,
    fee,
    feeProblem: fee ? null : inputs.feeProblem,
    leaving,
    totalUsd,
    feeExceedsAmount: feeExceeds(amount, fee),
  };
}

/**
 * The fee is more than what is sent: in the asset when both are in one, else
 * in USD when both have a value. Nothing sent (a contract call's zero value)
 * warns of nothing: there the fee is the whole cost, and it is shown as such.
 */
function feeExceeds(amount: CostFigure | null, fee: CostFee | null): boolean {
  if (!amount || !fee || !positive(amount.amount)) return false;
  if (amount.asset === fee.asset && amount.blockChain === fee.blockChain)
    return cmp(fee.amount, amount.amount) > 0;
  if (amount.usd === null || fee.usd === null) return false;
  return cmp(fee.usd, amount.usd) > 0;
}

const figureKey = (f: { asset: string; blockChain: string | null }) =>
  `${f.asset}\u0000${f.blockChain ?? ''}`;

/** Figures of one asset on one chain added up, in the order first met; a USD sum only when each has one. */
function mergeFigures(figures: readonly CostFigure[]): CostFigure[] {
  const merged = new Map<string, CostFigure>();
  for (const f of figures) {
    const key = figureKey(f);
    const seen = merged.get(key);
    merged.set(
      key,
      seen
        ? {
            ...seen,
            amount: add(seen.amount, f.amount),
            usd: seen.usd === null || f.usd === null ? null : add(seen.usd, f.usd),
          }
        : f,
    );
  }
  return [...merged.values()];
}

/** A selection's sums: per asset (amounts, fees, both) and in USD, counting what has no USD value. */
export function sumCosts(costs: readonly TransactionCost[]): CostSum {
  const lines = new Map<string, CostSumLine>();
  const line = (f: { asset: string; blockChain: string | null }) => {
    const key = figureKey(f);
    const found = lines.get(key);
    if (found) return found;
    const made: CostSumLine = {
      asset: f.asset,
      blockChain: f.blockChain,
      amount: '0',
      fee: '0',
      total: '0',
      usd: '0',
    };
    lines.set(key, made);
    return made;
  };
  const plusUsd = (a: string | null, b: string | null) =>
    a === null || b === null ? null : add(a, b);
  for (const cost of costs) {
    if (cost.amount) {
      const l = line(cost.amount);
      l.amount = add(l.amount, cost.amount.amount);
      l.total = add(l.total, cost.amount.amount);
      l.usd = plusUsd(l.usd, cost.amount.usd);
    }
    if (cost.fee) {
      const l = line(cost.fee);
      l.fee = add(l.fee, cost.fee.amount);
      l.total = add(l.total, cost.fee.amount);
      l.usd = plusUsd(l.usd, cost.fee.usd);
    }
  }
  const amountUsd = sum(costs.flatMap((c) => (c.amount?.usd ? [c.amount.usd] : [])));
  const feeUsd = sum(costs.flatMap((c) => (c.fee?.usd ? [c.fee.usd] : [])));
  return {
    perAsset: [...lines.values()],
    amountUsd,
    feeUsd,
    totalUsd: add(amountUsd, feeUsd),
    unpriced: costs.filter((c) => c.totalUsd === null).length,
  };
}

/** Why an estimate failed, in words an approver reads. */
function estimateProblem(error: unknown): string {
  if (error instanceof ApiError) return `The fee could not be estimated: ${error.message}`;
  return 'The fee could not be estimated: the custody API did not answer';
}

/** The fee of one transaction: charged once signed, else estimated now for its tier. */
async function feeOf(
  backend: CustodyBackend,
  ctx: CustodyContext,
  tx: Transaction,
): Promise<{ fee: CostFee | null; feeProblem: string | null }> {
  const { tier, tierDefaulted } = tierOf(tx);
  const chain = tx.blockChain ?? null;
  const vaultId = tx.vaultId ?? (tx.source?.type === 'VAULT' ? tx.source.id : undefined);
  const priced = (asset: string, amount: string, given: string | undefined) =>
    usdOf(backend, ctx, asset, chain, amount, vaultId, given);
  const charged = tx.fees;
  if (charged?.amount && isDecimalString(charged.amount) && charged.asset) {
    return {
      fee: {
        amount: charged.amount,
        asset: charged.asset,
        blockChain: chain,
        usd: await priced(charged.asset, charged.amount, charged.amountInFiat),
        tier,
        tierDefaulted,
        basis: 'CHARGED',
      },
      feeProblem: null,
    };
  }
  const body = estimateBodyOf(tx);
  if (!body)
    return {
      fee: null,
      feeProblem: `A ${(tx.category ?? 'transaction').toLowerCase().replaceAll('_', ' ')} has no network fee estimate: its costs are the provider's, shown with it`,
    };
  try {
    const estimate = tierFee(await backend.estimateFee(ctx, body), tier);
    return {
      fee: {
        amount: estimate.expectedFeeInAsset,
        asset: estimate.asset,
        blockChain: chain,
        usd: await priced(estimate.asset, estimate.expectedFeeInAsset, estimate.expectedFeeInUSD),
        tier,
        tierDefaulted,
        basis: 'ESTIMATED',
      },
      feeProblem: null,
    };
  } catch (error) {
    return { fee: null, feeProblem: estimateProblem(error) };
  }
}

/** The policies' price where the backend has one, else the figure the custody API gave. */
async function usdOf(
  backend: CustodyBackend,
  ctx: CustodyContext,
  asset: string,
  chain: string | null,
  amount: string,
  vaultId: string | undefined,
  given: string | undefined,
): Promise<string | null> {
  const priced =
    backend.usdValue && chain
      ? await backend.usdValue(ctx, asset, chain, amount, vaultId).catch(() => null)
      : null;
  if (priced !== null) return priced;
  return given !== undefined && isDecimalString(given) ? given : null;
}

/**
 * One transaction's cost as answered (or a draft's, made from its create
 * body): its fee of its tier and the USD values. The approval card's fee
 * ceiling and what leaves are read from it, so they are never worked out twice.
 */
export async function costOf(
  backend: CustodyBackend,
  ctx: CustodyContext,
  tx: Transaction,
): Promise<TransactionCost> {
  const vaultId = tx.vaultId ?? (tx.source?.type === 'VAULT' ? tx.source.id : undefined);
  const [fee, amountUsd] = await Promise.all([
    feeOf(backend, ctx, tx),
    positive(tx.amount) && tx.asset
      ? usdOf(backend, ctx, tx.asset, tx.blockChain ?? null, tx.amount, vaultId, tx.amountInUSD)
      : Promise.resolve(tx.amountInUSD ?? (tx.amount !== undefined ? '0' : null)),
  ]);
  return transactionCost(tx, { amountUsd, ...fee });
}

/**
 * The costs of the transactions named that the member may see, in the order
 * asked, and their sums. Each is read afresh (the single read carries its
 * tier); one the member may not see, or that is not a transaction, is left out.
 */
export async function approvalCosts(
  backend: CustodyBackend,
  ctx: CustodyContext,
  entityIds: readonly string[],
): Promise<ApprovalCosts> {
  const found = await Promise.all(
    entityIds.map((id) =>
      backend.getTransaction(ctx, id).catch((error: unknown) => {
        // Not found, or outside the member's scope (which answers 404 too): left out.
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }),
    ),
  );
  const results = await Promise.all(
    found.flatMap((tx) => (tx ? [tx] : [])).map((tx) => costOf(backend, ctx, tx)),
  );
  return { results, sum: sumCosts(results) };
}
